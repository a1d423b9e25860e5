import Foundation
import ObjectGraph
import ObjectModel
import TerminalUI

/// Filters a user saved by name, per store and entity, kept between runs: `@overdue` on the
/// filter line applies the one named `overdue`.
///
/// Kept in `$XDG_STATE_HOME/termdata/saved-filters.json`, by store (as `FilterHistory` keys
/// them), then entity, then name. Without a file they last as long as the program.
///
/// ```swift
/// saved.save("overdue", filter: "dueDate < now() AND completed == NO", entity: "ToDo")
/// saved.filter(named: "overdue", entity: "ToDo")     // the text, to apply
/// ```
package final class SavedFilters {
    package let url: URL?
    package let store: String
    /// Entity → name → filter text.
    package private(set) var filters: [String: [String: String]]

    package init(url: URL?, store: String) {
        self.url = url
        self.store = store
        filters = url.flatMap { (StateFile.load($0) as [String: [String: [String: String]]])[store] } ?? [:]
    }

    /// `$XDG_STATE_HOME/termdata/saved-filters.json`, or `~/.local/state/termdata/saved-filters.json`.
    package static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        PersistentContainer.directory(xdg: "XDG_STATE_HOME", home: ".local/state", environment: environment)
            .appendingPathComponent("saved-filters.json")
    }

    /// An entity's saved filters, by name.
    package func named(for entity: String) -> [(name: String, filter: String)] {
        (filters[entity] ?? [:]).sorted { $0.key.localizedStandardCompare($1.key) == .orderedAscending }.map { ($0.key, $0.value) }
    }

    package func filter(named name: String, entity: String) -> String? { filters[entity]?[name] }

    /// Names are words: letters, digits, `_` and `-`, so that `@name` on the filter line is one.
    package static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-" }
    }

    /// Saves (or replaces) a filter under a name, and writes the file.
    package func save(_ name: String, filter: String, entity: String) {
        filters[entity, default: [:]][name] = filter
        write()
    }

    package func remove(_ name: String, entity: String) {
        filters[entity]?[name] = nil
        if filters[entity]?.isEmpty == true { filters[entity] = nil }
        write()
    }

    /// The filter text `@name` stands for; other text as it is. Nil for a name not saved.
    package func resolve(_ text: String, entity: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("@") else { return text }
        return filter(named: String(trimmed.dropFirst()), entity: entity)
    }

    /// Tab after `@` on the filter line: the saved names that begin so.
    package func complete(_ text: String, entity: String) -> PromptCompletion? {
        guard text.hasPrefix("@"), !text.contains(" ") else { return nil }
        let typed = String(text.dropFirst())
        let names = named(for: entity).map(\.name).filter { $0.hasPrefix(typed) }
        guard !names.isEmpty else { return nil }
        return PromptCompletion(text: "@" + FilterCompletion.commonPrefix(of: names), candidates: names.count > 1 ? names.map { "@" + $0 } : [])
    }

    private func write() {
        if let url { StateFile.replace(store, with: filters.isEmpty ? nil : filters, in: url) }
    }
}

/// The saved-filters panel of an application that filters a table: `@` lists the entity's
/// saved filters; Enter applies one, `s` saves the filter applied now under a name, `d`
/// forgets the selected one.
package protocol SavedFiltering: ContextEditing {
    var savedFilters: SavedFilters { get }
    /// The entity the filter applies to, and the filter applied now.
    var filteredEntityName: String { get }
    var currentFilterText: String { get }
    @discardableResult func applyFilter(_ text: String) -> EventResult
}

extension SavedFiltering {
    /// `@`, named `<prefix>.savedFilters`.
    package func savedFiltersCommand(prefix: String) -> Command {
        Command("\(prefix).savedFilters", title: "Saved filters: apply one, save this one (s)", keys: [.character("@")]) { [weak self] in
            self?.showSavedFilters() ?? .ignored
        }
    }

    /// The filter line's Tab: `@` and a saved name, else the keys and words of the entity.
    package func completeFilter(_ text: String) -> PromptCompletion? {
        if text.hasPrefix("@") { return savedFilters.complete(text, entity: filteredEntityName) }
        guard let entity = context.model.entity(named: filteredEntityName) else { return nil }
        return FilterCompletion.complete(text, entity: entity, model: context.model)
    }

