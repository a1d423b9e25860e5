import Foundation
import OrderedCollections
import ObjectModel
import Predicates

/// A child context's parent stands where the stores stand for a context without one: the
/// child reads rows, runs fetches and saves through it. Each call runs on the parent's queue
/// (`performAndWait`), so a child on a private queue may have a main-queue parent.
///
/// The parent serves its objects as they are now, unsaved changes included. A row's version
/// is a hash of its stored values: a push whose row was read at another version finds the
/// parent's object changed since, a conflict that the child's merge policy resolves as a
/// store's would be.
extension ManagedObjectContext {
    // MARK: Reading through the parent or the stores

    /// The row of one object from the parent or its store; `nil` when neither has it.
    func sourceRow(for id: ManagedObjectID) throws -> StoredRow? {
        if let parent { return try parent.performAndWait { try parent.rowForChild(id) } }
        let store = try coordinator.store(for: id)
        return try coordinator.reading(store) { try store.row(for: id) }
    }

    /// The rows of many objects in one request to the parent or a store.
    func sourceRows(for ids: [ManagedObjectID]) throws -> [StoredRow] {
        if let parent { return try parent.performAndWait { try ids.compactMap { try parent.rowForChild($0) } } }
        var byStore: [String: [ManagedObjectID]] = [:]
        for id in ids { if let store = id.storeIdentifier { byStore[store, default: []].append(id) } }
        var rows: [StoredRow] = []
        for (identifier, ids) in byStore {
            guard let store = coordinator.store(withIdentifier: identifier) else { continue }
            rows += try coordinator.reading(store) { try store.rows(for: ids) }
        }
        return rows
    }

    /// The destinations of a to-many relationship, as the parent or the store has them.
    func relatedObjectIDs(of object: ManagedObject, relationship: RelationshipDescription) throws -> [ManagedObjectID] {
        let id = object.objectID
        if let parent {
            return try parent.performAndWait {
                guard let held = try parent.liveObject(for: id),
                      let i = held.entity.relationshipIndex(of: relationship.name) else { return [] }
                return try held.toManyMembers(i).map(\.objectID)
            }
        }
        let store = try coordinator.store(for: id)
        return try coordinator.reading(store) { try store.relatedObjectIDs(of: id, relationship: relationship) }
    }

    /// Runs a store request against the parent: its objects as they are now, unsaved ones
    /// included and deleted ones left out.
    func executeInParent(_ parent: ManagedObjectContext, _ request: StoreRequest) throws -> StoreResult {
        var fetch = request.fetch
        fetch.includesPendingChanges = true
        if !request.appliesLimits {
            fetch.fetchLimit = 0
            fetch.fetchOffset = 0
        }
        if fetch.resultType == .managedObjects { fetch.resultType = .objectIDs }
        let result = try parent.performAndWait { try parent.execute(fetch) }
        switch result {
        case .count(let n): return .count(n)
        case .dictionaries(let rows): return .dictionaries(rows)
        case .objectIDs(let ids): return .rows(ids: ids, rows: nil)
        case .objects(let objects): return .rows(ids: objects.map(\.objectID), rows: nil)
        }
    }

    // MARK: Serving a child

    /// The object for an ID as this context has it, its values loaded; `nil` when it is
    /// deleted here or no store has it.
    func liveObject(for id: ManagedObjectID) throws -> ManagedObject? {
        let object: ManagedObject
        if let registered = registeredObject(for: id) {
            object = registered
        } else if id.isTemporaryID && parent == nil {
            // Unsaved, and not here: no store has it.
            return nil
        } else {
            object = self.object(with: id)
        }
        guard object.status == .clean || object.status == .inserted else { return nil }
        do {
            try object.fireFault()
        } catch let error as ObjectGraphError {
            if case .objectNotFound = error { return nil }
            throw error
        }
        return object
    }

    /// An object's row as a child reads it: its values now, versioned by their hash.
    func rowForChild(_ id: ManagedObjectID) throws -> StoredRow? {
        guard let object = try liveObject(for: id) else { return nil }
        var row = try storedRow(of: object)
        row.version = childVersion(of: object)
        return row
    }

