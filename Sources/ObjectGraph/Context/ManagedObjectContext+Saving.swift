import Foundation
import OrderedCollections
import ObjectModel
import Predicates

extension ManagedObjectContext {
    /// Validates and writes every insert, change and deletion to the stores, or, in a child
    /// context, into its parent (which keeps them as its own unsaved changes).
    ///
    /// Every validation failure of the save is reported together. A save that fails —
    /// invalid objects, a conflict the merge policy does not resolve, a store error —
    /// leaves the stores (or the parent) as they were and the context's changes in place.
    ///
    /// - Throws: `ValidationError`, `MergeConflictError`, or the store's error.
    public func save() throws {
        checkQueue()
        processPendingChanges()
        if !propagatesDeletesAtEndOfEvent { propagateDeletes() }
        guard hasChanges else { return }
        post(.willSave)
        do {
            // The objects changed before any willSave ran; one that changes the sets changes a copy.
            let (insertedBefore, updatedBefore) = (inserted, updated)
            for object in insertedBefore { object.willSave() }
            for object in updatedBefore { object.willSave() }
        }
        processPendingChanges()
        // Derived values are the store's: computed when a save reaches the stores.
        if parent == nil { try computeDerivedAttributes() }
        try validateForSave()
        if let parent { return try push(to: parent) }

        // Changes grouped by store (a context rarely has more than a few), mutated in place
        // so that no list is copied per object.
        var batches: [SaveBatch] = []
        func batch(for store: any PersistentStore) -> Int {
            if let i = batches.firstIndex(where: { $0.store.identifier == store.identifier }) { return i }
            var changes = StoreChanges(overwritesConflicts: mergePolicy == .overwrite)
            changes.transaction = TransactionInfo(author: transactionAuthor, contextName: name)
            batches.append(SaveBatch(store: store, changes: changes))
            return batches.count - 1
        }
        var last: (entity: Entity, batch: Int)?
        for object in inserted {
            let i: Int
            if object.assignedStoreIdentifier == nil, let last, last.entity === object.entity {
                i = last.batch
            } else {
                i = batch(for: try storeForInsertion(object))
                last = object.assignedStoreIdentifier == nil ? (object.entity, i) : nil
            }
            batches[i].changes.inserted.append(try storedRow(of: object, for: batches[i].store))
            batches[i].insertedObjects.append(object)
        }
        for object in updated where object.hasPersistentChanges {
            let i = batch(for: try coordinator.store(for: object.objectID))
            batches[i].changes.updated.append(try storedRow(of: object, for: batches[i].store))
        }
        for object in deleted {
            let i = batch(for: try coordinator.store(for: object.objectID))
            batches[i].changes.deleted.append((object.objectID, object.snapshot?.version ?? 1))
        }

        var permanentIDs: [(objects: [ManagedObject], ids: [ManagedObjectID])] = []
        var versions: [ManagedObjectID: Int64] = [:]
        var transactions: [String: Int64] = [:]
        try coordinator.locked {
            for batch in batches.sorted(by: { $0.store.identifier < $1.store.identifier }) {
                let result = try saveResolvingConflicts(batch.changes) { try batch.store.save($0) }
                if let number = result.transactionNumber {
                    ownTransactions[batch.store.identifier, default: []].insert(number)
                    transactions[batch.store.identifier] = number
                }
                permanentIDs.append((batch.insertedObjects, result.insertedIDs))
                versions.merge(result.versions) { a, _ in a }
            }
        }
        // From here the saved objects are held by `permanentIDs` and the change sets alone
        // (and by whoever else holds them), which `finishSave` relies on.
        batches = []
        // Children that merge what this context saves name its new objects by their
        // temporary IDs until told the permanent ones.
        let rekeyed = mergingChildren.withLock { $0.isEmpty } ? [:]
            : Dictionary(zip(permanentIDs.flatMap { $0.objects.map(\.objectID) }, permanentIDs.flatMap(\.ids))) { a, _ in a }
        finishSave(permanentIDs: consume permanentIDs, versions: versions, rekeyed: rekeyed, transactions: transactions, toStores: true)
    }

    /// A child's save: its changes become the parent's unsaved ones. New objects get their
    /// permanent IDs first, so that both contexts, and the parent's save, name them alike.
    private func push(to parent: ManagedObjectContext) throws {
        try obtainPermanentIDs(for: Array(inserted))
        var changes = StoreChanges(overwritesConflicts: mergePolicy == .overwrite)
        let insertedObjects = Array(inserted)
        for object in insertedObjects { changes.inserted.append(try storedRow(of: object)) }
        for object in updated where object.hasPersistentChanges { changes.updated.append(try storedRow(of: object)) }
        // A deleted object never read here has no version to check (0).
        for object in deleted { changes.deleted.append((object.objectID, object.snapshot?.version ?? 0)) }
        let result = try saveResolvingConflicts(changes) { changes in
            try parent.performAndWait { try parent.acceptPush(changes, from: self) }
        }
        finishSave(permanentIDs: [(insertedObjects, result.insertedIDs)], versions: result.versions, rekeyed: [:], transactions: [:], toStores: false)
    }

    func storeForInsertion(_ object: ManagedObject) throws -> any PersistentStore {
        if let id = object.assignedStoreIdentifier, let store = coordinator.store(withIdentifier: id) { return store }
        guard let store = coordinator.stores(forEntityName: object.entity.name).first else {
            throw ObjectGraphError.noStoreForEntity(object.entity.name)
        }
        return store
    }

