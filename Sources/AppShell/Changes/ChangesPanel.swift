import Foundation
import ObjectGraph
import Predicates
import TerminalBindings
import TerminalUI

/// What Ctrl-S will save, before it does: a panel listing every object added, changed
/// (one line per field, its saved value and its value now) and deleted, where `r` takes one
/// change back (`u` undoes that too) and Ctrl-S saves the rest. The browser and the ToDo
/// application open it with `P`.
extension ContextEditing {
    /// `P`, named `<prefix>.changes`.
    package func changesCommand(prefix: String) -> Command {
        Command("\(prefix).changes", title: "What Ctrl-S will save; r there reverts one", keys: [.character("P")]) { [weak self] in
            self?.showChanges() ?? .ignored
        }
    }

    package func showChanges() -> EventResult {
        guard commitEdits() else {
            app.showMessage("Finish or cancel the edit (Esc) first", isError: true)
            return .redraw
        }
        let source = UnsavedChangesSource(context: context)
        let list = TableView(columns: [
            TableColumn("what", title: "", width: 9),
            TableColumn("object", title: "Object", width: 24, compressedWidth: 12),
            TableColumn("key", title: "Field", width: 14, compressedWidth: 8),
            TableColumn("was", title: "Saved", width: 18, compressedWidth: 8, fillsSpareWidth: true),
            TableColumn("now", title: "Now", width: 18, compressedWidth: 8, fillsSpareWidth: true),
        ], dataSource: source)
        let summary = Label("")
        let retitle: () -> Void = { [weak summary] in summary?.text = source.summary + " · r reverts the selected change · Esc closes" }
        retitle()
        source.onReload = retitle
        list.extraCommands = [
            Command("changes.revert", title: "Revert the selected change (u undoes it)", keys: [.character("r")], hint: "Revert") { [weak self, weak list] in
                guard let self, let list else { return .ignored }
                return self.revert(row: list.state.selectedRow, of: source, in: list)
            },
        ]
        // The list is drawn first: drawing it reads the changes again after a change or a save,
        // and the summary above then counts them.
        app.show(Window.listPanel(title: "Pending changes — what Ctrl-S will save", header: summary, list: list, width: 100,
                                  minimumHeight: 8) { source.numberOfRows })
        return .redraw
    }

    private func revert(row: Int, of source: UnsavedChangesSource, in list: TableView) -> EventResult {
        guard !isReadOnly else {
            app.showMessage("The store is open read-only", isError: true)
            return .redraw
        }
        guard row < source.changes.count else { return .handled }
        let change = source.changes[row]
        let before = UnsavedChangesSource.describe(change)
        do {
            try inOneUndoStep { try context.revert(change) }
        } catch {
            app.showMessage("Cannot revert \(before): \(error)", isError: true)
            return .redraw
        }
        endEvent()
        // A name reverted is said as it is again.
        let what = change.kind == .inserted ? before : UnsavedChangesSource.describe(change)
        source.reload()
        list.select(row: min(row, max(0, source.numberOfRows - 1)))
        app.showMessage("Reverted \(what) — u undoes")
        return .redraw
    }
}

/// The rows of the pending-changes panel, read again whenever the context changes or saves.
final class UnsavedChangesSource: TableDataSource {
    let context: ManagedObjectContext
    private(set) var changes: [UnsavedChange] = []
    private var isStale = true
    private var observation: ContextObservation?
    /// Called after the rows are read again (the panel's title counts them).
    var onReload: (() -> Void)?

    init(context: ManagedObjectContext) {
        self.context = context
        reload()
        observation = context.observe { [weak self] note in
            switch note {
            case .objectsDidChange, .didSave: self?.isStale = true
            default: break
            }
        }
    }

    func reload() {
        isStale = false
        changes = context.unsavedChanges()
        onReload?()
    }

    private func current() -> [UnsavedChange] {
        if isStale { reload() }
        return changes
    }

    /// "1 added · 2 changed fields · 1 deleted", or that there is nothing to save.
    var summary: String {
        let changes = current()
        guard !changes.isEmpty else { return "Nothing to save" }
        let added = changes.count { $0.kind == .inserted }, changed = changes.count { $0.kind == .updated }
        let deleted = changes.count { $0.kind == .deleted }
        return [added > 0 ? "\(added) added" : nil, changed > 0 ? "\(changed) changed field\(changed == 1 ? "" : "s")" : nil,
                deleted > 0 ? "\(deleted) deleted" : nil].compactMap { $0 }.joined(separator: " · ")
    }

    var numberOfRows: Int { current().count }

    func value(row: Int, column: String) -> CellValue {
        let changes = current()
        guard row < changes.count else { return .empty }
        let change = changes[row]
        switch column {
        case "what":
            switch change.kind {
            case .inserted: return .text("+ added")
            case .updated: return .text("~ changed")
            case .deleted: return .text("− deleted")
            }
        case "object": return .text(Self.name(change.object))
        case "key": return change.key.map { .text($0) } ?? .empty
        case "was":
            switch change.kind {
            case .inserted: return .empty
            case .updated: return change.oldValue.map(Self.text) ?? .text("as saved")
            case .deleted: return .text(Self.values(of: change.object))
            }
        case "now":
            switch change.kind {
            case .inserted: return .text(Self.values(of: change.object))
            case .updated: return change.newValue.map(Self.text) ?? .empty
            case .deleted: return .empty
            }
        default: return .empty
        }
    }

    func editor(row: Int, column: String) -> EditorKind? { .readOnly }
    func setValue(_ value: CellValue, row: Int, column: String) throws { throw ReadOnlyError() }
    func sort(by column: String, ascending: Bool) -> Bool { false }

    /// `Employee “Ada”`, or entity and key where the object has no name.
    static func name(_ object: ManagedObject) -> String {
        let name = CellValue.plainName(object), key = CellValue.keyName(object)
        return name == key ? name : "\(object.entity.name) “\(name)”"
    }

    /// A change in words, for the status line: `salary of Employee “Ada”`.
    static func describe(_ change: UnsavedChange) -> String {
        switch change.kind {
        case .inserted: return "the new \(name(change.object))"
        case .updated: return "\(change.key ?? "") of \(name(change.object))"
        case .deleted: return "the delete of \(name(change.object))"
        }
    }

    /// A value as the panel shows it: objects by name, a to-many by its members' names.
    static func text(_ value: ObjectValue) -> CellValue {
        if let elements = value.collectionElements {
            let names = elements.compactMap { ($0.objectReference as? ManagedObject).map(CellValue.displayName) }
            return .text(names.isEmpty ? "none" : names.joined(separator: ", "))
        }
        switch value {
        case .null: return .text("nil")
        case .bool(let flag): return .text(flag ? "yes" : "no")
        default: return CellValue(value)
        }
    }

    /// An added or deleted object's attribute values, `name: Fay · salary: 0`: those that
    /// are set, and for an added one those that are not its entity's defaults.
    static func values(of object: ManagedObject) -> String {
        let entity = object.entity
        return entity.attributes.enumerated().compactMap { i, attribute in
            guard !attribute.isTransient, let value = try? object.value(forKey: attribute.name), value != .null,
                  !(object.isInserted && value == entity.defaultAttributeValues[i]) else { return nil }
            return "\(attribute.name): \(ValueFormat.automatic.string(for: text(value)))"
        }.joined(separator: " · ")
    }
}
