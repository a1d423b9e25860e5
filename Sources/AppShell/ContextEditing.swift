import Foundation
import ObjectGraph
import TerminalBindings
import TerminalUI

/// What the ToDo application and the browser share around their context: undo, redo,
/// saving and the conflict dialog, each reported in the status bar, and the question asked
/// before quitting with unsaved changes.
///
/// ```swift
/// extension MyApp: ContextEditing {
///     package func save() -> EventResult { if saveChanges() { app.showMessage("Saved") }; return .redraw }
///     ...
/// }
/// for command in editingCommands(prefix: "my") { app.keyMap.add(command) }
/// ```
package protocol ContextEditing: AnyObject {
    var app: Application { get }
    var context: ManagedObjectContext { get }
    /// Whether changes are refused (a store opened read-only).
    var isReadOnly: Bool { get }
    /// What follows other programs' saves, if anything does.
    var live: LiveRefresh? { get }
    /// Commits the edits open in tables and forms; false when an editor refuses its value.
    @discardableResult func commitEdits() -> Bool
    func updateStatus()
    /// Saves on the user's command (Ctrl-S), saying how it went.
    func save() -> EventResult
    /// Shows the objects of a refused save where the user can fix them: the first one
    /// selected, its problems under its fields.
    func reveal(_ failures: [ValidationFailure])
    /// The store now lives at another file (saved as a new store): titles follow it.
    func storeDidMove(to url: URL)
}

extension ContextEditing {
    /// Ends an event for the context: delete rules run, the undo group closes, and the
    /// controllers hear of the changes.
    package func endEvent() {
        context.processPendingChanges()
        updateStatus()
    }

    /// Undo, redo, save and the pending changes, as commands named `<prefix>.undo`, `.redo`,
    /// `.save` and `.changes`.
    package func editingCommands(prefix: String) -> [Command] {
        [
            Command("\(prefix).undo", title: "Undo", keys: [.character("u")], hint: "Undo") { [weak self] in
                self?.undo() ?? .ignored
            },
            Command("\(prefix).redo", title: "Redo", keys: [.control("r"), .control("y")]) { [weak self] in
                self?.redo() ?? .ignored
            },
            Command("\(prefix).save", title: "Save", keys: [.control("s"), .function(2)], hint: "Save") { [weak self] in
                self?.save() ?? .ignored
            },
            changesCommand(prefix: prefix),
        ]
    }

    /// The objects inserted, changed and deleted since the last save.
    package var unsavedChangeCount: Int {
        context.processPendingChanges()
        return context.insertedObjects.count + context.updatedObjects.count + context.deletedObjects.count
    }

    /// How both quit flows begin: true to quit at once (already `confirmed`, or nothing to
    /// save), false while an open edit refuses its value (the status line says so), nil when
    /// there are changes to decide on.
    package func quitWithoutQuestion(confirmed: Bool) -> Bool? {
        if confirmed { return true }
        guard commitEdits() else {
            app.showMessage("Finish or cancel the edit (Esc) before quitting", isError: true)
            return false
        }
        context.processPendingChanges()
        return context.hasChanges ? nil : true
    }

    /// q, Ctrl-Q and F10 quit, in both applications.
    package func installQuitKeys() {
        app.keyMap.rebind("app.quit", to: [.character("q"), .control("q"), .function(10)])
    }

    /// Asks whether to save the unsaved changes before quitting. "Save and quit" comes
    /// first, so Enter never loses work; "Discard and quit" rolls the changes back first;
    /// Cancel stays.
    package func askToSaveBeforeQuitting(saveAndQuit: @escaping () -> Void, discardAndQuit: @escaping () -> Void) {
        let changes = unsavedChangeCount
        app.alert(title: "Unsaved changes",
                  message: "Save \(changes) unsaved change\(changes == 1 ? "" : "s") before quitting?",
                  buttons: ["Save and quit", "Discard and quit", "Cancel"]) { [weak self] choice in
            guard let self, let choice, choice < 2 else { return }
            if choice == 0 { return saveAndQuit() }
            self.context.rollback()
            discardAndQuit()
        }
    }

    /// The menu bar both applications show, opened with F9: File (save, import, export,
    /// quit); Edit (the
    /// application's own items, then undo, redo and the filter); the application's own
    /// menus (`middle`); Help. Commands are named `<prefix>.save`, `.undo`, `.redo`,
    /// `.filter` and `.clearFilter`; the menu shows each one's keys as bound.
    package func installMenus(prefix: String, editItems: [MenuItem], middle: [Menu]) {
        app.keyMap.rebind("app.menu", to: [.function(9)])
        app.menuBar = MenuBar([
            Menu("File", items: [
                MenuItem("Save", command: "\(prefix).save"),
                MenuItem("Changes…", command: "\(prefix).changes"),
                MenuItem("Import…", command: "\(prefix).import"),
                MenuItem("Export…", command: "\(prefix).export"),
                MenuItem("Quit", command: "app.quit"),
            ]),
            Menu("Edit", items: editItems + [
                MenuItem("Undo", command: "\(prefix).undo"),
                MenuItem("Redo", command: "\(prefix).redo"),
                MenuItem("Filter", command: "\(prefix).filter"),
                MenuItem("Clear filter", command: "\(prefix).clearFilter"),
            ]),
        ] + middle + [
            Menu("Help", items: [MenuItem("Keys", command: "app.help")]),
        ])
    }

    /// Runs `body` as one step to undo (an insert and the values it starts with).
    package func inOneUndoStep<T>(_ body: () throws -> T) rethrows -> T {
        context.undoManager?.beginUndoGrouping()
        defer { context.undoManager?.endUndoGrouping() }
        return try body()
    }

