import Foundation
import ObjectGraph

/// The filters a user applied to one store, kept between runs so that ↑ on the filter line
/// brings them back: the last 100 per store, most recent last, each once.
///
/// Kept in `$XDG_STATE_HOME/termdata/filters.json` (`~/.local/state/termdata/filters.json`),
/// by store — its file's path, or its address without a password. Without a file (tests, a
/// store in memory) the history lasts as long as the program.
///
/// ```swift
/// let history = FilterHistory(url: FilterHistory.defaultURL(), store: storeURL.path)
/// app.beginPrompt("Filter: ", history: history.filters) { text in history.record(text) }
/// ```
package final class FilterHistory {
    package static let limit = 100

    package let url: URL?
    package let store: String
    package private(set) var filters: [String]

    package init(url: URL?, store: String) {
        self.url = url
        self.store = store
        filters = url.flatMap { (StateFile.load($0) as [String: [String]])[store] } ?? []
    }

    /// `$XDG_STATE_HOME/termdata/filters.json`, or `~/.local/state/termdata/filters.json`.
    package static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        PersistentContainer.directory(xdg: "XDG_STATE_HOME", home: ".local/state", environment: environment)
            .appendingPathComponent("filters.json")
    }

    /// The key a store's filters are kept under: a file's path, or an address without its
    /// password (`postgres://ada@host/db`).
    package static func storeKey(_ url: URL) -> String {
        guard !url.isFileURL, var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.standardizedFileURL.path }
        parts.password = nil
        parts.query = nil
        return parts.string ?? url.absoluteString
    }

    /// Remembers a filter applied: it moves to the end (or is added there), the oldest past
    /// the limit are dropped, and the file is written, keeping other stores' filters. A file
    /// that cannot be written loses nothing of the running program's history.
    package func record(_ filter: String) {
        let text = filter.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return }
        filters.removeAll { $0 == text }
        filters.append(text)
        if filters.count > Self.limit { filters.removeFirst(filters.count - Self.limit) }
        // The history is a convenience: the filter itself was applied, whether or not the file is written.
        if let url { StateFile.replace(store, with: filters, in: url) }
    }
}

/// A JSON file of the state directory that keeps something per store (the filter history,
/// the saved filters), other stores' entries left as they are.
enum StateFile {
    /// Every store's entry in the file; none when there is no file or it holds something else.
    static func load<Entry: Decodable>(_ url: URL) -> [String: Entry] {
        guard let data = try? Data(contentsOf: url) else { return [:] }
        return (try? JSONDecoder().decode([String: Entry].self, from: data)) ?? [:]
    }

    /// Writes one store's entry (or removes it, for nil), keeping the others; a file that
    /// cannot be written loses nothing of the running program's state.
    static func replace<Entry: Codable>(_ store: String, with entry: Entry?, in url: URL) {
        var all: [String: Entry] = load(url)
        all[store] = entry
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(all).write(to: url, options: .atomic)
        } catch {
            // Kept in memory for this run.
        }
    }
}
