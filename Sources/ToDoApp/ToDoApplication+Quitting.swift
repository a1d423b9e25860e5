import Foundation
import AppShell
import ObjectGraph
import TerminalUI

extension ToDoApplication {
    func installQuitting() {
        installQuitKeys()
        app.keyMap.add(Command("todo.interrupt", title: "Quit, asking whether to save (Save is the default)", keys: [.control("c")]) { [weak self] in
            self?.interrupt() ?? .quit
        })
        app.shouldQuit = { [weak self] in self?.shouldQuit() ?? true }
        app.onSignal = { [weak self] signal in
            guard let self else { return .quit }
            switch signal {
            case .interrupt:
                return self.interrupt()
            case .terminate:
                return .quit
            case .hangup:
                // The terminal is gone: nobody can answer a question, so save and leave.
                self.commitEdits()
                if self.context.hasChanges { _ = try? self.context.save() }
                self.forceQuit = true
                return .quit
            }
        }
    }

    /// The article's applicationShouldTerminate: commit the edit in progress; with no
    /// changes, quit; otherwise save, and if the save fails ask whether to quit anyway.
    func shouldQuit() -> Bool {
        if let now = quitWithoutQuestion(confirmed: forceQuit) { return now }
        do {
            try context.save()
            return true
        } catch let error as MergeConflictError {
            let quit = { [weak self] in
                guard let self else { return }
                self.forceQuit = true
                self.app.requestQuit()
            }
            resolveConflicts(error, extraButton: ("Quit without saving", quit), saved: quit)
            return false
        } catch {
            updateStatus()
            app.alert(title: "Could not save", message: "Could not save changes while quitting. Quit anyway?\n\n\(error)",
                      buttons: ["Quit anyway", "Cancel"]) { [weak self] choice in
                guard let self, choice == 0 else { return }
                self.forceQuit = true
                self.app.requestQuit()
            }
            return false
        }
    }

    /// Ctrl-C: quit, asking first when that would discard unsaved changes.
    func interrupt() -> EventResult {
        commitEdits()
        context.processPendingChanges()
        guard unsavedChangeCount > 0 else {
            forceQuit = true
            return .quit
        }
        // As in the browser: Enter saves, so that Ctrl-C then Enter never loses work.
        // Saving is what q does; a failure is reported there.
        askToSaveBeforeQuitting(saveAndQuit: { [weak self] in self?.app.requestQuit() },
                                discardAndQuit: { [weak self] in
                                    self?.forceQuit = true
                                    self?.app.requestQuit()
                                })
        return .redraw
    }

    package func reveal(_ failures: [ValidationFailure]) {
        if let failure = failures.first(where: { items.arrangedIndex(of: $0.object) != nil }),
           let row = items.arrangedIndex(of: failure.object) {
            table.select(row: row)
            _ = items.setSelectionIndex(row)
            form.show(failures, of: failure.object)
        } else if let failure = failures.first(where: { categories.arrangedIndex(of: $0.object) != nil }),
                  let row = categories.arrangedIndex(of: failure.object) {
            categoryTable.select(row: row)
            _ = categories.setSelectionIndex(row)
        }
    }

    /// Commits edits in every table and form; false when an editor refuses.
    @discardableResult
    package func storeDidMove(to url: URL) {
        store.url = url
        updateStatus()
    }

    package func commitEdits() -> Bool {
        var ok = true
        for view in [table, categoryTable] where view.state.isEditing { ok = view.commitEditing() && ok }
        if form.state.isEditing { ok = form.commitEditing() && ok }
        // The form's held edits join the context, for a save, an undo or quitting to see.
        ok = form.commitSession() && ok
        return ok
    }
}
