import Foundation
import OrderedCollections
import ObjectModel
import Predicates
import Synchronization

extension ManagedObjectContext {
    // MARK: Events

    /// Ends the current event: runs delete rules, closes the undo group, and tells
    /// observers which objects were inserted, updated and deleted.
    public func processPendingChanges() {
        checkQueue()
        if propagatesDeletesAtEndOfEvent { propagateDeletes() }
        if let undo = undoManager, undo.groupsByEvent { undo.closeEventGroup() }
        guard !event.isEmpty else { return }
        // Listing the event's objects costs a pass over each list; without an observer, the
        // lists are simply dropped.
        guard !observers.isEmpty else { return startEvent() }
        let changes = ObjectChanges(
            inserted: event.inserted.filter { $0.status == .inserted } + Array(event.merged),
            updated: event.updated.filter {
                ($0.status == .clean || $0.status == .inserted) && $0.insertedInEvent != event.number
            },
            deleted: Array(event.deleted),
            refreshed: Array(event.refreshed),
            invalidated: Array(event.invalidated),
            invalidatedAll: event.invalidatedAll,
            mergedObjectIDs: event.mergedIDs)
        startEvent()
        post(.objectsDidChange(changes))
    }

    /// Begins a new event with empty change sets.
    func startEvent() {
        eventCount += 1
        event = EventChanges(number: eventCount)
    }

    /// Adds an object to the event's insertions; its changes in the same event need no
    /// separate notice, which the object's mark lets change tracking see without a lookup.
    func noteInsertedInEvent(_ object: ManagedObject) {
        guard object.insertedInEvent != event.number else { return }
        event.inserted.append(object)
        object.insertedInEvent = event.number
    }

    /// Adds an object to the event's updates, unless the event inserted it or has it already.
    func noteUpdatedInEvent(_ object: ManagedObject) {
        guard object.insertedInEvent != event.number, object.updatedInEvent != event.number else { return }
        event.updated.append(object)
        object.updatedInEvent = event.number
    }
}

/// Objects changed during the current event.
struct EventChanges {
    /// Which event of its context this is; objects inserted or updated in it carry the
    /// number, which keeps these two lists free of duplicates without hashing.
    var number: Int
    var inserted: [ManagedObject] = []
    var updated: [ManagedObject] = []
    var deleted: OrderedSet<ManagedObject> = []
    var refreshed: OrderedSet<ManagedObject> = []
    var invalidated: OrderedSet<ManagedObject> = []
    /// Objects another context inserted, brought in by a merge.
    var merged: OrderedSet<ManagedObject> = []
    /// Objects a merge changed or deleted that were not in memory here, and a large
    /// merge's new objects.
    var mergedIDs: [ManagedObjectID] = []
    var invalidatedAll = false

    var isEmpty: Bool {
        inserted.isEmpty && updated.isEmpty && deleted.isEmpty && refreshed.isEmpty && invalidated.isEmpty && merged.isEmpty
            && mergedIDs.isEmpty && !invalidatedAll
    }
}
