import Foundation
import GRDB
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

@Suite("Saving to a SQLite store")
struct SavingTests {
    @Test("saved objects read back in another coordinator with their values and relationships")
    func roundTrip() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.toDoModel())
        try ToDoFixture.fill(stack.context)
        let other = try stack.reopened()
        let items = try other.context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "dueDate")]))
        #expect(items.map { $0.string("name")! } == ToDoFixture.names)
        #expect(items.map { $0.bool("completed")! } == [true, false, true, false, true])
        #expect(items[2].date("dueDate") == Date(timeIntervalSinceReferenceDate: 7200))
        #expect(items[0].object("category")?.string("name") == "Home")
        #expect(items[4].object("category") == nil)
        let home = try #require(items[0].object("category"))
        #expect(Set(home.objects("todos").map { $0.string("name")! }) == Set(ToDoFixture.names.prefix(3)))
    }

    @Test("text with a NUL character in it reads back whole, as objects and as dictionaries")
    func textWithNUL() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.toDoModel())
        let name = "before\u{0}after é"
        let item = try stack.context.insertObject(forEntityName: "ToDo")
        item["name"] = .string(name)
        try stack.context.save()
        let other = try stack.reopened()
        let fetched = try other.context.fetch(FetchRequest(entityName: "ToDo"))
        #expect(fetched.first?.string("name") == name)
        let rows = try other.context.fetchDictionaries(FetchRequest(entityName: "ToDo", propertiesToFetch: [.key("name")]))
        #expect(rows.first?["name"] == .string(name))
    }

    @Test("rows are stored as Core Data stores them: Z_ENT, Z_OPT 1, dates in seconds since 2001, booleans 0/1")
    func rawLayout() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.toDoModel())
        try ToDoFixture.fill(stack.context)
        let rows = try stack.rawRows("SELECT Z_PK, Z_ENT, Z_OPT, ZNAME, ZDUEDATE, ZCOMPLETED, ZCATEGORY FROM ZTODO ORDER BY Z_PK")
        #expect(rows.count == 5)
        #expect(rows[1][1] as Int == 2)
        #expect(rows[1][2] as Int == 1)
        #expect(rows[1][3] as String == "Buy milk")
        #expect(rows[1][4] as Double == 3600)
        #expect(rows[1][5] as Int == 0)
        #expect(rows[1][6] as Int == 1)
        #expect(rows[4][6] as Int? == nil)
        #expect(try stack.rawRows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'ToDo'")[0][0] as Int == 5)
        #expect(try stack.rawRows("PRAGMA journal_mode")[0][0] as String == "wal")
    }

    @Test("an update raises Z_OPT by one; a delete removes the row and its join-table rows")
    func updateAndDelete() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.companyModel())
        try CompanyFixture.fill(stack.context)
        let ada = try #require(try stack.context.object(forEntityName: "Employee", matchingKey: "name", value: "Ada"))
        ada["salary"] = 130000
        try stack.context.save()
        #expect(try stack.rawRows("SELECT Z_OPT, ZSALARY FROM ZEMPLOYEE WHERE ZNAME = 'Ada'").map { "\($0[0] as Int) \($0[1] as Int)" } == ["2 130000"])
        #expect(try stack.rawRows("SELECT COUNT(*) FROM Z_3PROJECTS")[0][0] as Int == 4)
        stack.context.delete(ada)
        try stack.context.save()
        #expect(try stack.rawRows("SELECT COUNT(*) FROM ZEMPLOYEE WHERE ZNAME = 'Ada'")[0][0] as Int == 0)
        #expect(try stack.rawRows("SELECT COUNT(*) FROM Z_3PROJECTS")[0][0] as Int == 2)
        let other = try stack.reopened()
        let compiler = try #require(try other.context.object(forEntityName: "Project", matchingKey: "name", value: "Compiler"))
        #expect(compiler.objects("members").map { $0.string("name")! } == ["dave"])
    }

    @Test("many-to-many changes from either side read back from the other")
    func manyToMany() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.companyModel())
        try CompanyFixture.fill(stack.context)
        let c = stack.newContext()
        let emile = try #require(try c.object(forEntityName: "Employee", matchingKey: "name", value: "Émile"))
        let compiler = try #require(try c.object(forEntityName: "Project", matchingKey: "name", value: "Compiler"))
        try emile.setValue(ObjectValue.set([.object(compiler)]), forKey: "projects")
        try c.save()
        let other = try stack.reopened().context
        let again = try #require(try other.object(forEntityName: "Project", matchingKey: "name", value: "Compiler"))
        #expect(Set(again.objects("members").map { $0.string("name")! }) == ["Ada", "dave", "Émile"])
    }

    @Test("a save that fails leaves the store as it was")
    func atomicSave() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.toDoModel())
        try ToDoFixture.fill(stack.context)
        let other = try stack.reopened()
        let item = try #require(try other.context.object(forEntityName: "ToDo", matchingKey: "name", value: "Buy milk"))
        item["name"] = "Buy oat milk"
        let added = try other.context.insertObject(forEntityName: "ToDo")
        added["name"] = "new one"
        // Someone else changes the same row first: the whole save is refused.
        let mine = try #require(try stack.context.object(forEntityName: "ToDo", matchingKey: "name", value: "Buy milk"))
        mine["completed"] = true
        try stack.context.save()
        #expect(throws: MergeConflictError.self) { try other.context.save() }
        #expect(try stack.rawRows("SELECT COUNT(*) FROM ZTODO")[0][0] as Int == 5)
        #expect(try stack.rawRows("SELECT ZNAME FROM ZTODO WHERE Z_PK = 2")[0][0] as String == "Buy milk")
    }

    @Test("an in-memory SQLite store (no file) works as well")
    func memoryDatabase() throws {
        SQLiteStore.register()
        let coordinator = PersistentStoreCoordinator(model: try ModelFixtures.toDoModel())
        try coordinator.addStore(type: .sqlite)
        let context = ManagedObjectContext(coordinator: coordinator)
        try ToDoFixture.fill(context)
        #expect(try ManagedObjectContext(coordinator: coordinator).count(for: FetchRequest(entityName: "ToDo")) == 5)
    }
}
