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

    /// Saves to one store (or the parent); on conflicts, applies the merge policy and tries
    /// again. Another writer may change the same objects between the tries (clients of a
    /// server store do not wait for each other): each new conflict is resolved the same way,
    /// up to `conflictRetries` times, and then reported.
    private func saveResolvingConflicts(_ changes: StoreChanges,
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

    // MARK: Validation

    /// Validates every inserted, updated and deleted object; all failures together.
    public func validateForSave() throws {
        checkQueue()
        var failures: [ValidationFailure] = []
        func collect(_ object: ManagedObject, _ check: () throws -> Void) {
            do { try check() } catch let error as ValidationError {
                failures += error.failures
            } catch {
                failures.append(ValidationFailure(code: .generic, object: object, key: nil, value: .null,
                                                  reason: String(describing: error)))
            }
        }
        for object in inserted { collect(object) { try object.validateForInsert() } }
        for object in updated { collect(object) { try object.validateForUpdate() } }
        for object in deleted { collect(object) { try object.validateForDelete() } }
        failures += try uniquenessFailures()
        if !failures.isEmpty { throw ValidationError(failures: failures) }
    }

    /// Objects whose uniqueness-constrained values another object already has.
    private func uniquenessFailures() throws -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        let constrained = model.entities.filter { !$0.declaration.uniquenessConstraints.isEmpty }
        guard !constrained.isEmpty else { return [] }
        let candidates = Array(inserted) + Array(updated)
        for entity in constrained {
            let objects = candidates.filter { $0.entity.isKind(of: entity.name) }
            guard !objects.isEmpty else { continue }
            for constraint in entity.declaration.uniquenessConstraints {
                var seen: [[ObjectValue]: ManagedObject] = [:]
                for object in objects {
                    let key = constraint.map { object[$0] }
                    if let other = seen[key] {
                        failures.append(uniqueFailure(object, constraint, key, other.objectID))
                        continue
                    }
                    seen[key] = object
                    let predicate = ObjectPredicate.and(zip(constraint, key).map { .comparison($0, .equalTo, $1) })
                    let request = FetchRequest(entityName: entity.name, predicate: predicate, resultType: .objectIDs,
                                               includesPendingChanges: false)
                    let clash = try fetchObjectIDs(request).first { id in
                        id != object.objectID && registeredObject(for: id).map { !$0.isDeleted && !$0.hasChanges } ?? true
                    }
                    if let clash { failures.append(uniqueFailure(object, constraint, key, clash)) }
                }
            }
        }
        return failures
    }

    private func uniqueFailure(_ object: ManagedObject, _ constraint: [String], _ values: [ObjectValue],
                               _ other: ManagedObjectID) -> ValidationFailure {
        ValidationFailure(code: .uniquenessConstraint, object: object, key: constraint.joined(separator: ","),
                          value: values.count == 1 ? values[0] : .array(values),
                          reason: "must be unique, but \(other) has the same value")
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
