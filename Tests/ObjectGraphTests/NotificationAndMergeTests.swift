import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import TestSupport

@Suite("Notifications, refreshing and merging")
struct NotificationAndMergeTests {
    @Test("objects-did-change reports inserted, updated and deleted objects of the event")
    func objectsDidChange() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let context = stack.context
        let a = try context.insertObject(forEntityName: "ToDo")
        let b = try context.insertObject(forEntityName: "ToDo")
        try context.save()
        var events: [ObjectChanges] = []
        let observation = context.observe { if case .objectsDidChange(let c) = $0 { events.append(c) } }
        defer { observation.cancel() }
        let c = try context.insertObject(forEntityName: "ToDo")
        a["name"] = "changed"
        context.delete(b)
        context.processPendingChanges()
        #expect(events.count == 1)
        #expect(events.first?.inserted == [c])
        #expect(events.first?.updated == [a])
        #expect(events.first?.deleted == [b])
        context.processPendingChanges()
        #expect(events.count == 1, "no change, no notification")
    }

    @Test("a cancelled observation hears nothing more; cancelling after the context has gone does nothing")
    func cancelledObservation() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        var heard = 0
        let observation = stack.context.observe { if case .objectsDidChange = $0 { heard += 1 } }
        _ = try stack.context.insertObject(forEntityName: "ToDo")
        stack.context.processPendingChanges()
        #expect(heard == 1)
        observation.cancel()
        _ = try stack.context.insertObject(forEntityName: "ToDo")
        stack.context.processPendingChanges()
        #expect(heard == 1)

        var outliving: ContextObservation?
        weak var gone: ManagedObjectContext?
        do {
            let other = stack.newContext()
            gone = other
            outliving = other.observe { _ in heard += 1 }
        }
        #expect(gone == nil, "the observation does not keep its context alive")
        outliving?.cancel()
        #expect(heard == 1)
    }

    @Test("a change to an inserted object in a later event is announced as an update")
    func insertedThenChanged() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let context = stack.context
        let item = try context.insertObject(forEntityName: "ToDo")
        context.processPendingChanges()
        var updated: [ManagedObject] = []
        let observation = context.observe { if case .objectsDidChange(let c) = $0 { updated += c.updated } }
        defer { observation.cancel() }
        item["name"] = "Renamed"
        context.processPendingChanges()
        #expect(updated == [item])
        #expect(item.isInserted && !item.isUpdated)
    }

    @Test("will-save and did-save bracket a save; did-save carries the object IDs")
    func saveNotifications() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        var log: [String] = []
        var saved: ContextDidSave?
        let observation = stack.context.observe { note in
            switch note {
            case .willSave: log.append("will")
            case .didSave(let s): log.append("did"); saved = s
            case .objectsDidChange: break
            }
        }
        defer { observation.cancel() }
        let item = try stack.context.insertObject(forEntityName: "ToDo")
        try stack.context.save()
        #expect(log == ["will", "did"])
        #expect(saved?.inserted == [item.objectID])
        #expect(saved?.inserted.first?.isTemporaryID == false)
    }

    @Test("merging another context's save updates, removes and announces objects")
    func merging() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let main = stack.context
        let a = try main.insertObject(forEntityName: "ToDo")
        a["name"] = "first"
        let b = try main.insertObject(forEntityName: "ToDo")
        try main.save()

        let background = stack.newContext()
        let a2 = background.object(with: a.objectID)
        a2["name"] = "renamed elsewhere"
        background.delete(background.object(with: b.objectID))
        let c2 = try background.insertObject(forEntityName: "ToDo")
        let received = LockedBox<ContextDidSave?>(nil)
        let token = stack.coordinator.observeSaves { save in received.value = save }
        defer { stack.coordinator.removeSaveObserver(token) }
        try background.save()

        var changes: ObjectChanges?
        let observation = main.observe { if case .objectsDidChange(let c) = $0 { changes = c } }
        defer { observation.cancel() }
        main.mergeChanges(fromContextDidSave: try #require(received.value))
        #expect(a.string("name") == "renamed elsewhere")
        #expect(!b.isValid)
        #expect(changes?.deleted == [b])
        #expect(changes?.inserted.map(\.objectID) == [c2.objectID])
        #expect(changes?.refreshed.contains(a) == true)
    }

    @Test("a merge announces up to so many new objects as objects; more by ID alone, none of them made",
          arguments: [ManagedObjectContext.mergedInsertsAnnouncedAsObjects, ManagedObjectContext.mergedInsertsAnnouncedAsObjects + 1])
    func largeMergeByID(count: Int) throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let main = stack.context
        let background = stack.newContext()
        for i in 0..<count { try background.insertObject(forEntityName: "ToDo")["name"] = .string("item \(i)") }
        let received = LockedBox<ContextDidSave?>(nil)
        let token = stack.coordinator.observeSaves { save in received.value = save }
        defer { stack.coordinator.removeSaveObserver(token) }
        try background.save()

        var changes: ObjectChanges?
        let observation = main.observe { if case .objectsDidChange(let c) = $0 { changes = c } }
        defer { observation.cancel() }
        main.mergeChanges(fromContextDidSave: try #require(received.value))
        let announced = try #require(changes)
        if count <= ManagedObjectContext.mergedInsertsAnnouncedAsObjects {
            #expect(announced.inserted.count == count && announced.mergedObjectIDs.isEmpty)
            #expect(main.registeredObjects.count == count)
        } else {
            #expect(announced.inserted.isEmpty)
            #expect(Set(announced.mergedObjectIDs) == Set(try #require(received.value).inserted))
            #expect(main.registeredObjects.isEmpty, "no object is made for them")
        }
        #expect(try main.count(for: FetchRequest(entityName: "ToDo")) == count)
    }

    @Test("refresh with merging keeps the context's own changes over the store's values")
    func refreshMerging() throws {
        let stack = try TestStack(model: try ModelFixtures.companyModel())
        let e = try stack.context.insertObject(forEntityName: "Employee")
        e["name"] = "Ada"
        try stack.context.save()
        let other = stack.newContext()
        let e2 = other.object(with: e.objectID)
        e2["salary"] = 500
        try other.save()
        e["name"] = "Ada L."
        stack.context.refresh(e, mergeChanges: true)
        #expect(e.int("salary") == 500)
        #expect(e.string("name") == "Ada L.")
        #expect(e.isUpdated)
        stack.context.refresh(e, mergeChanges: false)
        #expect(e.string("name") == "Ada")
        #expect(!e.hasChanges)
    }

    @Test("reset forgets every object")
    func reset() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let a = try stack.context.insertObject(forEntityName: "ToDo")
        stack.context.reset()
        #expect(!a.isValid)
        #expect(!stack.context.hasChanges)
        #expect(stack.context.registeredObjects.isEmpty)
    }

    @Test("a save that finds the row changed by another context fails under the default policy")
    func conflicts() throws {
        let stack = try TestStack(model: try ModelFixtures.companyModel())
        let e = try stack.context.insertObject(forEntityName: "Employee")
        e["name"] = "Ada"
        try stack.context.save()
        let other = stack.newContext()
        other.object(with: e.objectID)["salary"] = 1
        e["name"] = "Ada (mine)"
        _ = e.int("salary")
        try other.save()
        #expect(throws: MergeConflictError.self) { try stack.context.save() }
        #expect(e.string("name") == "Ada (mine)")

        stack.context.mergePolicy = .mergeByPropertyObjectTrump
        try stack.context.save()
        let reader = stack.newContext()
        let check = reader.object(with: e.objectID)
        #expect(check.string("name") == "Ada (mine)")
        #expect(check.int("salary") == 1, "the other context's change to another property survives")
    }

    @Test("store-trump keeps the store's value where both changed; overwrite keeps ours")
    func storeTrumpAndOverwrite() throws {
        for (policy, expected) in [(MergePolicy.mergeByPropertyStoreTrump, "theirs"), (.overwrite, "mine"), (.rollback, "theirs")] {
            let stack = try TestStack(model: try ModelFixtures.companyModel())
            let e = try stack.context.insertObject(forEntityName: "Employee")
            e["name"] = "base"
            try stack.context.save()
            let other = stack.newContext()
            other.object(with: e.objectID)["name"] = "theirs"
            try other.save()
            e["name"] = "mine"
            stack.context.mergePolicy = policy
            try stack.context.save()
            let reader = stack.newContext()
            #expect(reader.object(with: e.objectID).string("name") == expected, "\(policy)")
        }
    }
}
