import Foundation
import ObjectGraph
import Predicates
import TerminalBindings
import TerminalUI

/// Deleting many marked objects (past `ObjectMarks.largeDelete`, 1,000), as the ToDo application deletes
/// a category of many items: what the delete rules will do is read from the store by ID on
/// a context of its own (`DeletePreview(deletingObjectsWith:in:)`, a few statements per 500
/// objects, none of them loaded), then, confirmed, the objects are deleted and saved there
/// while the keys answer; Esc stops it with nothing saved. Such a delete is saved at once
/// (the question says so): undo cannot take it back.
extension Marking {
    /// What the preview brings back to the loop: its lines, whether a Deny rule refuses,
    /// and every object it takes.
    private typealias Told = (lines: [String], refused: Bool, deleted: [ManagedObjectID])

    func deleteMarkedInBackground() {
        guard !app.isWorking else {
            app.showMessage("Wait for the work in progress to end (Esc stops it) before deleting", isError: true)
            return
        }
        let ids = Array(marks.ids)
        let background = ManagedObjectContext(coordinator: context.coordinator, concurrencyType: .privateQueue)
        background.name = "delete preview"
        app.beginWork("Reading what deleting \(ids.count.formatted()) marked objects takes", cancel: { background.interruptWork() },
                      start: { (finish: @escaping @Sendable (Result<Told, any Error>) -> Void) in
            background.perform {
                finish(Result {
                    let preview = try DeletePreview(deletingObjectsWith: ids, in: background)
                    return (preview.lines { "\($0.entity.name) “\(CellValue.displayName($0))”" }, !preview.refusals.isEmpty,
                            Array(preview.deletedIDs))
                })
                background.reset()
            }
        }, done: { [weak self] (result: Result<Told, any Error>) in
            guard let self else { return }
            switch result {
            case .failure(let error):
                self.app.showMessage("Cannot delete: \(error)", isError: true)
            case .success(let told) where told.refused:
                self.app.alert(title: "Cannot delete \(ids.count.formatted()) marked",
                               message: told.lines.joined(separator: "\n") + "\nNothing was deleted.")
            case .success(let told):
                self.app.alert(title: "Delete \(ids.count.formatted()) marked?",
                               message: told.lines.joined(separator: "\n")
                                + "\nWith so many objects the delete runs in the background and is saved at once: u cannot take it back.",
                               buttons: ["Delete and save", "Cancel"]) { [weak self] choice in
                    if choice == 0 { self?.deleteAndSave(ids, taking: told.deleted) }
                }
            }
        })
    }

    /// Deletes the objects on a context of its own, a batch of IDs at a time, and saves; the
    /// context here merges the save.
    private func deleteAndSave(_ ids: [ManagedObjectID], taking deleted: [ManagedObjectID]) {
        let total = deleted.count
        saveInBackground("Deleting \(ids.count.formatted()) marked", contextName: "delete marked") { background, progress, stop in
            for start in stride(from: 0, to: ids.count, by: DeletePreview.batchSize) {
                try stop.check()
                let batch = ObjectValue.array(ids[start..<min(ids.count, start + DeletePreview.batchSize)].map { .object($0) })
                for entity in Set(ids[start..<min(ids.count, start + DeletePreview.batchSize)].map(\.entityName)) {
                    var request = FetchRequest(entityName: entity, predicate: try ObjectPredicate(format: "SELF IN %@", batch))
                    request.includesSubentities = false
                    for object in try background.fetch(request) { background.delete(object) }
                }
                progress.report("\(min(ids.count, start + DeletePreview.batchSize).formatted()) of \(ids.count.formatted()) read")
            }
            progress.report("following the delete rules")
            background.processPendingChanges()
            try stop.beginSaving()
            progress.reportFinishing("saving \(total.formatted()) deletes")
            try background.save()
        } done: { [weak self] (result: Result<SavedInBackground<Void>, any Error>) in
            guard let self else { return }
            switch result {
            case .success(let saved):
                self.context.mergeChanges(fromContextDidSave: saved.save)
                self.marks.forget(deleted)
                self.endEvent()
                self.app.showMessage("Deleted and saved \(total.formatted()) objects")
            case .failure(is CancellationError):
                self.app.showMessage("Delete stopped: nothing was deleted")
            case .failure(let error):
                self.app.showMessage("Could not delete the marked objects, nothing changed: \(error)", isError: true)
            }
        }
    }
}
