import Foundation
import Bindings
import ObjectGraph
import ObjectModel
import Predicates
import TerminalBindings
import TerminalUI

/// Acting on many objects at once, as the browser and the ToDo application do: marks on a
/// table's rows (`m`, `*` every row shown, `~` inverted, `U` none), the selected row's value
/// set on every marked row (`=`), and deleting the marks — every delete first showing what
/// the model's delete rules will do (`DeletePreview`), to confirm or cancel.
package protocol Marking: ContextEditing {
    var marks: ObjectMarks { get }
    /// The table the marks show on, and the controller whose rows it shows.
    var markedTable: TableView { get }
    var markedController: ArrayController? { get }
}

extension Marking {
    /// Shows the marks on `table` (the marked table, made anew as the user moves) and keeps
    /// the status bar's count.
    package func showMarks(on table: TableView) {
        table.isRowMarked = { [weak self] row in
            guard let self, !self.marks.isEmpty, let object = self.markedController?.arrangedObject(at: row) else { return false }
            return self.marks.contains(object.objectID)
        }
        table.showsMarks = !marks.isEmpty
        marks.onChange = { [weak self] in
            guard let self else { return }
            self.markedTable.showsMarks = !self.marks.isEmpty
            self.updateStatus()
        }
    }

    /// `m`, `*`, `~`, `U`, `=` and `X`, named `<prefix>.mark` and so on, for the marked
    /// table's `extraCommands`.
    package func markingCommands(prefix: String) -> [Command] {
        [
            Command("\(prefix).mark", title: "Mark or unmark the row, then the next", keys: [.character("m")]) { [weak self] in
                self?.toggleMark() ?? .ignored
            },
            Command("\(prefix).markAll", title: "Mark every row shown (the filter's)", keys: [.character("*")]) { [weak self] in
                self?.markShown(invert: false) ?? .ignored
            },
            Command("\(prefix).invertMarks", title: "Invert the marks among the rows shown", keys: [.character("~")]) { [weak self] in
                self?.markShown(invert: true) ?? .ignored
            },
            Command("\(prefix).clearMarks", title: "Unmark everything", keys: [.character("U")]) { [weak self] in
                guard let self else { return .ignored }
                self.marks.clear()
                return .redraw
            },
            Command("\(prefix).setMarked", title: "Give every marked row this cell's value",
                    keys: [.character("=")]) { [weak self] in
                self?.setColumnOnMarked() ?? .ignored
            },
            exportViewCommand(prefix: prefix),
        ]
    }

    private func toggleMark() -> EventResult {
        guard let object = markedController?.arrangedObject(at: markedTable.state.selectedRow) else { return .handled }
        marks.toggle(object.objectID)
        markedTable.select(row: markedTable.state.selectedRow + 1)
        return .redraw
    }

    private func markShown(invert: Bool) -> EventResult {
        guard let controller = markedController else { return .handled }
        do {
            let shown = try controller.arrangedObjectIDs()
            if invert { marks.invert(among: shown) } else { marks.mark(shown) }
        } catch {
            app.showMessage("Cannot read the rows: \(error)", isError: true)
        }
        return .redraw
    }

    /// `=`: the selected row's value of the selected column, set on every marked object of
    /// the table's entity; checked on all of them first, so that either all change (one step
    /// to undo) or none does.
    private func setColumnOnMarked() -> EventResult {
        guard !isReadOnly else {
            app.showMessage("The store is open read-only", isError: true)
            return .redraw
        }
        guard !marks.isEmpty else {
            app.showMessage("Mark rows first (m, or * for every row shown)", isError: true)
            return .redraw
        }
        guard commitEdits(), let controller = markedController,
              let source = controller.arrangedObject(at: markedTable.state.selectedRow) else { return .handled }
        let column = markedTable.columns[markedTable.state.selectedColumn]
        // An attribute, or a to-one relationship: the marked objects join the selected row's
        // destination (its to-many inverse), or leave theirs for nil.
        let attribute = source.entity.attribute(named: column.id)
        let toOne = source.entity.relationship(named: column.id).flatMap { $0.isToMany ? nil : $0 }
        guard attribute.map({ !$0.isTransient }) ?? (toOne != nil) else {
            app.showMessage("\(column.title) is not an attribute or to-one relationship that can be set on many rows", isError: true)
            return .redraw
        }
        let key = column.id
        let value = (try? source.value(forKey: key)) ?? .null
        let targets = marks.objects(in: context).filter { object in
            attribute != nil ? object.entity.attribute(named: key) != nil
                : object.entity.relationship(named: key)?.destinationEntityName == toOne?.destinationEntityName
        }
        guard !targets.isEmpty else {
            app.showMessage("No marked object has \(key)", isError: true)
            return .redraw
        }
        for object in targets {
            if let failure = object.validateValue(value, forKey: key).first {
                app.showMessage("Nothing set: \(CellValue.keyName(object)) refuses it: \(failure.reason)", isError: true)
                return .redraw
            }
        }
        do {
            try inOneUndoStep {
                for object in targets { try object.setValue(value, forKey: key) }
            }
        } catch {
            endEvent()
            app.showMessage("Not set on every marked object (u undoes what was): \(error)", isError: true)
            return .redraw
        }
        endEvent()
        let shown = ValueFormat.automatic.string(for: CellValue(value))
        app.showMessage("Set \(key) to \(value == .null ? "nil" : shown) on \(targets.count) marked — u undoes")
        return .redraw
    }

    /// Deletes `objects` after showing what the delete rules will do with them: the user
    /// confirms (Enter) or cancels; a Deny rule that refuses is shown and nothing is deleted.
    /// `delete` does the deleting; the delete is one step to undo.
    package func confirmDelete(_ objects: [ManagedObject], what: String, delete: @escaping () throws -> Void) {
        let preview: DeletePreview
        do {
            preview = try DeletePreview(deleting: objects, in: context)
        } catch {
            app.showMessage("Cannot delete: \(error)", isError: true)
            return
        }
        let lines = preview.lines { "\($0.entity.name) “\(CellValue.displayName($0))”" }
        guard preview.refusals.isEmpty else {
            app.alert(title: "Cannot delete \(what)", message: lines.joined(separator: "\n") + "\nNothing was deleted.")
            return
        }
        app.alert(title: "Delete \(what)?", message: lines.joined(separator: "\n") + "\nu undoes it.",
                  buttons: ["Delete", "Cancel"]) { [weak self] choice in
            guard let self, choice == 0 else { return }
            do {
                try delete()
                self.endEvent()
                self.marks.forget(preview.deleted.map(\.objectID))
                self.app.showMessage("Deleted \(preview.deleted.count == 1 ? "1 object" : "\(preview.deleted.count) objects") — u undoes")
            } catch {
                self.app.showMessage("Cannot delete: \(error)", isError: true)
            }
        }
    }

    /// `d` with marks: the marked objects, after the preview. Past `marks.largeDelete`, with
    /// nothing unsaved, the preview is read from the store by ID and the delete runs and
    /// saves in the background (`deleteMarkedInBackground`).
    package func deleteMarked() {
        if marks.count > marks.largeDelete, !context.hasChanges {
            deleteMarkedInBackground()
            return
        }
        let objects = marks.objects(in: context)
        guard !objects.isEmpty else { return }
        let context = self.context
        confirmDelete(objects, what: "\(objects.count) marked") {
            for object in objects { context.delete(object) }
        }
    }
}
