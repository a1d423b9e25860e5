import Foundation
import OrderedCollections

extension ManagedObjectContext {
    /// Reverts the last undo group: values, relationships, insertions and deletions.
    public func undo() {
        guard let undoManager else { return }
        processPendingChanges()
        guard let group = undoManager.popUndo() else { return }
        apply(group.changes.reversed(), inverted: true)
        undoManager.pushRedo(group)
        processPendingChanges()
    }

    /// Applies again the last group that was undone.
    public func redo() {
        guard let undoManager, let group = undoManager.popRedo() else { return }
        processPendingChanges()
        apply(group.changes, inverted: false)
        undoManager.pushUndo(group)
        processPendingChanges()
    }

    private func apply<S: Sequence>(_ changes: S, inverted: Bool) where S.Element == UndoStack.Change {
        isApplyingUndo = true
        defer { isApplyingUndo = false }
        for change in changes {
            switch change {
            case .attribute(let object, let i, let from, let to):
                recordAttributeChange(object, index: i, to: inverted ? from : to)
            case .toOne(let object, let i, let from, let to):
                primitiveSetToOne(object, i, inverted ? from : to)
            case .insertMember(let object, let i, let member, let at):
                if inverted { primitiveRemoveMember(object, i, member) } else { primitiveInsertMember(object, i, member, at: at) }
            case .removeMember(let object, let i, let member, let at):
                if inverted { primitiveInsertMember(object, i, member, at: at) } else { primitiveRemoveMember(object, i, member) }
            case .order(let object, let i, let from, let to):
                primitiveSetOrder(object, i, inverted ? from : to)
            case .status(let object, let from, let to):
                let target = inverted ? from : to
                let source = inverted ? to : from
                restoreStatus(object, from: source, to: target)
            }
        }
    }

    private func restoreStatus(_ object: ManagedObject, from: ManagedObject.Status, to: ManagedObject.Status) {
        switch (from, to) {
        case (.deleted, let back):
            pendingDeletes.removeAll { $0 === object }
            setStatus(object, back, wasInserted: false)
            if back == .inserted { noteInsertedInEvent(object) } else { noteUpdatedInEvent(object) }
        case (_, .deleted):
            setStatus(object, .deleted, wasInserted: from == .inserted)
            event.deleted.append(object)
        case (.inserted, .invalid):
            setStatus(object, .invalid, wasInserted: true)
            event.deleted.append(object)
        case (.invalid, .inserted):
            setStatus(object, .inserted, wasInserted: false)
            noteInsertedInEvent(object)
        default:
            setStatus(object, to, wasInserted: false)
        }
    }
}
