import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import Bindings
import TestSupport

@Suite("Fetched results controller")
struct FetchedResultsControllerTests {
    static func stack(items: Int) throws -> TestStack {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        for i in 0..<items {
            let item = try stack.context.insertObject(forEntityName: "ToDo")
            item["name"] = .string(String(format: "item %05d", i))
            item["completed"] = .bool(i % 3 == 0)
        }
        try stack.context.save()
        return stack
    }

    @Test("count and a window in the middle come from the store, a window at a time")
    func windows() throws {
        let stack = try Self.stack(items: 2_000)
        let reader = stack.newContext()
        let request = FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")])
        let results = FetchedResultsController(fetchRequest: request, context: reader)
        results.windowSize = 50
        try results.performFetch()
        #expect(results.count == 2_000)
        let middle = try results.objects(in: 1_000..<1_040)
        #expect(middle.first?.string("name") == "item 01000")
        #expect(middle.last?.string("name") == "item 01039")
        #expect(try results.index(of: middle[7]) == 1_007)
        // Objects outside the windows read are never loaded.
        let far = reader.registeredObjects.filter { !$0.isFault }
        #expect(far.count <= 50)
    }

    @Test("the index of an object outside the loaded windows is found by counting in the store")
    func indexByCounting() throws {
        let stack = try Self.stack(items: 500)
        let request = FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name", ascending: false)])
        let results = FetchedResultsController(fetchRequest: request, context: stack.context)
        try results.performFetch()
        let target = try #require(try stack.context.fetch(FetchRequest(entityName: "ToDo", predicate: try ObjectPredicate(format: "name == 'item 00123'"))).first)
        #expect(try results.index(of: target) == 499 - 123)
    }

    @Test("sections group by the first sort key")
    func sections() throws {
        let stack = try Self.stack(items: 30)
        let request = FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "completed"), ObjectSortDescriptor(key: "name")])
        let results = FetchedResultsController(fetchRequest: request, context: stack.context, sectionNameKeyPath: "completed")
        try results.performFetch()
        #expect(results.sections == [.init(name: "0", offset: 0, numberOfObjects: 20), .init(name: "1", offset: 20, numberOfObjects: 10)])
        let bad = FetchedResultsController(fetchRequest: FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")]),
                                           context: stack.context, sectionNameKeyPath: "completed")
        #expect(throws: ControllerError.firstSortMustBeSectionKey("completed")) { try bad.performFetch() }
    }

    @Test("changes in the context recount and tell observers to reload")
    func followsContext() throws {
        let stack = try Self.stack(items: 10)
        let results = FetchedResultsController(fetchRequest: FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")]),
                                               context: stack.context)
        try results.performFetch()
        var reloads = 0
        let o = results.observe { if $0.reloaded { reloads += 1 } }
        defer { o.cancel() }
        try stack.context.insertObject(forEntityName: "ToDo")
        stack.context.processPendingChanges()
        #expect(results.count == 11)
        #expect(reloads == 1)
    }

    @Test("after a save, an inserted object shown in a window is the saved object, under its permanent ID")
    func insertedThenSaved() throws {
        let stack = try Self.stack(items: 3)
        let results = FetchedResultsController(fetchRequest: FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")]),
                                               context: stack.context)
        try results.performFetch()
        let added = try stack.context.insertObject(forEntityName: "ToDo")
        added["name"] = .string("item 99999")
        stack.context.processPendingChanges()
        #expect(try results.object(at: 3) === added)
        var reloads = 0
        let o = results.observe { if $0.reloaded { reloads += 1 } }
        defer { o.cancel() }
        try stack.context.save()
        #expect(reloads == 1)
        let shown = try results.object(at: 3)
        #expect(shown === added, "the window holds the saved object, not a new fault under its old temporary ID")
        #expect(!shown.objectID.isTemporaryID)
        #expect(shown.string("name") == "item 99999")
        try shown.setValue(true, forKey: "completed")
    }

    @Test("a lazily fetching array controller keeps only windows in memory and sorts in the store")
    func lazyArrayController() throws {
        let stack = try Self.stack(items: 1_000)
        let reader = stack.newContext()
        let c = try ArrayController(context: reader, entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")],
                                    usesLazyFetching: true)
        #expect(c.arrangedCount == 1_000)
        #expect(c.arrangedObject(at: 500)?.string("name") == "item 00500")
        c.setSelectionIndex(500)
        let selected = try #require(c.selectedObjects.first)
        c.sortDescriptors = [ObjectSortDescriptor(key: "name", ascending: false)]
        #expect(c.arrangedObject(at: 0)?.string("name") == "item 00999")
        #expect(c.selectedObjects.first === selected, "the selection follows the object through the re-sort")
        #expect(c.selectionIndexes == [499])
        c.filterPredicate = try ObjectPredicate(format: "completed == YES")
        #expect(c.arrangedCount == 334)
    }

    @Test("with lazy fetching, an edit that moves the selected object in the sort keeps it selected")
    func selectionFollowsAnEdit() throws {
        let stack = try Self.stack(items: 50)
        let c = try ArrayController(context: stack.context, entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")],
                                    usesLazyFetching: true)
        c.automaticallyRearrangesObjects = true
        #expect(c.setSelectionIndex(0))
        let edited = try #require(c.selectedObjects.first)
        edited["name"] = "zz last"
        stack.context.processPendingChanges()
        #expect(c.selectedObjects.first === edited, "the selection follows the object, not the row")
        #expect(c.selectionIndexes == [49])
    }
}
