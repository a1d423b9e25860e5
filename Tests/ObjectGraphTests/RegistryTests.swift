import Foundation
import Synchronization
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import TestSupport

/// The context's registry holds objects without keeping them alive; objects leave it when
/// they go away. These tests release objects in every state the context knows.
@Suite("Object registry and identity")
struct RegistryTests {
    private func savedItems(_ count: Int, in stack: TestStack) throws {
        for i in 0..<count {
            let item = try stack.context.insertObject(forEntityName: "ToDo")
            item["name"] = .string("item \(i)")
        }
        try stack.context.save()
    }

    @Test("objects nobody holds leave the context; a held one comes back as the same instance")
    func releasedObjectsLeave() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let context = stack.context
        try savedItems(100, in: stack)
        #expect(context.registeredObjects.isEmpty, "saved objects nobody holds are released")

        var fetched = try context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")]))
        #expect(fetched.count == 100)
        #expect(context.registeredObjects.isEmpty, "a fetch makes its objects as they are read")
        let kept = fetched[42]
        #expect(context.registeredObjects == [kept])
        #expect(fetched.filter(\.isFault).count == 100)
        #expect(context.registeredObjects.count == 100)
        fetched = []
        #expect(context.registeredObjects == [kept])
        #expect(context.object(with: kept.objectID) === kept)
        let again = try context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")]))
        #expect(again[42] === kept)
        #expect(Set(again.map(\.objectID)).count == 100)
    }

    @Test("an object with unsaved changes stays in the context when nobody else holds it")
    func changedObjectsStay() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        try savedItems(3, in: stack)
        let id: ManagedObjectID
        do {
            let item = try #require(try stack.context.fetch(FetchRequest(entityName: "ToDo")).first)
            item["name"] = "changed"
            id = item.objectID
        }
        let item = try #require(stack.context.registeredObject(for: id))
        #expect(item.string("name") == "changed")
        #expect(stack.context.updatedObjects == [item])
    }

    @Test("a saved object is registered under its permanent ID, no longer under its temporary one")
    func permanentIDRegistration() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let item = try stack.context.insertObject(forEntityName: "ToDo")
        let temporary = item.objectID
        #expect(stack.context.registeredObject(for: temporary) === item)
        try stack.context.save()
        #expect(stack.context.registeredObject(for: temporary) == nil)
        #expect(stack.context.registeredObject(for: item.objectID) === item)
        #expect(stack.context.object(with: item.objectID) === item)
    }

    @Test("inserted objects are found by their temporary IDs, ones inserted after the first lookup too, until the save")
    func temporaryLookups() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let context = stack.context
        let first = try context.insertObject(forEntityName: "ToDo")
        #expect(context.registeredObjects == [first], "before any lookup by a temporary ID")
        #expect(context.object(with: first.objectID) === first)
        let second = try context.insertObject(forEntityName: "ToDo")
        #expect(context.registeredObject(for: second.objectID) === second, "inserted after the first lookup")
        context.delete(second)
        #expect(context.registeredObject(for: second.objectID) === second, "deleted, not yet saved")
        #expect(context.registeredObjects == [first, second])
        let temporary = [first.objectID, second.objectID]
        try context.save()
        #expect(temporary.allSatisfy { context.registeredObject(for: $0) == nil })
        #expect(context.registeredObjects == [first])
        let third = try context.insertObject(forEntityName: "ToDo")
        #expect(context.registeredObject(for: third.objectID) === third)
        #expect(context.registeredObjects == [first, third])
    }

    @Test("a saved object nobody holds is freed at the save and announced by its permanent ID; a subclass still hears didSave")
    func unheldObjectsAtSave() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let context = stack.context
        var announced: [ManagedObjectID] = []
        let observation = context.observe { if case .didSave(let save) = $0 { announced = save.inserted } }
        defer { observation.cancel() }
        weak var gone: ManagedObject?
        do {
            let item = try context.insertObject(forEntityName: "ToDo")
            item["name"] = "let go"
            gone = item
        }
        let held = try context.insertObject(forEntityName: "ToDo")
        held["name"] = "held"
        try context.save()
        #expect(gone == nil)
        #expect(context.registeredObjects == [held])
        #expect(context.object(with: held.objectID) === held)
        #expect(announced.count == 2)
        #expect(announced.allSatisfy { !$0.isTemporaryID })
        #expect(announced.contains(held.objectID))
        let other = try #require(announced.first { $0 != held.objectID })
        #expect(context.object(with: other).string("name") == "let go")

        let name = "didSave \(UUID())"
        stack.coordinator.register(SaveCountingItem.self, forEntityName: "ToDo")
        do {
            let item = try context.insertObject(forEntityName: "ToDo")
            item["name"] = .string(name)
        }
        try context.save()
        #expect(SaveCountingItem.saved.withLock { $0.filter { $0 == name }.count } == 1)
    }

    @Test("after saves of many and of few inserts among fetched objects, each object is found by its permanent ID only")
    func permanentIDsAmongOthers() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let context = stack.context
        try savedItems(20, in: stack)
        let fetched = try context.fetch(FetchRequest(entityName: "ToDo"))
        // Many inserts (the registry is rebuilt), then one (the object is re-keyed alone).
        for count in [200, 1] {
            let inserted = try (0..<count).map { i -> ManagedObject in
                let item = try context.insertObject(forEntityName: "ToDo")
                item["name"] = .string("new \(count) \(i)")
                return item
            }
            let temporary = inserted.map(\.objectID)
            try context.save()
            for (item, old) in zip(inserted, temporary) {
                #expect(!item.objectID.isTemporaryID)
                #expect(context.registeredObject(for: item.objectID) === item)
                #expect(context.registeredObject(for: old) == nil)
            }
            for item in fetched { #expect(context.registeredObject(for: item.objectID) === item) }
            #expect(context.registeredObjects.count == fetched.count + inserted.count)
        }
    }

    @Test("an object saved with a link to one inserted after it commits that object's permanent ID")
    func committedLinkToALaterInsert() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let context = stack.context
        let item = try context.insertObject(forEntityName: "ToDo")
        let home = try context.insertObject(forEntityName: "Category")
        home["name"] = "Home"
        try item.setValue(home, forKey: "category")
        try context.save()
        #expect(item.committedValues(forKeys: ["category"]) == ["category": .object(home.objectID)])
        #expect(!home.objectID.isTemporaryID)
        // The count of a relationship not loaded reads the store and corrects it by the links
        // changed since the save, which it tells by the committed destination.
        context.refresh(home, mergeChanges: false)
        item["category"] = .null
        #expect(try context.count(ofRelationship: "todos", of: home) == 0)
    }

    @Test("a saved object takes the registry entry of a fault made earlier for the key it is given")
    func savedObjectWinsItsKey() throws {
        for count in [1, 40] {
            let stack = try TestStack(model: try ModelFixtures.toDoModel())
            let context = stack.context
            try savedItems(10, in: stack)   // keys 1 to 10; the next ones are 11, 12, ...
            let held = try context.fetch(FetchRequest(entityName: "ToDo"))
            let store = try #require(stack.coordinator.stores.first)
            // A fault for a key no row has yet (as from a URI of another store's object).
            let ahead = ManagedObjectID(entityName: "ToDo", storeIdentifier: store.identifier, reference: .permanent(11))
            let fault = context.object(with: ahead)
            // One insert among a dozen registered objects is re-keyed alone; forty rebuild the registry.
            let inserted = try (0..<count).map { i -> ManagedObject in
                let item = try context.insertObject(forEntityName: "ToDo")
                item["name"] = .string("new \(i)")
                return item
            }
            try context.save()
            #expect(inserted[0].objectID == ahead, "the first new row is given key 11")
            #expect(context.registeredObject(for: ahead) === inserted[0], "with \(count) inserts")
            #expect(context.registeredObject(for: ahead) !== fault)
            #expect(held.allSatisfy { context.registeredObject(for: $0.objectID) === $0 })
        }
    }

    @Test("thousands of objects of two entities and two stores, with dense, strided and far keys, are found until each is released, in any order")
    func manyFamiliesReleasedInAnyOrder() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let context = stack.context
        var random = SeededGenerator(seed: 29)
        // Keys a store hands out (1, 2, 3…), keys a table's size apart, and keys far from
        // both: equal keys meet across entities and stores, and runs overlap.
        let keys: [Int64] = Array(1...1_500) + (1...300).map { $0 * 1_024 } + (1...300).map { Int64(1) << 40 + $0 * 7 }
        var held: [ManagedObjectID: ManagedObject] = [:]
        for entity in ["ToDo", "Category"] {
            for store in ["A", "B"] {
                for key in keys.shuffled(using: &random) {
                    let id = ManagedObjectID(entityName: entity, storeIdentifier: store, reference: .permanent(key))
                    if held[id] == nil { held[id] = context.object(with: id) }
                }
            }
        }
        var released: [ManagedObjectID] = []
        func expectRegistryMatches(_ step: String) {
            #expect(context.registeredObjects.count == held.count, "\(step)")
            let lost = held.filter { context.registeredObject(for: $0.key) !== $0.value }
            #expect(lost.isEmpty, "\(step): \(lost.count) held objects not found, e.g. \(lost.first?.key.description ?? "")")
            let kept = released.filter { context.registeredObject(for: $0) != nil }
            #expect(kept.isEmpty, "\(step): \(kept.count) released objects still found")
        }
        expectRegistryMatches("all made")
        #expect(held.count == 4 * Set(keys).count)
        var order = Array(held.keys).shuffled(using: &random)
        for round in 0..<4 {
            // Release a quarter, then make a few of the released ones again.
            let batch = order.prefix(order.count / 4)
            for id in batch {
                held[id] = nil
                released.append(id)
            }
            order.removeFirst(batch.count)
            expectRegistryMatches("round \(round), released")
            for id in released.suffix(50) {
                let again = context.object(with: id)
                #expect(again.isFault && again.objectID == id)
                held[id] = again
                order.append(id)
            }
            released.removeLast(min(50, released.count))
            expectRegistryMatches("round \(round), made again")
        }
        // An object made for an ID is the same instance while held, from any equal ID.
        do {
            let (anyID, anyObject) = try #require(held.first)
            let equal = ManagedObjectID(entityName: anyID.entityName, storeIdentifier: anyID.storeIdentifier, reference: anyID.reference)
            #expect(context.object(with: equal) === anyObject)
        }
        held = [:]
        #expect(context.registeredObjects.isEmpty)
    }

    @Test("objects released after a reset, a deletion or their context's end leave no trace")
    func releasedAfterTheContext() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        try savedItems(10, in: stack)
        var held = try stack.context.fetch(FetchRequest(entityName: "ToDo"))
        stack.context.reset()
        held = []
        #expect(stack.context.registeredObjects.isEmpty)

        held = try stack.context.fetch(FetchRequest(entityName: "ToDo"))
        stack.context.delete(held[0])
        try stack.context.save()
        #expect(!held[0].isValid)
        held = []
        #expect(stack.context.registeredObjects.isEmpty)

        var survivor: ManagedObject?
        do {
            let other = stack.newContext()
            survivor = try other.fetch(FetchRequest(entityName: "ToDo")).first
        }
        #expect(survivor?.managedObjectContext == nil, "the context has gone")
        survivor = nil
        // The first context still works: nothing it registered was disturbed.
        let fresh = try stack.context.fetch(FetchRequest(entityName: "ToDo"))
        #expect(fresh.count == 9)
        #expect(fresh.allSatisfy { stack.context.object(with: $0.objectID) === $0 })
    }

    @Test("objects released after a rollback, an undone insert or a merged deletion leave no trace")
    func releasedAfterRollbackUndoAndMerge() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let context = stack.context
        try savedItems(3, in: stack)

        var inserted: ManagedObject? = try context.insertObject(forEntityName: "ToDo")
        context.rollback()
        #expect(inserted?.isValid == false)
        inserted = nil

        context.undoManager = UndoStack()
        var undone: ManagedObject? = try context.insertObject(forEntityName: "ToDo")
        context.processPendingChanges()
        context.undo()
        #expect(undone?.isInserted == false)
        undone = nil
        context.redo()
        #expect(context.insertedObjects.count == 1, "redo brings the insert back")
        context.undoManager = nil
        context.rollback()

        var merged: [ManagedObject] = Array(try context.fetch(FetchRequest(entityName: "ToDo")))
        let other = stack.newContext()
        let doomed = try #require(try other.fetch(FetchRequest(entityName: "ToDo")).first)
        other.delete(doomed)
        var save: ContextDidSave?
        let observation = other.observe { if case .didSave(let s) = $0 { save = s } }
        try other.save()
        observation.cancel()
        context.mergeChanges(fromContextDidSave: try #require(save))
        #expect(merged.filter(\.isValid).count == 2)
        merged = []

        #expect(context.registeredObjects.isEmpty)
        let fresh = try context.fetch(FetchRequest(entityName: "ToDo"))
        #expect(fresh.count == 2)
        #expect(fresh.allSatisfy { context.object(with: $0.objectID) === $0 && $0.string("name") != nil })
    }

    @Test("temporary IDs are unique, read as random UUIDs, and their URIs parse back")
    func temporaryIDs() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let ids = try (0..<10_000).map { _ in try stack.context.insertObject(forEntityName: "ToDo").objectID }
        #expect(Set(ids).count == 10_000)
        #expect(Set(ids.map(\.uriRepresentation)).count == 10_000)
        for id in [ids[0], ids[5_000], ids[9_999]] {
            #expect(ManagedObjectID.parse(uri: id.uriRepresentation) == id)
            guard case .temporary(let uuid) = id.reference else {
                Issue.record("\(id) is not temporary")
                continue
            }
            #expect(uuid.uuid.6 >> 4 == 4, "version 4")
            #expect(uuid.uuid.8 >> 6 == 2, "RFC 4122 variant")
        }
    }

    @Test("an object inserted and changed in one event is announced once, as inserted; one changed twice, once")
    func eventListsHaveNoDuplicates() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let context = stack.context
        let saved = try context.insertObject(forEntityName: "ToDo")
        try context.save()
        var events: [ObjectChanges] = []
        let observation = context.observe { if case .objectsDidChange(let c) = $0 { events.append(c) } }
        defer { observation.cancel() }
        let new = try context.insertObject(forEntityName: "ToDo")
        new["name"] = "one"
        new["name"] = "two"
        saved["name"] = "first"
        saved["name"] = "second"
        context.processPendingChanges()
        #expect(events.count == 1)
        #expect(events.first?.inserted == [new])
        #expect(events.first?.updated == [saved])
        saved["name"] = "third"
        context.processPendingChanges()
        #expect(events.count == 2)
        #expect(events.last?.inserted == [])
        #expect(events.last?.updated == [saved], "a new event lists the object again")
    }
}

