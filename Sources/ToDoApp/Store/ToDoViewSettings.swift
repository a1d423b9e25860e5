import Foundation
import ObjectGraph
import TerminalUI

/// How the ToDo window looked when the user left it, restored at the next start: the item
/// table's sort, column widths and hidden columns.
///
/// Kept for the application, not for one store, in `$XDG_STATE_HOME/termdata/ToDo-view.json`
/// (`~/.local/state/termdata/ToDo-view.json`): the XDG place for state worth keeping
/// between runs that is not the user's data.
public struct ToDoViewSettings: Codable, Equatable, Sendable {
    /// The item table's layout.
    public var items: TableLayout?

    public init(items: TableLayout? = nil) { self.items = items }

    /// `$XDG_STATE_HOME/termdata/ToDo-view.json`, or `~/.local/state/termdata/ToDo-view.json`
    /// when the variable is unset, empty or not an absolute path.
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        PersistentContainer.directory(xdg: "XDG_STATE_HOME", home: ".local/state", environment: environment)
            .appendingPathComponent("ToDo-view.json")
    }

    /// The settings in a file; empty ones when there is no file yet.
    ///
    /// - Throws: when the file cannot be read or does not hold settings.
    public static func load(from url: URL) throws -> ToDoViewSettings {
        guard FileManager.default.fileExists(atPath: url.path) else { return ToDoViewSettings() }
        return try JSONDecoder().decode(ToDoViewSettings.self, from: Data(contentsOf: url))
    }

    /// Writes the settings, replacing the file whole, creating its folder as needed.
    public func save(to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: url, options: .atomic)
    }
}