    /// Takes back an object just added whose first edit was cancelled: when nothing was
    /// recorded since its add (`undoCount` then), undoing removes it.
    package func discardAdded(_ object: ManagedObject?, undoCount: Int) {
        context.processPendingChanges()
        guard let object, object.isInserted, let undo = context.undoManager, undo.undoGroupCount == undoCount else { return }
        context.undo()
        endEvent()
    }

    package func undo() -> EventResult {
        _ = commitEdits()
        guard context.undoManager?.canUndo == true else {
            app.showMessage("Nothing to undo")
            return .redraw
        }
        context.undo()
        endEvent()
        return .redraw
    }

    package func redo() -> EventResult {
        guard context.undoManager?.canRedo == true else {
            app.showMessage("Nothing to redo")
            return .redraw
        }
        context.redo()
        endEvent()
        return .redraw
    }

    /// Saves, reporting the outcome in the status bar; returns whether the save succeeded.
    /// An edit whose value is refused stays open, and nothing is saved until it is fixed or
    /// cancelled.
    ///
    /// A save that meets rows another save changed asks whose values win and saves again;
    /// `afterConflict` then runs in place of the usual "Saved".
    @discardableResult
    package func saveChanges(afterConflict: (() -> Void)? = nil) -> Bool {
        guard commitEdits() else {
            app.showMessage("Finish or cancel the edit (Esc) before saving", isError: true)
            return false
        }
        do {
            try context.save()
            updateStatus()
            return true
        } catch let error as ValidationError {
            reportSaveFailures(error.failures)
            return false
        } catch let error as MergeConflictError {
            resolveConflicts(error) { [weak self] in
                if let afterConflict { afterConflict() } else { self?.app.showMessage("Saved") }
            }
            return false
        } catch let error as ObjectGraphError where Self.isAboutTheFile(error) {
            // Too much to say in the status line: where the file went, that nothing is lost,
            // and where the changes can go now.
            updateStatus()
            offerToSaveElsewhere(error, afterSave: afterConflict)
            return false
        } catch {
            app.showMessage("Could not save: \(error)", isError: true)
            return false
        }
    }

    /// Another save (another window on the same store) changed rows this one changed too:
    /// asks whose values win where both changed the same field, and saves again that way.
    /// Fields only one side changed keep that side's value either way. `saved` runs after
    /// the save succeeds; `extraButton` (the quit's "Quit without saving") after its choice.
    package func resolveConflicts(_ error: MergeConflictError, extraButton: (title: String, action: () -> Void)? = nil,
                          saved: @escaping () -> Void) {
        updateStatus()
        let shown = error.conflicts.prefix(6).map { conflict -> String in
            let what = conflictSubject(conflict.objectID)
            if conflict.newVersion == 0 { return "  \(what), deleted there" }
            let both = context.keysChangedOnBothSides(of: conflict)
            return both.isEmpty ? "  \(what)" : "  \(what): \(both.joined(separator: ", ")) changed on both sides"
        }
        let more = error.conflicts.count > 6 ? ["  … and \(error.conflicts.count - 6) more"] : []
        let count = error.conflicts.count
        let message = "\(count) object\(count == 1 ? " was" : "s were") changed by another save since \(count == 1 ? "it was" : "they were") read:\n"
            + (shown + more).joined(separator: "\n")
            + "\n\nKeep mine: your values win where both saves changed a field.\nTake theirs: the other save's values win there."
        app.alert(title: "Changed elsewhere", message: message,
                  buttons: ["Keep mine", "Take theirs"] + (extraButton.map { [$0.title] } ?? []) + ["Cancel"]) { [weak self] choice in
            guard let self, let choice else { return }
            if choice == 2, let extraButton { return extraButton.action() }
            guard choice < 2 else { return }
            let policy = self.context.mergePolicy
            self.context.mergePolicy = choice == 0 ? .mergeByPropertyObjectTrump : .mergeByPropertyStoreTrump
            defer { self.context.mergePolicy = policy }
            if self.saveChanges() { saved() }
        }
    }

    /// Whether a save failed because the store's file is not the one opened.
    private static func isAboutTheFile(_ error: ObjectGraphError) -> Bool {
        switch error {
        case .storeFileMissing, .storeFileReplaced: return true
        default: return false
        }
    }

    /// An object as the conflict dialog names it: its entity and display name.
    private func conflictSubject(_ id: ManagedObjectID) -> String {
        guard let object = context.registeredObject(for: id) else { return "\(id.entityName) \(id.primaryKey ?? 0)" }
        let name = CellValue.displayName(object)
        guard name != CellValue.keyName(object) else { return name }
        return "\(id.entityName) “\(name.truncated(toWidth: 40))”"
    }

    /// One problem goes in the status line; several in a dialog, one line each. Either
    /// way the first object is selected with its problems under its fields.
    package func reportSaveFailures(_ failures: [ValidationFailure]) {
        reveal(failures)
        let lines = failures.map { "\($0.subject): \($0.message)" }
        if lines.count == 1 {
            app.showMessage("Could not save: \(lines[0])", isError: true)
        } else {
            let shown = lines.prefix(12) + (lines.count > 12 ? ["… and \(lines.count - 12) more"] : [])
            app.alert(title: "Could not save", message: "\(lines.count) problems; nothing was saved:\n\n" + shown.joined(separator: "\n"))
        }
    }
}

extension FormView {
    /// Shows an object's validation problems under the fields they concern.
    package func show(_ failures: [ValidationFailure], of object: ManagedObject) {
        var errors: [String: String] = [:]
        for failure in failures where failure.object === object {
            guard let key = failure.key, fields.contains(where: { $0.id == key }) else { continue }
            errors[key] = errors[key].map { $0 + "; " + failure.message } ?? failure.message
        }
        state.errors = errors
    }
}
