import Foundation
import OrderedCollections
import ObjectModel
import Predicates
import Synchronization

extension ManagedObjectContext {
    // MARK: Deleting

    /// Marks an object for deletion at the next save; its delete rules run at the next
    /// `processPendingChanges`. Deleting an unsaved object simply discards it.
    public func delete(_ object: ManagedObject) {
        checkQueue()
        precondition(object.managedObjectContext === self, "\(object) belongs to another context")
        guard object.status == .clean || object.status == .inserted else { return }
        // Its values are kept for an undo, which after a save inserts it again.
        if undoManager != nil, object.isFault { try? object.fireFault() }
        object.prepareForDeletion()
        let from = object.status
        setStatus(object, .deleted, wasInserted: from == .inserted)
        record(.status(object, from: from, to: .deleted))
        pendingDeletes.append(object)
        event.deleted.append(object)
    }

    func setStatus(_ object: ManagedObject, _ status: ManagedObject.Status, wasInserted: Bool) {
        switch object.status {
        case .inserted: inserted.remove(object)
        case .deleted: deleted.remove(object); discarded.remove(object)
        case .clean: updated.remove(object)
        case .invalid: break
        }
        object.status = status
        switch status {
        case .inserted:
            inserted.append(object)
            register(object)
        case .deleted:
            if wasInserted { discarded.append(object) } else { deleted.append(object) }
        case .clean:
            if !object.changedKeys.isEmpty { updated.append(object) }
            register(object)
        case .invalid:
            unregister(object)
        }
    }

    /// Runs the delete rules of every object deleted since they last ran.
    func propagateDeletes() {
        // A round at a time, in the order they were deleted; what a Cascade deletes comes in
        // the next round. (Taking them one by one from the front moved the rest each time.)
        while !pendingDeletes.isEmpty {
            let round = pendingDeletes
            pendingDeletes = []
            for object in round { propagateDelete(of: object) }
        }
    }

    private func propagateDelete(of object: ManagedObject) {
        guard object.status == .deleted else { return }
        for (i, relationship) in object.entity.relationships.enumerated() {
            switch relationship.deleteRule {
            case .deny, .noAction:
                continue
            case .nullify, .cascade:
                let destinations = (try? object.relatedObjects(i)) ?? []
                if relationship.deleteRule == .cascade {
                    for d in destinations where d.status == .clean || d.status == .inserted { delete(d) }
                }
                if relationship.isToMany {
                    try? replaceToMany(of: object, index: i, with: [])
                } else {
                    try? setToOne(of: object, index: i, to: nil)
                }
            }
        }
    }
}