    /// A hash of what a child keeps of an object: stored attributes and to-one destinations.
    func childVersion(of object: ManagedObject) -> Int64 {
        var hasher = Hasher()
        if let values = object.attributeValues {
            for (i, traits) in object.entity.attributeTraits.enumerated() where !traits.isTransient { hasher.combine(values[i]) }
        }
        for value in object.relationshipValues {
            if case .toOne(let destination) = value { hasher.combine(destination?.objectID) }
        }
        let hash = Int64(truncatingIfNeeded: hasher.finalize())
        // 0 stands for "not read" in a child's deletions.
        return hash == 0 ? 1 : hash
    }

    /// Takes a child's saved changes as this context's own unsaved ones: new objects keep
    /// their (permanent) IDs, changes are recorded for undo, deletions run their rules here.
    ///
    /// - Throws: `MergeConflictError` for objects changed or deleted here since the child
    ///   read them (unless `changes.overwritesConflicts`); nothing is taken then.
    func acceptPush(_ changes: StoreChanges, from child: ManagedObjectContext) throws -> StoreSaveResult {
        checkQueue()
        processPendingChanges()
        var conflicts: [MergeConflict] = []
        var targets: [ManagedObject] = []
        for row in changes.updated {
            let live = try liveObject(for: row.objectID)
            if let live { targets.append(live) }
            let now = live.map(childVersion(of:))
            if now != row.version {
                var persisted = try live.map { try storedRow(of: $0) }
                persisted?.version = now ?? 0
                conflicts.append(MergeConflict(objectID: row.objectID, oldVersion: row.version, newVersion: now ?? 0, persisted: persisted))
            }
        }
        var doomed: [ManagedObject] = []
        for (id, version) in changes.deleted {
            guard let live = try liveObject(for: id) else { continue }
            doomed.append(live)
            let now = childVersion(of: live)
            if version != 0, now != version {
                var persisted = try storedRow(of: live)
                persisted.version = now
                conflicts.append(MergeConflict(objectID: id, oldVersion: version, newVersion: now, persisted: persisted))
            }
        }
        if !conflicts.isEmpty && !changes.overwritesConflicts { throw MergeConflictError(conflicts: conflicts) }
        // A conflict overwritten on an object deleted here brings nothing back.
        let updatedRows = changes.updated.filter { row in targets.contains { $0.objectID == row.objectID } }

        var result = StoreSaveResult()
        var received: [ManagedObject] = []
        for row in changes.inserted {
            guard let (entity, type) = kind(named: row.objectID.entityName) else { throw ObjectGraphError.unknownEntity(row.objectID.entityName) }
            let values = row.values(inOrderOf: entity) ?? entity.attributes.map { row.attributes[$0.name] ?? .null }
            received.append(insertNew(entity, type, id: row.objectID, values: values))
            result.insertedIDs.append(row.objectID)
        }
        for (object, row) in zip(received, changes.inserted) { try takeRelationships(of: row, into: object) }
        for row in updatedRows {
            guard let object = registeredObject(for: row.objectID) else { continue }
            let values = row.values(inOrderOf: object.entity)
            for (i, a) in object.entity.attributes.enumerated() where !a.isTransient {
                recordAttributeChange(object, index: i, to: values?[i] ?? row.attributes[a.name] ?? .null)
            }
            try takeRelationships(of: row, into: object)
        }
        for object in doomed where object.status == .clean || object.status == .inserted { delete(object) }
        processPendingChanges()
        for object in received + updatedRows.compactMap({ registeredObject(for: $0.objectID) }) {
            result.versions[object.objectID] = childVersion(of: object)
        }
        tellMergingChildren(ContextDidSave(inserted: result.insertedIDs, updated: updatedRows.map(\.objectID),
                                           deleted: changes.deleted.map(\.objectID)), except: child)
        return result
    }

