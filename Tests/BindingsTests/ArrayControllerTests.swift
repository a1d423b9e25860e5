import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import Bindings
import TestSupport

@Suite("Array controller")
struct ArrayControllerTests {
    let stack: TestStack
    var context: ManagedObjectContext { stack.context }

    init() throws {
        stack = try TestStack(model: try ModelFixtures.toDoModel())
        for (i, name) in ["Milk", "Bread", "Eggs", "Apples"].enumerated() {
            let item = try stack.context.insertObject(forEntityName: "ToDo")
            item["name"] = .string(name)
            item["dueDate"] = .date(Date(timeIntervalSinceReferenceDate: Double(i * 100)))
        }
        try stack.context.save()
    }

    func names(_ controller: ArrayController) -> [String] {
        controller.arrangedObjects.compactMap { $0.string("name") }
    }

    @Test("Apple's defaults")
    func defaults() throws {
        let c = try ArrayController(context: context, entityName: "ToDo")
        #expect(c.avoidsEmptySelection)
        #expect(c.preservesSelection)
        #expect(c.selectsInsertedObjects)
        #expect(c.clearsFilterPredicateOnInsertion)
        #expect(!c.automaticallyRearrangesObjects)
    }

    @Test("objects that a merge names by ID alone (a large import elsewhere) join the content when they match")
    func largeMergeJoins() throws {
        let c = try ArrayController(context: context, entityName: "ToDo", fetchPredicate: try ObjectPredicate(format: "name BEGINSWITH 'Bulk'"))
        #expect(c.arrangedCount == 0)
        let background = stack.newContext()
        let count = ManagedObjectContext.mergedInsertsAnnouncedAsObjects + 1
        for i in 0..<count { try background.insertObject(forEntityName: "ToDo")["name"] = .string(i % 2 == 0 ? "Bulk \(i)" : "Other \(i)") }
        let received = LockedBox<ContextDidSave?>(nil)
        let token = stack.coordinator.observeSaves { save in received.value = save }
        defer { stack.coordinator.removeSaveObserver(token) }
        try background.save()
        context.mergeChanges(fromContextDidSave: try #require(received.value))
        #expect(c.arrangedCount == (count + 1) / 2, "the matching half")
        #expect(c.arrangedObjects.allSatisfy { $0.string("name")?.hasPrefix("Bulk") == true })
    }

    @Test("it fetches its content, sorts it, and selects the first row")
    func prepared() throws {
        let c = try ArrayController(context: context, entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")])
        #expect(names(c) == ["Apples", "Bread", "Eggs", "Milk"])
        #expect(c.selectionIndexes == [0])
        let filtered = try ArrayController(context: context, entityName: "ToDo",
                                           fetchPredicate: try ObjectPredicate(format: "name CONTAINS[c] 'e'"))
        #expect(Set(names(filtered)) == ["Bread", "Eggs", "Apples"])
    }

    @Test("the filter predicate arranges in memory; the sort keeps the selected object selected")
    func filterAndSort() throws {
        let c = try ArrayController(context: context, entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")])
        c.setSelectionIndex(2)   // Eggs
        c.sortDescriptors = [ObjectSortDescriptor(key: "name", ascending: false)]
        #expect(names(c) == ["Milk", "Eggs", "Bread", "Apples"])
        #expect(c.selectedObjects.first?.string("name") == "Eggs")
        c.filterPredicate = try ObjectPredicate(format: "name BEGINSWITH 'E' OR name BEGINSWITH 'M'")
        #expect(names(c) == ["Milk", "Eggs"])
        #expect(c.selectedObjects.first?.string("name") == "Eggs")
        c.filterPredicate = try ObjectPredicate(format: "name == 'Bread'")
        #expect(c.selectionIndexes == [0], "avoids an empty selection")
    }

    @Test("add inserts into the context, clears the filter, and selects the new object")
    func add() throws {
        let c = try ArrayController(context: context, entityName: "ToDo")
        c.filterPredicate = try ObjectPredicate(format: "name == 'Milk'")
        var seen: [ArrangedChanges] = []
        let o = c.observe { seen.append($0) }
        defer { o.cancel() }
        let new = try #require(try c.add())
        #expect(new.isInserted)
        #expect(c.filterPredicate == nil)
        #expect(c.arrangedCount == 5)
        #expect(c.selectedObjects == [new])
        #expect(seen.last?.selectionChanged == true)
        #expect(seen.last?.inserted == [4])
        #expect(c.canAdd && c.canInsert && c.canRemove)
    }

    @Test("removing the selection deletes the objects and selects a neighbour")
    func remove() throws {
        let c = try ArrayController(context: context, entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")])
        c.setSelectionIndex(3)   // Milk
        let milk = c.selectedObjects[0]
        try c.removeSelection()
        #expect(milk.isDeleted)
        #expect(names(c) == ["Apples", "Bread", "Eggs"])
        #expect(c.selectionIndexes == [2])
        c.isEditable = false
        #expect(!c.canRemove && !c.canAdd)
    }

    final class RefusingEditor: Editor {
        var refuse = true
        var commits = 0
        func commitEditing() -> Bool { commits += 1; return !refuse }
        func discardEditing() { refuse = false }
    }

    @Test("an editor that refuses to commit keeps the selection where it is")
    func refusingEditor() throws {
        let c = try ArrayController(context: context, entityName: "ToDo")
        let editor = RefusingEditor()
        c.registerEditor(editor)
        #expect(!c.setSelectionIndex(2))
        #expect(c.selectionIndexes == [0])
        #expect(editor.commits == 1)
        #expect(try c.add() == nil)
        c.discardEditing()
        #expect(c.setSelectionIndex(2))
        #expect(c.selectionIndexes == [2])
    }

    @Test("objects inserted, changed and deleted in the context appear, update and disappear")
    func followsContext() throws {
        let c = try ArrayController(context: context, entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")])
        var seen: [ArrangedChanges] = []
        let o = c.observe { seen.append($0) }
        defer { o.cancel() }

        let pears = try context.insertObject(forEntityName: "ToDo")
        pears["name"] = "Pears"
        context.processPendingChanges()
        #expect(names(c) == ["Apples", "Bread", "Eggs", "Milk", "Pears"])
        #expect(seen.last?.inserted == [4])

        c.arrangedObjects[1]["name"] = "Brioche"
        context.processPendingChanges()
        #expect(seen.last?.updated == [1])
        #expect(names(c)[1] == "Brioche")

        context.delete(c.arrangedObjects[0])
        context.processPendingChanges()
        #expect(names(c) == ["Brioche", "Eggs", "Milk", "Pears"])
        #expect(seen.last?.deleted == [0])
    }

    @Test("with automatic rearrangement a changed object moves to its sorted place")
    func moves() throws {
        let c = try ArrayController(context: context, entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")])
        c.automaticallyRearrangesObjects = true
        c.setSelectionIndex(0)
        var seen: [ArrangedChanges] = []
        let o = c.observe { seen.append($0) }
        defer { o.cancel() }
        c.arrangedObjects[0]["name"] = "Zucchini"
        context.processPendingChanges()
        #expect(names(c) == ["Bread", "Eggs", "Milk", "Zucchini"])
        #expect(seen.last?.moved == [ArrangedChanges.Move(from: 0, to: 3)])
        #expect(c.selectionIndexes == [3], "the selection follows the object")
    }

    @Test("a fetch predicate keeps out objects that stop matching")
    func stopsMatching() throws {
        let c = try ArrayController(context: context, entityName: "ToDo", fetchPredicate: try ObjectPredicate(format: "completed == NO"))
        #expect(c.arrangedCount == 4)
        c.arrangedObjects[0]["completed"] = true
        context.processPendingChanges()
        #expect(c.arrangedCount == 3)
    }

    @Test("objects saved by another context appear after the merge")
    func merge() throws {
        let c = try ArrayController(context: context, entityName: "ToDo")
        let other = stack.newContext()
        let item = try other.insertObject(forEntityName: "ToDo")
        item["name"] = "From elsewhere"
        let saved = LockedBox<ContextDidSave?>(nil)
        let token = stack.coordinator.observeSaves { saved.value = $0 }
        defer { stack.coordinator.removeSaveObserver(token) }
        try other.save()
        context.mergeChanges(fromContextDidSave: try #require(saved.value))
        #expect(names(c).contains("From elsewhere"))
    }

    @Test("a detail controller follows the master's selection and adds into its relationship")
    func masterDetail() throws {
        let home = try context.insertObject(forEntityName: "Category")
        home["name"] = "Home"
        let work = try context.insertObject(forEntityName: "Category")
        work["name"] = "Work"
        let items = try context.fetch(FetchRequest(entityName: "ToDo"))
        items[0]["category"] = .object(home)
        items[1]["category"] = .object(home)
        items[2]["category"] = .object(work)
        try context.save()
        let categories = try ArrayController(context: context, entityName: "Category", sortDescriptors: [ObjectSortDescriptor(key: "name")])
        let todos = try ArrayController(contentOf: categories, relationship: "todos")
        todos.sortDescriptors = [ObjectSortDescriptor(key: "name")]
        #expect(names(todos) == ["Bread", "Milk"])
        categories.setSelectionIndex(1)
        #expect(names(todos) == ["Eggs"])
        let new = try #require(try todos.add())
        #expect(new.object("category") === work)
        #expect(todos.arrangedCount == 2)
        // Taking an item out of the category does not delete it.
        todos.setSelectedObjects([new])
        try todos.removeSelection()
        #expect(!new.isDeleted && new.object("category") == nil)
        // A category deleted elsewhere empties the detail list.
        categories.setSelectionIndex(0)
        context.delete(home)
        context.processPendingChanges()
        #expect(categories.selectedObjects.first?.string("name") == "Work")
    }
}

@Suite("Array controller over a relationship, fetching lazily")
struct LazyRelationshipControllerTests {
    @Test("with readsOwnersElsewhere, a new owner empties the list at once and its objects come from a read elsewhere; a stale read is dropped")
    func ownersReadElsewhere() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let context = stack.context
        for name in ["Home", "Work", "Errands"] {
            let category = try context.insertObject(forEntityName: "Category")
            category["name"] = .string(name)
            for i in 0..<(name == "Home" ? 30 : 5) {
                let item = try context.insertObject(forEntityName: "ToDo")
                item["name"] = .string("\(name) \(i)")
                item["category"] = .object(category)
            }
        }
        try context.save()
        let categories = try ArrayController(context: context, entityName: "Category", sortDescriptors: [ObjectSortDescriptor(key: "name")])
        let items = try ArrayController(contentOf: categories, relationship: "todos", usesLazyFetching: true)
        items.sortDescriptors = [ObjectSortDescriptor(key: "name")]
        #expect(items.arrangedObject(at: 0)?.string("name") == "Errands 0")
        var handed: [ArrayController.Arrangement?] = []
        items.readsOwnersElsewhere = { handed.append($0) }
        let background = ManagedObjectContext(coordinator: stack.coordinator, concurrencyType: .privateQueue)
        func read(_ arrangement: ArrayController.Arrangement) throws -> ArrayController.ArrangedResults {
            try background.performAndWait { try arrangement.run(in: background) }
        }

        categories.setSelectionIndex(1)   // Home
        #expect(items.arrangedCount == 0, "nothing of Errands shows under Home")
        let home = try read(try #require(handed.last ?? nil))
        categories.setSelectionIndex(2)   // Work, before Home's objects are shown
        items.apply(home)
        #expect(items.arrangedCount == 0, "Home's objects are not Work's")
        items.apply(try read(try #require(handed.last ?? nil)))
        #expect(items.arrangedCount == 5)
        #expect(items.arrangedObject(at: 0)?.string("name") == "Work 0")
        #expect(items.selectedObjects.first?.string("name") == "Work 0")

        // A change after the read is folded in by the owner itself, not its ID.
        let added = try context.insertObject(forEntityName: "ToDo")
        added["name"] = "Work 9"
        added["category"] = .object(try #require(categories.selectedObjects.first))
        context.processPendingChanges()
        #expect(items.arrangedCount == 6, "the unsaved item joins Work's list")
        context.rollback()
        context.processPendingChanges()
        #expect(items.arrangedCount == 5)
        // A new category not saved yet is this context's alone: read here.
        let garden = try context.insertObject(forEntityName: "Category")
        garden["name"] = "Garden"
        context.processPendingChanges()
        categories.setSelectedObjects([garden])
        #expect(handed.count == 3 && handed.last! == nil)
        try context.save()
        let sown = try context.insertObject(forEntityName: "ToDo")
        sown["name"] = "Sow"
        sown["category"] = .object(garden)
        context.processPendingChanges()
        #expect(items.arrangedCount == 1, "the saved category's list still finds its items")
        try context.save()
        categories.setSelectionIndex(2)   // Home again, read elsewhere

        // With an unsaved item, only this context knows the answer: it reads here.
        try context.insertObject(forEntityName: "ToDo")["category"] = .object(try #require(categories.arrangedObjects.first))
        context.processPendingChanges()
        categories.setSelectionIndex(0)
        #expect(handed.count == 5 && handed.last! == nil, "the read elsewhere is called off")
        #expect(items.arrangedCount == 6, "Errands, with the unsaved item")
    }

    @Test("the detail list reads its owner's objects from the store through the inverse, and follows the selection")
    func lazyDetail() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let context = stack.context
        for name in ["Home", "Work"] {
            let category = try context.insertObject(forEntityName: "Category")
            category["name"] = .string(name)
            for i in 0..<(name == "Home" ? 30 : 5) {
                let item = try context.insertObject(forEntityName: "ToDo")
                item["name"] = .string("\(name) \(i)")
                item["category"] = .object(category)
            }
        }
        try context.save()
        let reader = stack.newContext()
        let categories = try ArrayController(context: reader, entityName: "Category", sortDescriptors: [ObjectSortDescriptor(key: "name")])
        let items = try ArrayController(contentOf: categories, relationship: "todos", usesLazyFetching: true)
        items.sortDescriptors = [ObjectSortDescriptor(key: "name")]
        #expect(items.arrangedCount == 30)
        #expect(items.arrangedObject(at: 0)?.string("name") == "Home 0")
        let home = try #require(categories.selectedObjects.first)
        #expect(home.hasFaultForRelationship(named: "todos"), "the relationship itself was never loaded")
        categories.setSelectionIndex(1)
        #expect(items.arrangedCount == 5)
        let added = try #require(try items.add())
        #expect(added.object("category")?.string("name") == "Work")
        #expect(items.arrangedCount == 6)
    }
}