@Suite("Stored rows")
struct StoredRowTests {
    @Test("a row in attribute order reads by name without transient or missing values, and equals the same row by name")
    func positionalRows() throws {
        let model = try ModelFixtures.companyModel()
        let employee = try #require(model.entity(named: "Employee"))
        let id = ManagedObjectID(entityName: "Employee", storeIdentifier: "S", reference: .permanent(7))
        var values = employee.attributes.map { _ in ObjectValue.null }
        var expected: [String: ObjectValue] = [:]
        for (i, a) in employee.attributes.enumerated() {
            if a.isTransient {
                values[i] = .string("not stored")
            } else if a.type == .string, expected.isEmpty {
                values[i] = .string("Ada")
                expected[a.name] = .string("Ada")
            }
        }
        #expect(employee.attributes.contains { $0.isTransient }, "the fixture has a transient attribute")
        let row = StoredRow(objectID: id, version: 3, entity: employee, values: values)
        #expect(row.attributes == expected)
        #expect(row == StoredRow(objectID: id, version: 3, attributes: expected))
        #expect(row != StoredRow(objectID: id, version: 4, attributes: expected))
        #expect(row.values(inOrderOf: employee) == values)
        let department = try #require(model.entity(named: "Department"))
        #expect(row.values(inOrderOf: department) == nil)
        var renamed = row
        renamed.attributes["name"] = .string("Grace")
        #expect(renamed.attributes["name"] == .string("Grace"))
        #expect(renamed.values(inOrderOf: employee) == nil, "a row changed by name is kept by name")
    }

    @Test("every property of every corpus model is found at its position, and unknown names are not")
    func propertyPositions() throws {
        for url in ModelFixtures.corpusModels + [ModelFixtures.toDo] {
            let model = try XcodeModelFile.read(url).current
            for entity in model.entities {
                for (i, a) in entity.attributes.enumerated() { #expect(entity.attributeIndex(of: a.name) == i) }
                for (i, r) in entity.relationships.enumerated() { #expect(entity.relationshipIndex(of: r.name) == i) }
                #expect(entity.attributeIndex(of: "no such property") == nil)
                #expect(entity.relationshipIndex(of: "") == nil)
            }
        }
    }
}

/// Records the names of the items it saved.
final class SaveCountingItem: ManagedObject {
    static let saved = Mutex<[String]>([])

    override func didSave() {
        let name = string("name") ?? ""
        Self.saved.withLock { $0.append(name) }
    }
}
