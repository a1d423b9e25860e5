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
        #expect(again == FetchedObjects(Array(again)))
        #expect(again != FetchedObjects(Array(again.reversed())))
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
}