    /// The row a store writes for an object: stored attributes, to-one destinations, and
    /// to-many members when they were loaded or changed.
    /// - Parameter store: the store the row goes to, which may not need the members of a
    ///   to-many relationship the context has not loaded (`needsMembers`); without one, a
    ///   parent context's push, every relationship carries them.
    func storedRow(of object: ManagedObject, for store: (any PersistentStore)? = nil) throws -> StoredRow {
        let entity = object.entity
        var row = StoredRow(objectID: object.objectID, version: object.snapshot?.version ?? 0, entity: entity,
                            values: object.attributeValues ?? Array(repeating: .null, count: entity.attributes.count))
        for (i, r) in entity.relationships.enumerated() where !r.isTransient {
            switch object.relationshipValues[i] {
            case .toOne(let d):
                if let d { row.toOne[r.name] = d.objectID }
            case .toMany(let members):
                row.toMany[r.name] = members.map(\.objectID)
            case .toManyFault(let pending):
                if !pending.added.isEmpty || !pending.removed.isEmpty,
                   store?.needsMembers(ofRelationship: r.name, entityName: entity.name) ?? true {
                    row.toMany[r.name] = try object.toManyMembers(i).map(\.objectID)
                }
            }
        }
        return row
    }

    /// After the stores accepted the save: permanent IDs, committed values, clean state.
    ///
    /// An inserted object that only the context holds is freed as the save ends; such an
    /// object of the plain class (no `didSave` to call) is let go without first being
    /// entered in the registry and given its committed values, which no one could read.
    private func finishSave(permanentIDs: consuming [(objects: [ManagedObject], ids: [ManagedObjectID])],
                            versions: [ManagedObjectID: Int64], rekeyed: [ManagedObjectID: ManagedObjectID],
                            transactions: [String: Int64], toStores: Bool) {
        let insertedIDs = permanentIDs.flatMap(\.ids)
        inserted.removeAll()
        var kept: [ManagedObject] = []
        for k in permanentIDs.indices {
            // Taken out, so that the array is the objects' last holder in the context.
            var objects = permanentIDs[k].objects
            permanentIDs[k].objects = []
            let ids = permanentIDs[k].ids
            precondition(objects.count == ids.count, "a store returned \(ids.count) IDs for \(objects.count) inserted objects")
            var reserved = false
            for i in objects.indices {
                // An object given its permanent ID before the save is in the registry already.
                if temporaryIndex != nil || !objects[i].objectID.isTemporaryID { unregister(objects[i]) }
                if type(of: objects[i]) == ManagedObject.self, isKnownUniquelyReferenced(&objects[i]) {
                    objects[i].managedObjectContext = nil
                    continue
                }
                if !reserved {
                    // Room for the rest of the batch, made only once an object is kept: when
                    // none is, the tables would be grown for nothing.
                    registry.reserveCapacity(forMore: objects.count - i, entityName: ids[i].entityName, storeIdentifier: ids[i].storeIdentifier)
                    kept.reserveCapacity(kept.count + objects.count - i)
                    reserved = true
                }
                let object = objects[i]
                // Inserted objects are not in the registry (see `temporaryIndex`). Should a
                // store hand out a key that a registered object already has, the saved
                // object takes the entry.
                object.objectID = ids[i]
                registry.enter(object)
                kept.append(object)
            }
        }
        // Once every saved object has its permanent ID: a snapshot records the IDs of the
        // object's to-one destinations, which may have been saved after it.
        for object in kept {
            object.status = .clean
            object.changedKeys = []
            object.originals = [:]
            commitSnapshot(of: object, version: versions[object.objectID] ?? 1)
        }
        let updatedObjects = Array(updated)
        let deletedObjects = Array(deleted)
        for object in updatedObjects {
            object.changedKeys = []
            object.originals = [:]
            commitSnapshot(of: object, version: versions[object.objectID] ?? object.snapshot?.version ?? 1)
        }
        pendingResults.forget(deletedObjects.lazy.map(\.objectID))
        // Rows a fetch brought for these objects are older than what was just saved.
        faultBatches.forgetRows(of: updatedObjects.lazy.map(\.objectID))
        faultBatches.forgetRows(of: deletedObjects.lazy.map(\.objectID))
        for object in deletedObjects + Array(discarded) {
            object.status = .invalid
            unregister(object)
            object.managedObjectContext = nil
        }
        if temporaryIndex?.isEmpty == true { temporaryIndex = nil }
        updated.removeAll()
        deleted.removeAll()
        discarded.removeAll()
        var save = ContextDidSave(inserted: insertedIDs,
                                  updated: updatedObjects.map(\.objectID),
                                  deleted: deletedObjects.map(\.objectID))
        save.savedBy = queueToken
        save.rekeyed = rekeyed
        save.transactions = transactions
        for object in kept { object.didSave() }
        for object in updatedObjects { object.didSave() }
        post(.didSave(save))
        guard toStores else { return }
        coordinator.didSave(save)
        tellMergingChildren(save, except: nil)
    }

    private func commitSnapshot(of object: ManagedObject, version: Int64) {
        guard let values = object.attributeValues else { return }
        var toOne: [Int: ManagedObjectID] = [:]
        for (i, value) in object.relationshipValues.enumerated() {
            if case .toOne(let d?) = value { toOne[i] = d.objectID }
        }
        object.snapshot = Snapshot(attributes: values, toOne: toOne, version: version)
    }
}

/// What one store is asked to write in a save, with the objects behind its inserted rows.
private struct SaveBatch {
    let store: any PersistentStore
    var changes: StoreChanges
    /// The inserted objects, in the order of `changes.inserted`.
    var insertedObjects: [ManagedObject] = []
}

extension ManagedObject {
    /// Whether a change touches something a store keeps.
    var hasPersistentChanges: Bool {
        changedKeys.contains { key in
            if let a = entity.attribute(named: key) { return !a.isTransient }
            if let r = entity.relationship(named: key) { return !r.isTransient }
            return false
        }
    }
}