    /// Sets an object's relationships to a pushed row's, keeping inverses in step.
    private func takeRelationships(of row: StoredRow, into object: ManagedObject) throws {
        for (i, r) in object.entity.relationships.enumerated() where !r.isTransient {
            if r.isToMany {
                guard let members = row.toMany[r.name] else { continue }
                let wanted = OrderedSet(try members.compactMap { try liveObject(for: $0) })
                if try object.toManyMembers(i) != wanted { try replaceToMany(of: object, index: i, with: wanted) }
            } else {
                let destination = try row.toOne[r.name].flatMap { try liveObject(for: $0) }
                try setToOne(of: object, index: i, to: destination)
            }
        }
    }

    // MARK: Merging what the parent commits

    /// Tells the children that merge from this context what it committed, on their queues.
    func tellMergingChildren(_ save: ContextDidSave, except sender: ManagedObjectContext?) {
        let children = mergingChildren.withLock { list in
            list.removeAll { $0.context == nil }
            return list.compactMap(\.context)
        }
        for child in children where child !== sender {
            if child.isOnQueue {
                child.mergeChanges(fromContextDidSave: save)
            } else {
                child.perform { child.mergeChanges(fromContextDidSave: save) }
            }
        }
    }

    /// Starts or stops merging the parent's commits.
    func setMergesFromParent(_ merges: Bool) {
        if let parent {
            precondition(!merges || concurrencyType != .confined || parent.concurrencyType == .confined,
                         "a confined child context cannot merge from a parent on a queue; make the child with concurrencyType .privateQueue")
            parent.mergingChildren.withLock { list in
                list.removeAll { $0.context == nil || $0.context === self }
                if merges { list.append(WeakContext(context: self)) }
            }
            mergesFromParent.withLock { $0.merges = merges }
            return
        }
        precondition(!merges || concurrencyType != .confined,
                     "a confined context cannot merge other contexts' saves as they happen; make it with concurrencyType .mainQueue or .privateQueue")
        let stale: UUID? = mergesFromParent.withLock { state in
            defer { state.merges = merges }
            guard merges != state.merges else { return nil }
            if merges {
                let token = queueToken
                let link = WeakContext(context: self)
                state.observer = coordinator.observeSaves { save in
                    guard save.savedBy != token, let context = link.context else { return }
                    context.perform { context.mergeChanges(fromContextDidSave: save) }
                }
                return nil
            }
            defer { state.observer = nil }
            return state.observer
        }
        if let stale { coordinator.removeSaveObserver(stale) }
    }

    /// Stops the coordinator's save observer as the context goes away.
    func stopMergingFromParent() {
        if let observer = mergesFromParent.withLock({ $0.observer }) { coordinator.removeSaveObserver(observer) }
    }

    // MARK: Permanent IDs

    /// Gives inserted objects their permanent IDs now, before they are saved: the stores
    /// hand out their keys, and the next save writes them under those IDs. A child's save
    /// does this for the objects it pushes, so that parent and child name them alike.
    ///
    /// ```swift
    /// let item = try context.insertObject(forEntityName: "ToDo")
    /// try context.obtainPermanentIDs(for: [item])
    /// let id = item.objectID       // the ID it keeps after the save
    /// ```
    public func obtainPermanentIDs(for objects: [ManagedObject]) throws {
        checkQueue()
        var groups: [(store: any PersistentStore, objects: [ManagedObject])] = []
        for object in objects where object.objectID.isTemporaryID && object.status == .inserted && object.managedObjectContext === self {
            let store = try storeForInsertion(object)
            if let i = groups.firstIndex(where: { $0.store.identifier == store.identifier }) {
                groups[i].objects.append(object)
            } else {
                groups.append((store, [object]))
            }
        }
        guard !groups.isEmpty else { return }
        let ids = try coordinator.locked { try groups.map { try $0.store.obtainPermanentIDs(for: $0.objects.map(\.entity.name)) } }
        for (group, ids) in zip(groups, ids) {
            for (object, id) in zip(group.objects, ids) {
                unregister(object)
                object.objectID = id
                register(object)
            }
        }
    }
}

/// A context held without keeping it alive.
struct WeakContext {
    weak var context: ManagedObjectContext?
}

/// Whether a context merges its parent's commits, and its save observer on the coordinator.
struct MergeFromParent {
    var merges = false
    var observer: UUID?
}
