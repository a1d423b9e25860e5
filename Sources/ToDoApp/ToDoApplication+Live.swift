import Foundation
import AppShell
import ObjectGraph
import Predicates
import TerminalBindings
import TerminalUI

extension ToDoApplication {
    /// Follows what other programs save to the store (another ToDo window, `termdata
    /// import`): their items appear, change and leave in place within a second.
    func startLiveRefresh() {
        live = LiveRefresh(app: app, context: context) { [weak self] transactions in
            self?.didMergeRemoteChanges(transactions)
        }
    }

    /// After a merge: says what came; an item being edited that another program changed is
    /// marked under each field it changed, the user's edits kept.
    func didMergeRemoteChanges(_ transactions: [HistoryTransaction]) {
        var message = LiveRefresh.summary(transactions)
        if let shown = detail.selectedObjects.first, isBeingEdited(shown) {
            let changed = transactions.flatMap(\.changes).filter { $0.changedObjectID == shown.objectID && $0.changeType == .update }
            let fields = Set(changed.flatMap { $0.updatedProperties ?? [] })
            if !fields.isEmpty {
                let who = Set(transactions.filter { t in t.changes.contains { $0.changedObjectID == shown.objectID } }
                    .map { $0.author ?? "another program" }).sorted().joined(separator: ", ")
                // The item keeps what it read (its save will ask whose values win): theirs is read afresh.
                let peek = ManagedObjectContext(coordinator: context.coordinator)
                let stored = (try? peek.existingObject(with: shown.objectID))?.committedValues(forKeys: Array(fields)) ?? [:]
                let mine = Set(shown.changedValues.keys).union(heldEdits(of: shown))
                for field in form.fields where fields.contains(field.id) {
                    let theirs = field.format.string(for: CellValue(stored[field.id] ?? .null))
                    form.state.errors[field.id] = mine.contains(field.id)
                        ? "Changed by \(who) to “\(theirs)” too: saving asks whose value wins"
                        : "Changed by \(who) to “\(theirs)”: saving takes it"
                }
                message = "Changed by \(who) too; saving will ask"
            }
        }
        app.showMessage(message)
        updateStatus()
    }

    /// The fields whose edits the form holds for an item (in its own context, not yet the app's).
    private func heldEdits(of item: ManagedObject) -> Set<String> {
        guard let editing = (form.session as? ObjectControllerForm)?.editing,
              let held = editing.registeredObject(for: item.objectID) else { return [] }
        return Set(held.changedValues.keys)
    }

    /// Whether the user has unsaved edits of an item: held in the form, open in an editor, or
    /// made and not saved yet.
    private func isBeingEdited(_ item: ManagedObject) -> Bool {
        form.session?.hasEdits == true || form.state.isEditing || table.state.isEditing || item.hasChanges
    }
}
