import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

@Suite("Fetched objects are made as they are read")
struct FetchedObjectsTests {
    /// A store of 25 saved items, "item 00" to "item 24", and a new context on it.
    func saved() throws -> (SQLiteTestStack, ManagedObjectContext) {
        let stack = try SQLiteTestStack(model: try ModelFixtures.toDoModel())
        for i in 0..<25 {
            let item = try stack.context.insertObject(forEntityName: "ToDo")
            item["name"] = .string(String(format: "item %02d", i))
        }
        try stack.context.save()
        return (stack, stack.newContext())
    }

    let byName = [ObjectSortDescriptor(key: "name")]

    @Test("a fetch makes no object until one is read; reading it again gives the same object")
    func lazy() throws {
        let (_, context) = try saved()
        let items = try context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: byName))
        #expect(items.count == 25)
        #expect(items.objectIDs.count == 25)
        #expect(context.registeredObjects.isEmpty)

        let third = items[3]
        #expect(context.registeredObjects == [third])
        #expect(third.isFault)
        #expect(items[3] === third)
        #expect(third.string("name") == "item 03")
        #expect(items.map { $0.string("name") ?? "" } == (0..<25).map { String(format: "item %02d", $0) })
        #expect(context.registeredObjects.count == 25)
        #expect(items[3] === third, "still the same object once the rest were made")
    }

    @Test("an object the context already holds is the one a later fetch gives")
    func sameObjectAcrossFetches() throws {
        let (_, context) = try saved()
        let first = try context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: byName))[7]
        let again = try context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: byName))
        #expect(again[7] === first)
        let third = try context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: byName))
        #expect(again == third, "two fetches give the same objects in the same order")
        #expect(again != FetchedObjects(Array(third.reversed())))
        let other = try context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: byName)).dropFirst()
        #expect(again != FetchedObjects(Array(other) + [first]))
    }

    @Test("with a batch size, reading one object makes its batch and no other")
    func batch() throws {
        let (_, context) = try saved()
        let items = try context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: byName, fetchBatchSize: 10))
        #expect(context.registeredObjects.isEmpty)
        _ = items[13]
        #expect(Set(context.registeredObjects.map(\.objectID)) == Set(items.objectIDs[10..<20]))
        #expect(items[13].string("name") == "item 13")
        #expect(items[10..<20].allSatisfy { !$0.isFault }, "the batch loaded together")
    }

    @Test("a fetch that loads values, prefetches, or merges unsaved changes makes every object at once")
    func eager() throws {
        let (_, context) = try saved()
        var loaded = FetchRequest(entityName: "ToDo")
        loaded.returnsObjectsAsFaults = false
        let items = try context.fetch(loaded)
        #expect(context.registeredObjects.count == 25)
        #expect(items.allSatisfy { !$0.isFault })

        let (stack, prefetching) = try saved()
        let home = try stack.context.insertObject(forEntityName: "Category")
        home["name"] = "Home"
        try stack.context.save()
        let categories = try prefetching.fetch(FetchRequest(entityName: "Category", relationshipKeyPathsForPrefetching: ["todos"]))
        #expect(categories.count == 1)
        #expect(prefetching.registeredObjects.count == 1, "prefetching makes the categories at the fetch")

        let other = try saved().1
        let added = try other.insertObject(forEntityName: "ToDo")
        added["name"] = "item 25"
        let merged = try other.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: byName))
        #expect(other.registeredObjects.count == 26)
        #expect(merged.last === added)
    }

    @Test("the results keep their context: objects read after the context's last other owner let go still load")
    func keepsContext() throws {
        let (_, context) = try saved()
        weak var weakContext = context
        let items = try context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: byName))
        _ = consume context
        #expect(weakContext != nil)
        #expect(items[24].string("name") == "item 24")
        #expect(items[24].managedObjectContext === weakContext)
    }

    @Test("a result read after a reset gives objects that are no longer the context's, as an array would hold")
    func afterReset() throws {
        let (_, context) = try saved()
        let items = try context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: byName))
        let read = items[0]
        context.reset()
        #expect(!read.isValid)
        #expect(!items[1].isValid, "an object first read after the reset is not a live fault")
        #expect(items[1].managedObjectContext == nil)
        #expect(context.registeredObjects.isEmpty)
        let fresh = try context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: byName))
        #expect(fresh[1].isValid && fresh[1].string("name") == "item 01", "a fetch after the reset is live")
    }

    @Test("an object whose deletion was saved or merged since the fetch reads as invalid, not as a fault for a missing row")
    func afterDeletion() throws {
        let (stack, context) = try saved()
        let items = try context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: byName, fetchBatchSize: 10))
        let doomed = try #require(try context.object(forEntityName: "ToDo", matchingKey: "name", value: "item 03"))
        context.delete(doomed)
        try context.save()
        #expect(!items[3].isValid)
        #expect(items[4].isValid && items[4].string("name") == "item 04", "the rest of its batch loads")

        let other = stack.newContext()
        let elsewhere = try #require(try other.object(forEntityName: "ToDo", matchingKey: "name", value: "item 17"))
        other.delete(elsewhere)
        var save: ContextDidSave?
        let observation = other.observe { if case .didSave(let s) = $0 { save = s } }
        try other.save()
        observation.cancel()
        context.mergeChanges(fromContextDidSave: try #require(save))
        #expect(!items[17].isValid)
        #expect(items[16].string("name") == "item 16")
    }

    @Test("a to-many's object IDs are read without making its members; with changes in the context they include them")
    func relationshipIDsMakeNoMembers() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.toDoModel())
        let home = try stack.context.insertObject(forEntityName: "Category")
        home["name"] = "Home"
        var saved: [ManagedObjectID] = []
        for i in 0..<20 {
            let item = try stack.context.insertObject(forEntityName: "ToDo")
            item["name"] = .string("item \(i)")
            item["category"] = .object(home)
        }
        try stack.context.save()
        saved = try stack.context.fetchObjectIDs(FetchRequest(entityName: "ToDo"))
        let context = stack.newContext()
        let category = try context.existingObject(with: home.objectID)
        let ids = try category.objectIDs(forRelationshipNamed: "todos")
        #expect(Set(ids) == Set(saved))
        #expect(context.registeredObjects.count == 1, "only the category was made")
        // An unsaved member is the context's news, not the store's.
        let new = try context.insertObject(forEntityName: "ToDo")
        new["category"] = .object(category)
        #expect(Set(try category.objectIDs(forRelationshipNamed: "todos")) == Set(saved + [new.objectID]))
    }
}