    /// The text to filter by: a saved filter's for `@name`; nil (said in the status line)
    /// for a name not saved.
    package func resolvedFilter(_ text: String) -> String? {
        guard let resolved = savedFilters.resolve(text, entity: filteredEntityName) else {
            app.showMessage("No saved filter \(text.trimmingCharacters(in: .whitespaces)) for \(filteredEntityName) (@ lists them)", isError: true)
            return nil
        }
        return resolved
    }

    package func showSavedFilters() -> EventResult {
        let entity = filteredEntityName
        let source = SavedFiltersSource(saved: savedFilters, entity: entity)
        let list = TableView(columns: [
            TableColumn("name", title: "Name", width: 18, compressedWidth: 8),
            TableColumn("filter", title: "Filter", width: 50, compressedWidth: 12, fillsSpareWidth: true),
        ], dataSource: source)
        let hint = Label("")
        let retitle = { [weak hint] in
            hint?.text = source.numberOfRows == 0 ? "None yet: s saves the filter applied now under a name · Esc closes"
                : "Enter applies · s saves the filter applied now · d forgets · Esc closes"
        }
        retitle()
        list.extraCommands = [
            Command("savedFilters.save", title: "Save the filter applied now under a name", keys: [.character("s")], hint: "Save") { [weak self, weak list] in
                guard let self else { return .ignored }
                let current = self.currentFilterText
                guard !current.isEmpty else {
                    self.app.showMessage("No filter applied: / filters, then @ and s save it", isError: true)
                    return .redraw
                }
                self.app.beginPrompt("Name for “\(current)”: ") { [weak self, weak list] name in
                    guard let self else { return }
                    let name = name.trimmingCharacters(in: .whitespaces)
                    guard SavedFilters.isValidName(name) else {
                        if !name.isEmpty { self.app.showMessage("A name is one word: letters, digits, _ and -", isError: true) }
                        return
                    }
                    self.savedFilters.save(name, filter: current, entity: entity)
                    if let row = source.names.firstIndex(of: name) { list?.select(row: row) }
                    retitle()
                    self.app.showMessage("Saved as @\(name): / then @\(name) applies it")
                }
                return .redraw
            },
            Command("savedFilters.remove", title: "Forget the selected filter", keys: [.character("d"), .delete], hint: "Forget") { [weak self, weak list] in
                guard let self, let list, list.state.selectedRow < source.numberOfRows else { return .handled }
                let name = source.names[list.state.selectedRow]
                self.savedFilters.remove(name, entity: entity)
                list.select(row: max(0, min(list.state.selectedRow, source.numberOfRows - 1)))
                retitle()
                self.app.showMessage("Forgot @\(name)")
                return .redraw
            },
        ]
        let panel = Window.listPanel(title: "Saved filters of \(entity)", header: hint, list: list, width: 80, minimumHeight: 7, chrome: 6) {
            source.numberOfRows
        }
        list.onActivate = { [weak self, weak panel] row in
            guard let self, row < source.numberOfRows else { return }
            let filter = source.filters[row]
            if let panel { self.app.close(panel) }
            self.applyFilter(filter)
        }
        app.show(panel)
        return .redraw
    }
}

/// The rows of the saved-filters panel, read from the saved filters each time.
final class SavedFiltersSource: TableDataSource {
    let saved: SavedFilters
    let entity: String

    init(saved: SavedFilters, entity: String) {
        self.saved = saved
        self.entity = entity
    }

    var names: [String] { saved.named(for: entity).map(\.name) }
    var filters: [String] { saved.named(for: entity).map(\.filter) }
    var numberOfRows: Int { saved.named(for: entity).count }

    func value(row: Int, column: String) -> CellValue {
        let all = saved.named(for: entity)
        guard row < all.count else { return .empty }
        return .text(column == "name" ? "@" + all[row].name : all[row].filter)
    }

    func editor(row: Int, column: String) -> EditorKind? { .readOnly }
    func setValue(_ value: CellValue, row: Int, column: String) throws { throw ReadOnlyError() }
    func sort(by column: String, ascending: Bool) -> Bool { false }
}
