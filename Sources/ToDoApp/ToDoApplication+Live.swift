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
                for field in form.fields where fields.contains(field.id) {
                    let theirs = field.format.string(for: CellValue(stored[field.id] ?? .null))
                    form.state.errors[field.id] = "Changed by \(who) to “\(theirs)”; yours is kept until you save"
                }
                message = "The item you are editing was changed by \(who); saving will ask whose values win"
            }
        }
        app.showMessage(message)
        updateStatus()
    }

    /// Whether the user has unsaved edits of an item: held in the form, open in an editor, or
    /// made and not saved yet.
    private func isBeingEdited(_ item: ManagedObject) -> Bool {
        form.session?.hasEdits == true || form.state.isEditing || table.state.isEditing || item.hasChanges
    }
}
