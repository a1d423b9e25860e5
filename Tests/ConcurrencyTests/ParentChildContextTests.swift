import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

/// Child contexts: they read through their parent, and their saves go one level up.
@Suite("Parent and child contexts")
struct ParentChildContextTests {
    /// A ToDo store of a type with two saved items, "Milk" in category "Shop" and "Rent".
    static func stack(_ type: StoreType) throws -> (PersistentStoreCoordinator, ManagedObjectContext) {
        SQLiteStore.register()
        let coordinator = PersistentStoreCoordinator(model: try ModelFixtures.toDoModel())
        let url: URL? = type == .inMemory ? nil
            : try Fixtures.temporaryDirectory("parent-child").appendingPathComponent("Store.\(type.rawValue.lowercased())")
        try coordinator.addStore(type: type, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let shop = try context.insertObject(forEntityName: "Category")
        shop["name"] = "Shop"
        let milk = try context.insertObject(forEntityName: "ToDo")
        milk["name"] = "Milk"
        try milk.setValue(shop, forKey: "category")
        try context.insertObject(forEntityName: "ToDo")["name"] = "Rent"
        try context.save()
        context.reset()
        return (coordinator, context)
    }

    /// Names of the items a context fetches, sorted.
    static func names(_ context: ManagedObjectContext, _ format: String? = nil) throws -> [String] {
        let predicate = try format.map { try ObjectPredicate(format: $0) }
        return try context.fetch(FetchRequest(entityName: "ToDo", predicate: predicate, sortDescriptors: [ObjectSortDescriptor(key: "name")]))
            .compactMap { $0.string("name") }
    }

    /// Names of the items in the store itself, read by a fresh context.
    static func stored(_ coordinator: PersistentStoreCoordinator) throws -> [String] {
        try names(ManagedObjectContext(coordinator: coordinator))
    }

    static func item(_ name: String, in context: ManagedObjectContext) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest(entityName: "ToDo", predicate: try ObjectPredicate(format: "name == %@", name))).first)
    }

    static let storeTypes: [StoreType] = [.inMemory, .xml, .binary, .sqlite]

    @Test("a fetch in a child sees the parent's unsaved inserts, changes and deletions", arguments: storeTypes)
    func childSeesParentState(type: StoreType) throws {
        let (_, parent) = try Self.stack(type)
        try parent.insertObject(forEntityName: "ToDo")["name"] = "Bread"
        try Self.item("Milk", in: parent)["name"] = "Oat milk"
        parent.delete(try Self.item("Rent", in: parent))
        let child = ManagedObjectContext(parent: parent)
        #expect(try Self.names(child) == ["Bread", "Oat milk"])
        #expect(try child.count(for: FetchRequest(entityName: "ToDo")) == 2)
        #expect(try Self.names(child, "name BEGINSWITH 'O'") == ["Oat milk"])
        // The parent's unsaved object, read in the child, with its relationship.
        let bread = try Self.item("Bread", in: child)
        #expect(bread.objectID.isTemporaryID)
        #expect(bread.string("name") == "Bread")
        #expect(try Self.item("Oat milk", in: child).object("category")?.string("name") == "Shop")
        let shop = try #require(try child.fetch(FetchRequest(entityName: "Category")).first)
        #expect(shop.objects("todos").compactMap { $0.string("name") } == ["Oat milk"])
    }

    @Test("a child's insert, change and deletion reach the parent unsaved, and the store at the parent's save", arguments: storeTypes)
    func childSaveGoesOneLevelUp(type: StoreType) throws {
        let (coordinator, parent) = try Self.stack(type)
        let child = ManagedObjectContext(parent: parent)
        let bread = try child.insertObject(forEntityName: "ToDo")
        bread["name"] = "Bread"
        let shop = try #require(try child.fetch(FetchRequest(entityName: "Category")).first)
        try bread.setValue(shop, forKey: "category")
        try Self.item("Milk", in: child)["name"] = "Oat milk"
        child.delete(try Self.item("Rent", in: child))
        try child.save()

        #expect(!child.hasChanges)
        #expect(!bread.objectID.isTemporaryID, "pushed objects have their permanent IDs")
        #expect(parent.hasChanges)
        #expect(parent.insertedObjects.map(\.objectID) == [bread.objectID])
        #expect(parent.updatedObjects.compactMap { $0.string("name") }.contains("Oat milk"))
        #expect(parent.deletedObjects.count == 1)
        #expect(try Self.names(parent) == ["Bread", "Oat milk"])
        let parentShop = try #require(try parent.fetch(FetchRequest(entityName: "Category")).first)
        #expect(Set(parentShop.objects("todos").compactMap { $0.string("name") }) == ["Bread", "Oat milk"], "inverses follow")
        #expect(try Self.stored(coordinator) == ["Milk", "Rent"], "the store has none of it yet")

        try parent.save()
        #expect(try Self.stored(coordinator) == ["Bread", "Oat milk"])
        let reader = ManagedObjectContext(coordinator: coordinator)
        let saved = try reader.existingObject(with: bread.objectID)
        #expect(saved.string("name") == "Bread", "the store keeps the ID the child handed out")
        #expect(saved.object("category")?.string("name") == "Shop")
    }

    @Test("dropping a child, or rolling it back, leaves the parent and the store as they were")
    func droppedChildDiscards() throws {
        let (coordinator, parent) = try Self.stack(.sqlite)
        do {
            let child = ManagedObjectContext(parent: parent)
            try child.insertObject(forEntityName: "ToDo")["name"] = "Bread"
            try Self.item("Milk", in: child)["name"] = "Oat milk"
        }
        #expect(!parent.hasChanges)
        let child = ManagedObjectContext(parent: parent)
        try Self.item("Milk", in: child)["name"] = "Oat milk"
        child.rollback()
        try child.save()
        #expect(!parent.hasChanges)
        #expect(try Self.names(parent) == ["Milk", "Rent"])
        #expect(try Self.stored(coordinator) == ["Milk", "Rent"])
    }

    @Test("nesting three deep: a grandchild sees the parent's unsaved state, and its save climbs one level per save")
    func threeDeep() throws {
        let (coordinator, root) = try Self.stack(.sqlite)
        try root.insertObject(forEntityName: "ToDo")["name"] = "Bread"
        let middle = ManagedObjectContext(parent: root)
        try Self.item("Milk", in: middle)["name"] = "Oat milk"
        let leaf = ManagedObjectContext(parent: middle)
        #expect(try Self.names(leaf) == ["Bread", "Oat milk", "Rent"])
        try leaf.insertObject(forEntityName: "ToDo")["name"] = "Apples"
        try Self.item("Bread", in: leaf)["name"] = "Rye bread"
        try leaf.save()
        #expect(try Self.names(middle) == ["Apples", "Oat milk", "Rent", "Rye bread"])
        #expect(try Self.names(root) == ["Bread", "Milk", "Rent"], "the root has only its own changes")
        try middle.save()
        #expect(try Self.names(root) == ["Apples", "Oat milk", "Rent", "Rye bread"])
        #expect(try Self.stored(coordinator) == ["Milk", "Rent"])
        try root.save()
        #expect(try Self.stored(coordinator) == ["Apples", "Oat milk", "Rent", "Rye bread"])
    }

    @Test("a change the parent made after the child read the object is a conflict, resolved by the child's merge policy",
          arguments: [MergePolicy.error, .rollback, .mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump, .overwrite])
    func conflictsOnPush(policy: MergePolicy) throws {
        let (_, parent) = try Self.stack(.sqlite)
        let child = ManagedObjectContext(parent: parent)
        child.mergePolicy = policy
        let milk = try Self.item("Milk", in: child)
        let rent = try Self.item("Rent", in: child)
        #expect(milk.string("name") == "Milk", "read in the child")
        // The parent changes Milk's name and completion after the child read it.
        let parentMilk = try Self.item("Milk", in: parent)
        parentMilk["name"] = "Milk (parent)"
        parentMilk["completed"] = true
        milk["name"] = "Milk (child)"
        rent["name"] = "Rent (child)"

        if policy == .error {
            let conflict = try #require(throws: MergeConflictError.self) { try child.save() }
            #expect(conflict.conflicts.map(\.objectID) == [milk.objectID])
            #expect(child.hasChanges && milk.string("name") == "Milk (child)", "the child keeps its edits")
            #expect(parentMilk.string("name") == "Milk (parent)")
            #expect(try Self.names(parent) == ["Milk (parent)", "Rent"], "nothing was pushed")
            return
        }
        try child.save()
        let expected: (name: String, completed: Bool) = switch policy {
        case .rollback: ("Milk (parent)", true)
        case .mergeByPropertyObjectTrump: ("Milk (child)", true)
        case .mergeByPropertyStoreTrump: ("Milk (parent)", true)
        default: ("Milk (child)", false)   // overwrite: the child's object whole
        }
        #expect(parentMilk.string("name") == expected.name)
        #expect(parentMilk.bool("completed") == expected.completed)
        #expect(try Self.item("Rent (child)", in: parent).objectID == rent.objectID, "the change without a conflict went up")
    }

    @Test("a child's change to an object the parent deleted is dropped under a merge policy, and a conflict under .error")
    func deletedInParent() throws {
        let (_, parent) = try Self.stack(.sqlite)
        let child = ManagedObjectContext(parent: parent)
        let milk = try Self.item("Milk", in: child)
        #expect(milk.string("name") == "Milk", "read in the child")
        parent.delete(try Self.item("Milk", in: parent))
        milk["name"] = "Oat milk"
        let conflict = try #require(throws: MergeConflictError.self) { try child.save() }
        #expect(conflict.conflicts.first?.persisted == nil, "deleted: nothing left in the parent")
        child.mergePolicy = .mergeByPropertyObjectTrump
        try child.save()
        #expect(try Self.names(parent) == ["Rent"], "the deletion stands")
        // A new fetch in the child no longer finds it.
        #expect(try Self.names(child) == ["Rent"])
    }

    @Test("each context has its own undo: the child's edits undo in the child, and its push undoes in the parent")
    func undoPerContext() throws {
        let (_, parent) = try Self.stack(.sqlite)
        parent.undoManager = UndoStack()
        let child = ManagedObjectContext(parent: parent)
        child.undoManager = UndoStack()
        let milk = try Self.item("Milk", in: child)
        milk["name"] = "Oat milk"
        child.processPendingChanges()
        milk["name"] = "Soy milk"
        child.undo()
        #expect(milk.string("name") == "Oat milk")
        try child.insertObject(forEntityName: "ToDo")["name"] = "Bread"
        try child.save()
        #expect(try Self.names(parent) == ["Bread", "Oat milk", "Rent"])
        parent.undo()
        #expect(try Self.names(parent) == ["Milk", "Rent"], "the whole push is one step in the parent")
        #expect(!parent.hasChanges)
    }

    @Test("obtainPermanentIDs hands out keys that the save keeps and no other save takes", arguments: [StoreType.sqlite, .xml])
    func permanentIDsBeforeSave(type: StoreType) throws {
        let (coordinator, context) = try Self.stack(type)
        let bread = try context.insertObject(forEntityName: "ToDo")
        bread["name"] = "Bread"
        try context.obtainPermanentIDs(for: [bread])
        let id = bread.objectID
        #expect(!id.isTemporaryID)
        #expect(context.registeredObject(for: id) === bread)
        #expect(bread.isInserted)
        // Another context saves first: its object gets another key.
        let other = ManagedObjectContext(coordinator: coordinator)
        let apples = try other.insertObject(forEntityName: "ToDo")
        apples["name"] = "Apples"
        try other.save()
        #expect(apples.objectID != id)
        try context.save()
        #expect(bread.objectID == id)
        #expect(try ManagedObjectContext(coordinator: coordinator).existingObject(with: id).string("name") == "Bread")
        #expect(try Self.stored(coordinator) == ["Apples", "Bread", "Milk", "Rent"])
    }

    @Test("a child that merges from its parent sees a sibling's push and the parent's save without fetching again")
    func automaticMergeFromParent() throws {
        let (_, parent) = try Self.stack(.sqlite)
        let editor = ManagedObjectContext(parent: parent)
        let viewer = ManagedObjectContext(parent: parent)
        viewer.automaticallyMergesChangesFromParent = true
        let quiet = ManagedObjectContext(parent: parent)
        let seen = try Self.item("Milk", in: viewer)
        let unseen = try Self.item("Milk", in: quiet)
        #expect(seen.string("name") == "Milk" && unseen.string("name") == "Milk")
        var inserted: [String] = []
        let observation = viewer.observe { note in
            if case .objectsDidChange(let changes) = note { inserted += changes.inserted.compactMap { $0.string("name") } }
        }
        defer { observation.cancel() }

        try Self.item("Milk", in: editor)["name"] = "Oat milk"
        try editor.insertObject(forEntityName: "ToDo")["name"] = "Bread"
        try editor.save()
        #expect(seen.string("name") == "Oat milk")
        #expect(inserted == ["Bread"])
        #expect(unseen.string("name") == "Milk", "a child that does not merge keeps what it read")

        // The parent's own unsaved insert, read by the viewer, keeps its identity after the parent saves.
        try parent.insertObject(forEntityName: "ToDo")["name"] = "Tea"
        let tea = try Self.item("Tea", in: viewer)
        #expect(tea.objectID.isTemporaryID)
        try parent.save()
        #expect(!tea.objectID.isTemporaryID, "renamed to its permanent ID")
        #expect(viewer.registeredObject(for: tea.objectID) === tea)
        #expect(try Self.names(viewer) == ["Bread", "Oat milk", "Rent", "Tea"])
    }

    @Test("a child on a private queue reads and saves through a parent on another queue")
    func privateQueueChild() async throws {
        let (coordinator, _) = try Self.stack(.sqlite)
        let parent = ManagedObjectContext(coordinator: coordinator, concurrencyType: .privateQueue)
        let child = ManagedObjectContext(parent: parent, concurrencyType: .privateQueue)
        let names = try await child.perform {
            try child.insertObject(forEntityName: "ToDo")["name"] = "Bread"
            try child.save()
            return try Self.names(child)
        }
        #expect(names == ["Bread", "Milk", "Rent"])
        #expect(try await parent.perform { parent.insertedObjects.count } == 1)
        try await parent.perform { try parent.save() }
        #expect(try Self.stored(coordinator) == ["Bread", "Milk", "Rent"])
    }

    @Test("a context without a parent that merges automatically brings in other contexts' saves on its queue")
    func automaticMergeFromCoordinator() async throws {
        let (coordinator, _) = try Self.stack(.sqlite)
        let viewer = ManagedObjectContext(coordinator: coordinator, concurrencyType: .privateQueue)
        viewer.automaticallyMergesChangesFromParent = true
        let milk = try await viewer.perform {
            let object = try Self.item("Milk", in: viewer)
            // Held by the viewer, as a table holds the objects it shows.
            viewer.observe { _ in withExtendedLifetime(object) {} }
            return object.objectID
        }
        try await container(coordinator) { writer in
            try Self.item("Milk", in: writer)["name"] = "Oat milk"
            try writer.save()
        }
        // The merge was queued behind the save; the next block on the viewer's queue sees it.
        let name = await viewer.perform { viewer.registeredObject(for: milk)?.string("name") }
        #expect(name == "Oat milk")
    }

    private func container(_ coordinator: PersistentStoreCoordinator,
                           _ body: @escaping @Sendable (ManagedObjectContext) throws -> Void) async throws {
        let writer = ManagedObjectContext(coordinator: coordinator, concurrencyType: .privateQueue)
        try await writer.perform { try body(writer) }
    }
}
