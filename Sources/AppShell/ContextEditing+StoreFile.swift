import Foundation
import ObjectGraph
import TerminalUI

extension ContextEditing {
    /// A save found the store's file removed or replaced since it was opened: the changes are
    /// still here, and the user chooses where they go. A removed file: saved again at its
    /// path, or as a new store elsewhere. A replaced one: saved into the file there now when
    /// it is a copy of this store (a restored backup; differences go through the conflict
    /// dialog), or as a new store. The new store holds the store as it was read plus the
    /// changes, under the same IDs.
    package func offerToSaveElsewhere(_ error: ObjectGraphError, afterSave: (() -> Void)?) {
        let path: String
        let replaced: Bool
        switch error {
        case .storeFileMissing(let file): (path, replaced) = (file, false)
        case .storeFileReplaced(let file): (path, replaced) = (file, true)
        default: return
        }
        guard let store = context.coordinator.stores.first(where: { $0.url?.path == path }) else {
            app.alert(title: "Could not save", message: "\(error).")
            return
        }
        let url = URL(fileURLWithPath: path)
        let first = replaced ? "Save into it" : "Save here again"
        let why = replaced
            ? "\(first): if it is a copy of this store (a restored backup), the changes go into it, and where it differs from what was read you choose whose values win."
            : "\(first): a new file at that path, with the store as it was read and the changes."
        app.alert(title: replaced ? "The store's file was replaced" : "The store's file is gone",
                  message: "\(error).\n\n\(why)\nSave as…: the same as a new store at a path you give.",
                  buttons: [first, "Save as…", "Cancel"]) { [weak self] choice in
            guard let self, let choice, choice < 2 else { return }
            if choice == 1 { return self.askWhereToSave(store, suggested: Self.recoveredName(for: url), afterSave: afterSave) }
            guard self.moveStore({
                replaced ? try self.context.coordinator.reopenStore(store) : try self.context.coordinator.relocateStore(store, to: url)
            }) else { return }
            self.saveAfterMove(afterSave)
        }
    }

    private func askWhereToSave(_ store: any PersistentStore, suggested: String, afterSave: (() -> Void)?) {
        app.beginPrompt("Save as a new store at: ", text: suggested) { [weak self] path in
            guard let self, !path.isEmpty else { return }
            let url = URL(fileURLWithPath: Self.expanded(path))
            guard self.moveStore({ try self.context.coordinator.relocateStore(store, to: url) }) else { return }
            self.saveAfterMove(afterSave)
        }
    }

    /// Puts a store in the old one's place; false, with the reason in a dialog, when it cannot.
    private func moveStore(_ move: () throws -> any PersistentStore) -> Bool {
        do {
            let moved = try move()
            if let url = moved.url { storeDidMove(to: url) }
            return true
        } catch {
            app.alert(title: "Could not save", message: "\(error)")
            return false
        }
    }

    private func saveAfterMove(_ afterSave: (() -> Void)?) {
        if saveChanges(afterConflict: afterSave) {
            if let afterSave { afterSave() } else { app.showMessage("Saved") }
        }
    }

    /// "ToDo (recovered).sqlite" beside the original.
    static func recoveredName(for url: URL) -> String {
        let base = url.deletingPathExtension().lastPathComponent
        let ext = url.pathExtension.isEmpty ? "" : "." + url.pathExtension
        return url.deletingLastPathComponent().appendingPathComponent("\(base) (recovered)\(ext)").path
    }
}
