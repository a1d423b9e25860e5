import Foundation
import OrderedCollections
import ObjectModel
import Predicates

extension ManagedObjectContext {
    /// Saves to one store (or the parent); on conflicts, applies the merge policy and tries
    /// again. Another writer may change the same objects between the tries (clients of a
    /// server store do not wait for each other): each new conflict is resolved the same way,
    /// up to `conflictRetries` times, and then reported.
    func saveResolvingConflicts(_ changes: StoreChanges,
                                        _ write: (StoreChanges) throws -> StoreSaveResult) throws -> StoreSaveResult {
        var attempt = changes
        for _ in 0..<Self.conflictRetries {
            do {
                return try write(attempt)
            } catch let error as MergeConflictError {
                guard mergePolicy != .error, mergePolicy != .overwrite else { throw error }
                attempt = try resolving(error, in: attempt)
            }
        }
        return try write(attempt)
    }

    /// How many times a save resolves new conflicts before it reports them. A store that
    /// checks versions as it writes (PostgreSQL) meets a new conflict on a retry whenever
    /// another client saved the same row in between: eight clients saving three rows made one
    /// lose 17 times in a row on a loaded machine. The retries run under the coordinator's
    /// lock, so they do not wait between tries.
    static let conflictRetries = 64

    /// The changes to write again after the merge policy has settled each conflict.
    private func resolving(_ error: MergeConflictError, in changes: StoreChanges) throws -> StoreChanges {
        var retry = changes
        for conflict in error.conflicts {
            guard let object = registeredObject(for: conflict.objectID) else { continue }
            let index = retry.updated.firstIndex { $0.objectID == conflict.objectID }
            guard let persisted = conflict.persisted else {
                // Deleted by another save: nothing left to update.
                if let index { retry.updated.remove(at: index) }
                retry.deleted.removeAll { $0.objectID == conflict.objectID }
                continue
            }
            switch mergePolicy {
            case .rollback:
                if let index { retry.updated.remove(at: index) }
                retry.deleted.removeAll { $0.objectID == conflict.objectID }
                refreshToStoreRow(object, persisted)
            case .mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump:
                let merged = mergeProperties(of: object, with: persisted, storeWins: mergePolicy == .mergeByPropertyStoreTrump)
                if let index { retry.updated[index] = try storedRow(of: merged) }
                if let d = retry.deleted.firstIndex(where: { $0.objectID == conflict.objectID }) {
                    retry.deleted[d].version = persisted.version
                }
            default:
                break
            }
        }
        return retry
    }

    /// Takes the store's values for every property the object did not change (and, when
    /// the store wins, for those it did), and the store's version.
    /// The properties of a conflict that both sides changed: this context (unsaved) and the
    /// other save (the row as stored now differs from what this context read). Empty when
    /// the object was deleted there, or is not registered here.
    public func keysChangedOnBothSides(of conflict: MergeConflict) -> [String] {
        guard let object = registeredObject(for: conflict.objectID), let persisted = conflict.persisted else { return [] }
        let committed = object.committedValues()
        var keys: [String] = []
        for a in object.entity.attributes where !a.isTransient && object.changedKeys.contains(a.name) {
            if !(committed[a.name] ?? .null).isIdentical(to: persisted.attributes[a.name] ?? .null) { keys.append(a.name) }
        }
        for (i, r) in object.entity.relationships.enumerated() where !r.isToMany && !r.isTransient && object.changedKeys.contains(r.name) {
            if persisted.toOne[r.name] != object.snapshot?.toOne[i] { keys.append(r.name) }
        }
        return keys
    }

    private func mergeProperties(of object: ManagedObject, with persisted: StoredRow, storeWins: Bool) -> ManagedObject {
        let committed = object.committedValues()
        isApplyingUndo = true
        defer { isApplyingUndo = false }
        for (i, a) in object.entity.attributes.enumerated() where !a.isTransient {
            let theirs = persisted.attributes[a.name] ?? .null
            let changedThere = !(committed[a.name] ?? .null).isIdentical(to: theirs)
            if changedThere && (storeWins || !object.changedKeys.contains(a.name)) {
                recordAttributeChange(object, index: i, to: theirs)
            }
        }
        for (i, r) in object.entity.relationships.enumerated() where !r.isToMany && !r.isTransient {
            let theirs = persisted.toOne[r.name]
            let mine = object.snapshot?.toOne[i]
            if theirs != mine && (storeWins || !object.changedKeys.contains(r.name)) {
                primitiveSetToOne(object, i, theirs.map { self.object(with: $0) })
            }
        }
        // The stored row is the base now: a key whose value is the store's is no change of
        // ours, so that a conflict on the next try takes the store's newer value for it.
        for (i, a) in object.entity.attributes.enumerated() where !a.isTransient {
            let theirs = persisted.attributes[a.name] ?? .null
            object.snapshot?.attributes[i] = theirs
            if object.attributeValues?[i].isIdentical(to: theirs) == true {
                object.changedKeys.remove(a.name)
                object.originals[a.name] = nil
            }
        }
        for (i, r) in object.entity.relationships.enumerated() where !r.isToMany && !r.isTransient {
            let theirs = persisted.toOne[r.name]
            object.snapshot?.toOne[i] = theirs
            if case .toOne(let current) = object.relationshipValues[i], current?.objectID == theirs {
                object.changedKeys.remove(r.name)
                object.originals[r.name] = nil
            }
        }
        object.snapshot?.version = persisted.version
        return object
    }

    private func refreshToStoreRow(_ object: ManagedObject, _ row: StoredRow) {
        updated.remove(object)
        object.changedKeys = []
        object.originals = [:]
        apply(row, to: object)
        event.refreshed.append(object)
    }
}
