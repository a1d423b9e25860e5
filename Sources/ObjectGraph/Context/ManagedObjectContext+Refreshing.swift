import Foundation
import OrderedCollections
import ObjectModel
import Predicates

extension ManagedObjectContext {
    /// Discards every unsaved change: inserted objects leave the context, changed and
    /// deleted ones return to their saved values. The undo stack is emptied.
    public func rollback() {
        checkQueue()
        undoManager?.removeAllActions()
        pendingDeletes = []
        for object in Array(inserted) + Array(discarded) {
            object.status = .invalid
            unregister(object)
            event.invalidated.append(object)
        }
        for object in Array(updated) + Array(deleted) {
            turnIntoFault(object)
            event.refreshed.append(object)
        }
        inserted.removeAll()
        updated.removeAll()
        deleted.removeAll()
        discarded.removeAll()
        let kept = event
        startEvent()
        event.refreshed = kept.refreshed
        event.invalidated = kept.invalidated
        event.merged = kept.merged
        event.invalidatedAll = kept.invalidatedAll
        processPendingChanges()
    }

    /// Forgets every object: all of them leave the context, with their changes.
    public func reset() {
        checkQueue()
        undoManager?.removeAllActions()
        for object in registry.objects + (temporaryIndex.map { $0.values.map { $0.takeUnretainedValue() } } ?? []) {
            object.status = .invalid
            object.managedObjectContext = nil
        }
        for object in Array(inserted) + Array(updated) + Array(deleted) + Array(discarded) {
            object.status = .invalid
            object.managedObjectContext = nil
        }
        registry.removeAll()
        temporaryIndex = nil
        inserted.removeAll()
        updated.removeAll()
        deleted.removeAll()
        discarded.removeAll()
        pendingDeletes = []
        pendingResults.reset()
        faultBatches = FaultBatches()
        startEvent()
        event.invalidatedAll = true
        processPendingChanges()
    }

    /// Reloads an object from its store.
    ///
    /// - Parameter object: an object of this context that has been saved (an inserted
    ///   object, or one of another context, is left as it is).
    /// - Parameter mergeChanges: `false` discards the object's unsaved changes (it becomes
    ///   a fault); `true` reloads the stored values and then applies its unsaved changes again.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) {
        checkQueue()
        guard object.managedObjectContext === self, object.status == .clean || object.status == .deleted else { return }
        if !mergeChanges || object.changedKeys.isEmpty {
            if object.status == .deleted {
                deleted.remove(object)
                pendingDeletes.removeAll { $0 === object }
                object.status = .clean
            }
            turnIntoFault(object)
            event.refreshed.append(object)
            return
        }
        let keys = object.changedKeys
        let local: [(String, ObjectValue)] = keys.compactMap { key in (try? object.value(forKey: key)).map { (key, $0) } }
        turnIntoFault(object)
        guard (try? object.fireFault()) != nil else { return }
        isApplyingUndo = true
        defer { isApplyingUndo = false }
        for (key, value) in local {
            if let i = object.entity.attributeIndex(of: key) {
                recordAttributeChange(object, index: i, to: value)
            } else if let i = object.entity.relationshipIndex(of: key) {
                if object.entity.relationships[i].isToMany {
                    let members = OrderedSet((value.collectionElements ?? []).compactMap { $0.objectReference as? ManagedObject })
                    object.relationshipValues[i] = .toMany(members)
                    noteOriginal(object, key, .toMany(nil))
                    noteChanged(object, key)
                } else {
                    primitiveSetToOne(object, i, value.objectReference as? ManagedObject)
                }
            }
        }
        event.refreshed.append(object)
    }

    /// Refreshes every registered object, keeping unsaved changes.
    public func refreshAllObjects() {
        checkQueue()
        for object in registry.objects { refresh(object, mergeChanges: true) }
        processPendingChanges()
    }

    /// Makes an object a fault again: its values will be read from the store on next access.
    func turnIntoFault(_ object: ManagedObject) {
        faultBatches.forgetRows(of: CollectionOfOne(object.objectID))
        updated.remove(object)
        object.changedKeys = []
        object.originals = [:]
        object.attributeValues = nil
        object.relationshipValues = faultRelationships(of: object.entity)
        if object.status != .invalid { object.status = .clean }
    }

    /// How many new objects a merge announces as objects (faults registered here, in
    /// `ObjectChanges.inserted`); more are announced by ID alone (`mergedObjectIDs`), so
    /// that merging a large import costs no more than the results shown read again.
    public static let mergedInsertsAnnouncedAsObjects = 1_000

    /// Brings in what another context saved: changed objects reload (keeping this
    /// context's own unsaved changes), deleted ones leave, inserted ones are announced
    /// (by ID alone beyond `mergedInsertsAnnouncedAsObjects`). A
    /// context that follows the stores' history (`historyToken`) skips the save's
    /// transactions when it next merges history: they are not announced twice.
    ///
    /// ```swift
    /// coordinator.observeSaves { save in
    ///     DispatchQueue.main.async { viewContext.mergeChanges(fromContextDidSave: save) }
    /// }
    /// ```
    public func mergeChanges(fromContextDidSave save: ContextDidSave) {
        mergeChanges(fromContextDidSave: save, keepingUnsaved: false)
    }

    /// `mergeChanges`; with `keepingUnsaved`, an object with unsaved changes keeps the
    /// values (and version) it read, so that saving it meets the other save as a conflict
    /// for the merge policy (or the user) to settle, rather than overwriting it unseen.
    func mergeChanges(fromContextDidSave save: ContextDidSave, keepingUnsaved: Bool) {
        checkQueue()
        // A context that follows history has these changes now: merging history skips them.
        if historyToken != nil {
            for (store, number) in save.transactions { ownTransactions[store, default: []].insert(number) }
        }
        for (temporary, permanent) in save.rekeyed {
            guard let object = registeredObject(for: temporary), object.status != .inserted else { continue }
            unregister(object)
            object.objectID = permanent
            register(object)
        }
        // A fault fired from now on reads what the other save wrote, not a row fetched before it.
        faultBatches.forgetRows(of: save.updated)
        faultBatches.forgetRows(of: save.deleted)
        for id in save.updated {
            if let object = registeredObject(for: id), object.status == .clean, !object.isFault || object.hasChanges,
               !(keepingUnsaved && object.hasChanges) {
                refresh(object, mergeChanges: true)
            } else if let object = registeredObject(for: id) {
                event.refreshed.append(object)
            } else {
                event.mergedIDs.append(id)
            }
        }
        pendingResults.forget(save.deleted)
        for id in save.deleted {
            guard let object = registeredObject(for: id) else {
                event.mergedIDs.append(id)
                continue
            }
            updated.remove(object)
            deleted.remove(object)
            object.status = .invalid
            unregister(object)
            object.managedObjectContext = nil
            event.deleted.append(object)
        }
        let news = save.inserted.filter { registeredObject(for: $0) == nil }
        if news.count > Self.mergedInsertsAnnouncedAsObjects {
            // Too many to make faults of on the caller's thread (a large import): announced by
            // ID, for results to read again.
            event.mergedIDs += news
        } else {
            for id in news { event.merged.append(object(with: id)) }
        }
        processPendingChanges()
    }
}
