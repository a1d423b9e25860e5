import Foundation
import OrderedCollections

extension ManagedObjectContext {
    /// Reverts the last undo group: values, relationships, insertions and deletions.
    public func undo() {
        checkQueue()
        guard let undoManager else { return }
        processPendingChanges()
        guard let group = undoManager.popUndo() else { return }
        apply(group.changes.reversed(), inverted: true)
        undoManager.pushRedo(group)
        processPendingChanges()
    }

    /// Applies again the last group that was undone.
    public func redo() {
        checkQueue()
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
                restoreStatus(object, to: inverted ? from : to)
            }
        }
    }

    /// Brings an object back (undoing a deletion, redoing an insertion) or takes it away
    /// (undoing an insertion, redoing a deletion) from the state it is in now, which a save
    /// since the change may have moved on: an insertion undone after it was saved deletes the
    /// object from the store at the next save, and a deletion undone after it was saved
    /// inserts the object again, under a new ID, with its values and relationships.
    func restoreStatus(_ object: ManagedObject, to target: ManagedObject.Status) {
        let bringsBack = target == .clean || target == .inserted
        switch (bringsBack, object.status) {
        case (true, .clean), (true, .inserted), (false, .deleted), (false, .invalid):
            return
        case (true, .deleted):
            // A deletion not saved yet is taken back.
            pendingDeletes.removeAll { $0 === object }
            let back: ManagedObject.Status = discarded.contains(object) ? .inserted : .clean
            setStatus(object, back, wasInserted: false)
            if back == .inserted { noteInsertedInEvent(object) } else { noteUpdatedInEvent(object) }
        case (true, .invalid):
            if object.managedObjectContext !== self { object.managedObjectContext = self }
            if !object.objectID.isTemporaryID {
                // Its deletion was saved: the store no longer has it, so it is saved anew.
                object.objectID = .temporary(entityName: object.entity.name)
                object.attributeValues = object.attributeValues ?? object.snapshot?.attributes ?? object.entity.defaultAttributeValues
                object.snapshot = nil
                object.changedKeys = []
                object.originals = [:]
                for i in object.relationshipValues.indices {
                    if case .toManyFault(let pending) = object.relationshipValues[i] {
                        object.relationshipValues[i] = .toMany(OrderedSet(pending.added))
                    }
                }
            }
            setStatus(object, .inserted, wasInserted: false)
            noteInsertedInEvent(object)
        case (false, .inserted):
            // Never saved: discarded, as an undone insertion always was.
            setStatus(object, target == .deleted ? .deleted : .invalid, wasInserted: true)
            event.deleted.append(object)
        case (false, .clean):
            // Saved since it was inserted (or brought back): deleted at the next save.
            setStatus(object, .deleted, wasInserted: false)
            event.deleted.append(object)
        }
    }
}
