import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
@testable import SQLiteStore
import TestSupport

@Suite("Fetch requests against a SQLite store")
struct FetchingTests {
    func stacks() throws -> (memory: ManagedObjectContext, sqlite: ManagedObjectContext) {
        try PredicateAgreementTests.stacks()
    }

    func expression(_ name: String, _ format: String, _ type: AttributeType) throws -> FetchProperty {
        .expression(ExpressionDescription(name: name, expression: try ObjectExpression(format: format), resultType: type))
    }

    @Test("count and object-ID results")
    func countAndIDs() throws {
        let (_, context) = try stacks()
        let request = FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: "salary > 60000"))
        #expect(try context.count(for: request) == 3)
        let ids = try context.fetchObjectIDs(request)
        #expect(ids.count == 3)
        #expect(ids.allSatisfy { !$0.isTemporaryID && $0.entityName == "Employee" })
        var limited = request
        limited.fetchLimit = 2
        #expect(try context.count(for: limited) == 2)
    }

    @Test("the minimum date through an expression description, as in the programming guide")
    func minimumDate() throws {
        let (memory, sqlite) = try stacks()
        var request = FetchRequest(entityName: "Employee", resultType: .dictionaries)
        request.propertiesToFetch = [try expression("minDate", "min:(hired)", .date), try expression("maxSalary", "max:(salary)", .decimal)]
        for context in [memory, sqlite] {
            let rows = try context.fetchDictionaries(request)
            #expect(rows.count == 1)
            #expect(rows.first?["minDate"] == .date(Date(timeIntervalSinceReferenceDate: 500)))
            #expect(rows.first?["maxSalary"] == .int(120000))
        }
    }

    @Test("sum, average and count per group, with a having predicate, agree with memory")
    func grouping() throws {
        let (memory, sqlite) = try stacks()
        var request = FetchRequest(entityName: "Employee", sortDescriptors: [ObjectSortDescriptor(key: "department.name")],
                                   resultType: .dictionaries)
        request.propertiesToFetch = [.key("department.name"), try expression("total", "sum:(salary)", .integer64),
                                     try expression("people", "count:(salary)", .integer64),
                                     try expression("mean", "average:(salary)", .double)]
        request.propertiesToGroupBy = [.key("department.name")]
        let expected: [[String: ObjectValue]] = [
            ["department.name": .null, "total": 0, "people": 1, "mean": 0.0],
            ["department.name": "Engineering", "total": 200000, "people": 2, "mean": 100000.0],
            ["department.name": "Sales", "total": 115000, "people": 2, "mean": 57500.0],
        ]
        #expect(try memory.fetchDictionaries(request) == expected)
        #expect(try sqlite.fetchDictionaries(request) == expected)
        request.havingPredicate = try ObjectPredicate(format: "total > 100000")
        #expect(try memory.fetchDictionaries(request) == Array(expected.dropFirst()))
        #expect(try sqlite.fetchDictionaries(request) == Array(expected.dropFirst()))
    }

    @Test("groups without a sort come in the order of their first row, as in memory")
    func groupOrder() throws {
        let (memory, sqlite) = try stacks()
        var request = FetchRequest(entityName: "Employee", resultType: .dictionaries)
        request.propertiesToFetch = [.key("department.name"), try expression("people", "count:(name)", .integer64)]
        request.propertiesToGroupBy = [.key("department.name")]
        let expected: [[String: ObjectValue]] = [
            ["department.name": "Engineering", "people": 2], ["department.name": "Sales", "people": 2],
            ["department.name": .null, "people": 1],
        ]
        #expect(try memory.fetchDictionaries(request) == expected)
        #expect(try sqlite.fetchDictionaries(request) == expected)
    }

    @Test("dictionaries of attributes and to-one IDs; distinct results drop duplicates")
    func dictionaries() throws {
        let (memory, sqlite) = try stacks()
        var request = FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: "department != nil"),
                                   sortDescriptors: [ObjectSortDescriptor(key: "department.name")], resultType: .dictionaries)
        request.propertiesToFetch = [.key("department.name")]
        request.returnsDistinctResults = true
        for context in [memory, sqlite] {
            #expect(try context.fetchDictionaries(request) == [["department.name": "Engineering"], ["department.name": "Sales"]])
        }
        var ids = FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: "name == 'Bob'"), resultType: .dictionaries)
        ids.propertiesToFetch = [.key("name"), .key("department")]
        let row = try #require(try sqlite.fetchDictionaries(ids).first)
        #expect(row["name"] == "Bob")
        guard case .object(let id as ManagedObjectID) = row["department"] else { Issue.record("no object ID"); return }
        #expect(try sqlite.existingObject(with: id).string("name") == "Sales")
        let departments = FetchRequest(entityName: "Department", sortDescriptors: [ObjectSortDescriptor(key: "name")])
        let expected: [[String: ObjectValue]] = [["name": "Engineering", "budget": .decimal(Decimal(string: "1000.5")!)],
                                                 ["name": "Sales", "budget": .null]]
        #expect(try memory.fetchDictionaries(departments) == expected)
        #expect(try sqlite.fetchDictionaries(departments) == expected)
    }

    @Test("pending inserts, changes and deletes show in the results")
    func pendingChanges() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.toDoModel())
        try ToDoFixture.fill(stack.context)
        let context = stack.newContext()
        let added = try context.insertObject(forEntityName: "ToDo")
        added["name"] = "Buy bread"
        let call = try #require(try context.object(forEntityName: "ToDo", matchingKey: "name", value: "Call mom"))
        call["name"] = "Phone mom"
        let milk = try #require(try context.object(forEntityName: "ToDo", matchingKey: "name", value: "Buy milk"))
        context.delete(milk)
        let request = FetchRequest(entityName: "ToDo", predicate: try ObjectPredicate(format: "name BEGINSWITH 'B' OR name BEGINSWITH 'P'"),
                                   sortDescriptors: [ObjectSortDescriptor(key: "name")])
        #expect(try context.fetch(request).compactMap { $0.string("name") } == ["Buy bread", "Phone mom"])
        #expect(try context.count(for: request) == 2)
        var storeOnly = request
        storeOnly.includesPendingChanges = false
        #expect(try context.fetch(storeOnly).map(\.objectID) == [milk.objectID])
    }

    @Test("objects come back as faults; values load on first access; to-many relationships load lazily")
    func faults() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.toDoModel())
        try ToDoFixture.fill(stack.context)
        let context = stack.newContext()
        let categories = try context.fetch(FetchRequest(entityName: "Category"))
        let home = try #require(categories.first)
        #expect(home.isFault)
        #expect(home.string("name") == "Home")
        #expect(!home.isFault)
        #expect(home.hasFaultForRelationship(named: "todos"))
        #expect(home.objects("todos").count == 3)
        #expect(!home.hasFaultForRelationship(named: "todos"))
        var loaded = FetchRequest(entityName: "ToDo")
        loaded.returnsObjectsAsFaults = false
        #expect(try stack.newContext().fetch(loaded).allSatisfy { !$0.isFault })
    }

    @Test("with a batch size, the first fault of a batch loads that batch and no other")
    func batches() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.toDoModel())
        for i in 0..<25 {
            let item = try stack.context.insertObject(forEntityName: "ToDo")
            item["name"] = .string(String(format: "item %02d", i))
        }
        try stack.context.save()
        let context = stack.newContext()
        let request = FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")], fetchBatchSize: 10)
        let items = try context.fetch(request)
        #expect(items.count == 25)
        #expect(items.filter { !$0.isFault }.isEmpty)
        #expect(items[12].string("name") == "item 12")
        #expect(items.map(\.isFault) == Array(repeating: true, count: 10) + Array(repeating: false, count: 10) + Array(repeating: true, count: 5))
        #expect(items[24].string("name") == "item 24")
        #expect(items[20..<25].allSatisfy { !$0.isFault })
    }

    @Test("prefetching loads the related objects with the results")
    func prefetching() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.toDoModel())
        try ToDoFixture.fill(stack.context)
        let context = stack.newContext()
        let request = FetchRequest(entityName: "Category", relationshipKeyPathsForPrefetching: ["todos"])
        let home = try #require(try context.fetch(request).first)
        #expect(!home.isFault)
        #expect(!home.hasFaultForRelationship(named: "todos"))
        let todos = home.objects("todos")
        #expect(todos.count == 3)
        #expect(todos.allSatisfy { !$0.isFault })
    }

    @Test("sub-entities are included by default and can be left out")
    func subentities() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.employeeModel())
        for (entity, first) in [("Employee", "Ada"), ("Contractor", "Cy"), ("Employee", "Bo")] {
            let p = try stack.context.insertObject(forEntityName: entity)
            p["firstName"] = .string(first)
            p["lastName"] = "X"
            if entity == "Employee" { p["salary"] = 1 }
        }
        try stack.context.save()
        let reader = try stack.reopened().context
        let people = try reader.fetch(FetchRequest(entityName: "Person", sortDescriptors: [ObjectSortDescriptor(key: "firstName")]))
        #expect(people.map { "\($0.entity.name):\($0.string("firstName")!)" } == ["Employee:Ada", "Employee:Bo", "Contractor:Cy"])
        var onlyPeople = FetchRequest(entityName: "Person")
        onlyPeople.includesSubentities = false
        #expect(try reader.count(for: onlyPeople) == 0)
        #expect(try reader.count(for: FetchRequest(entityName: "Employee")) == 2)
    }
}

@Suite("Row requests a fetch makes")
struct RowRequestTests {
    func counting() throws -> (CountingStore, ManagedObjectContext) {
        let stack = try SQLiteTestStack(model: try ModelFixtures.toDoModel())
        for c in 0..<3 {
            let category = try stack.context.insertObject(forEntityName: "Category")
            category["name"] = .string("c\(c)")
            for i in 0..<4 {
                let item = try stack.context.insertObject(forEntityName: "ToDo")
                item["name"] = .string("c\(c) item \(i)")
                item["category"] = .object(category)
            }
        }
        try stack.context.save()
        stack.store.close()
        let model = stack.model
        let coordinator = PersistentStoreCoordinator(model: model)
        let store = CountingStore(try SQLiteStore(model: model, url: stack.url))
        try coordinator.addStore(store)
        return (store, ManagedObjectContext(coordinator: coordinator))
    }

    @Test("prefetching loads each level of the key path with one batch request")
    func prefetching() throws {
        let (store, context) = try counting()
        let request = FetchRequest(entityName: "Category", relationshipKeyPathsForPrefetching: ["todos"])
        let categories = try context.fetch(request)
        #expect(categories.count == 3)
        #expect(store.batchRequests == [3, 12])
        #expect(store.singleRowRequests == 0)
        #expect(categories.flatMap { $0.objects("todos") }.filter(\.isFault).isEmpty)
    }

    @Test("a batch size loads each batch with one request when its first fault fires")
    func batches() throws {
        let (store, context) = try counting()
        let items = try context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")], fetchBatchSize: 5))
        #expect(store.batchRequests.isEmpty)
        _ = items[6].string("name")
        _ = items[7].string("name")
        #expect(store.batchRequests == [5])
        _ = items[11].string("name")
        #expect(store.batchRequests == [5, 2])
        #expect(store.singleRowRequests == 0)
    }

    @Test("each context keeps its own batches: loading one context's batch leaves another's to load on its own")
    func batchesPerContext() throws {
        let (store, first) = try counting()
        let second = ManagedObjectContext(coordinator: first.coordinator)
        let request = FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")], fetchBatchSize: 4)
        let firstItems = try first.fetch(request)
        let secondItems = try second.fetch(request)
        _ = secondItems[1].string("name")
        #expect(store.batchRequests == [4])
        #expect(firstItems[0..<4].allSatisfy { $0.isFault }, "the other context's objects are untouched")
        _ = firstItems[2].string("name")
        #expect(store.batchRequests == [4, 4])
        #expect(firstItems[0..<4].allSatisfy { !$0.isFault })
        #expect(secondItems[4..<8].allSatisfy { $0.isFault })
        #expect(store.singleRowRequests == 0)
    }
}

@Suite("Counting with an index range")
struct IndexRangeCountTests {
    /// The statements a store runs, as SQLite traces them.
    final class StatementLog: @unchecked Sendable {
        private let lock = NSLock()
        private var statements: [String] = []
        func append(_ sql: String) { lock.lock(); statements.append(sql); lock.unlock() }
        func take() -> [String] { lock.lock(); defer { statements = []; lock.unlock() }; return statements }
    }

    @Test("a range matching much of the table is counted by reading the table in order, a narrow one through the index; both exactly")
    func ranges() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.toDoModel())
        for i in 0..<4_000 {
            let item = try stack.context.insertObject(forEntityName: "ToDo")
            item["name"] = .string("item \(i)")
            item["dueDate"] = .date(Date(timeIntervalSinceReferenceDate: Double(i)))
            item["completed"] = .bool(i % 3 == 0)
        }
        try stack.context.save()
        let log = StatementLog()
        stack.store.traceStatements { log.append($0) }
        defer { stack.store.traceStatements(nil) }
        func count(_ format: String, _ seconds: Double) throws -> Int {
            let predicate = try ObjectPredicate(format: format, argumentArray: [.date(Date(timeIntervalSinceReferenceDate: seconds))])
            return try stack.newContext().count(for: FetchRequest(entityName: "ToDo", predicate: predicate))
        }
        func expected(from start: Int, _ keep: (Int) -> Bool) -> Int { (start..<4_000).filter(keep).count }

        // Both terms need the row; dueDate is indexed.
        _ = log.take()
        #expect(try count("completed == NO AND dueDate > %@", 100) == expected(from: 101) { $0 % 3 != 0 })
        #expect(log.take().contains { $0.contains("NOT INDEXED") }, "two thirds of the table: read in order")
        #expect(try count("completed == NO AND dueDate > %@", 3_990) == expected(from: 3_991) { $0 % 3 != 0 })
        #expect(!log.take().contains { $0.contains("NOT INDEXED") }, "ten rows: through the index")
        #expect(try count("name != 'none' AND dueDate >= %@", 3_000) == 1_000, "exactly as many as the first count may stop at")
        #expect(try count("completed == YES AND dueDate >= %@", 0) == expected(from: 0) { $0 % 3 == 0 })
    }

    @Test("a fetch that reads every row of a wide range reads the table in order; a narrow one, or one that stops early in the index's order, uses the index")
    func fetches() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.toDoModel())
        for i in 0..<4_000 {
            let item = try stack.context.insertObject(forEntityName: "ToDo")
            item["name"] = .string(String(format: "item %04d", 3_999 - i))
            item["dueDate"] = .date(Date(timeIntervalSinceReferenceDate: Double(i)))
            item["completed"] = .bool(i % 3 == 0)
        }
        try stack.context.save()
        let log = StatementLog()
        stack.store.traceStatements { log.append($0) }
        defer { stack.store.traceStatements(nil) }
        func request(after seconds: Double, sort key: String, limit: Int = 0) throws -> FetchRequest<ManagedObject> {
            let predicate = try ObjectPredicate(format: "completed == NO AND dueDate > %@",
                                                argumentArray: [.date(Date(timeIntervalSinceReferenceDate: seconds))])
            return FetchRequest(entityName: "ToDo", predicate: predicate,
                                sortDescriptors: [ObjectSortDescriptor(key: key, ascending: true)], fetchLimit: limit)
        }
        func names(_ request: FetchRequest<ManagedObject>) throws -> [String] {
            let context = stack.newContext()
            return try withExtendedLifetime(context) { try context.fetch(request).map { $0.string("name") ?? "" } }
        }
        // Names run opposite to due dates, so sorting by name reverses the due order.
        func expected(after start: Int, limit: Int = .max) -> [String] {
            Array((start + 1..<4_000).filter { $0 % 3 != 0 }.map { String(format: "item %04d", 3_999 - $0) }.sorted().prefix(limit))
        }
        let scanned = { log.take().contains { $0.contains("NOT INDEXED") } }

        _ = log.take()
        #expect(try names(request(after: 100, sort: "name")) == expected(after: 100))
        #expect(scanned(), "two thirds of the table, sorted by another key: read in order")
        #expect(try names(request(after: 100, sort: "name", limit: 5)) == expected(after: 100, limit: 5))
        #expect(scanned(), "a limit after a sort still reads every match")
        #expect(try names(request(after: 3_990, sort: "name")) == expected(after: 3_990))
        #expect(!scanned(), "six rows: through the index")
        #expect(try names(request(after: 100, sort: "dueDate", limit: 5)).count == 5)
        #expect(!scanned(), "in the index's order with a limit: stops after five")

        var dictionaries = try request(after: 100, sort: "name")
        dictionaries.resultType = .dictionaries
        dictionaries.propertiesToFetch = [.key("name")]
        #expect(try stack.newContext().fetchDictionaries(dictionaries).compactMap { $0["name"]?.stringValue } == expected(after: 100))
        #expect(scanned(), "dictionaries are guarded too")
    }
}

@Suite("Counting a to-many relationship")
struct RelationshipCountTests {
    @Test("a to-many fault is counted in the store, with unsaved inserts, moves and deletions counted in, and stays a fault")
    func countWithoutLoading() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.toDoModel())
        let home = try stack.context.insertObject(forEntityName: "Category")
        home["name"] = "Home"
        let work = try stack.context.insertObject(forEntityName: "Category")
        work["name"] = "Work"
        for i in 0..<5 {
            let item = try stack.context.insertObject(forEntityName: "ToDo")
            item["name"] = .string("item \(i)")
            try item.setValue(i < 4 ? home : work, forKey: "category")
        }
        try stack.context.save()

        let context = stack.newContext()
        let categories = try context.fetch(FetchRequest(entityName: "Category", sortDescriptors: [ObjectSortDescriptor(key: "name")]))
        let (myHome, myWork) = (categories[0], categories[1])
        #expect(try context.count(ofRelationship: "todos", of: myHome) == 4)
        #expect(myHome.hasFaultForRelationship(named: "todos"), "counting did not load the members")

        let added = try context.insertObject(forEntityName: "ToDo")
        added["name"] = "item 5"
        try added.setValue(myHome, forKey: "category")
        #expect(try context.count(ofRelationship: "todos", of: myHome) == 5)
        _ = myHome.string("name")                             // the category's own fault fires; the new member stays
        #expect(try context.count(ofRelationship: "todos", of: myHome) == 5)
        let items = try context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")]))
        try items[0].setValue(myWork, forKey: "category")     // moved away from Home
        context.delete(items[1])                              // a Home item deleted
        try items[4].setValue(myHome, forKey: "category")     // moved from Work to Home
        context.processPendingChanges()
        #expect(try context.count(ofRelationship: "todos", of: myHome) == 4 + 1 - 1 - 1 + 1)
        #expect(try context.count(ofRelationship: "todos", of: myWork) == 1 + 1 - 1)
        #expect(myHome.hasFaultForRelationship(named: "todos"))
        // Loading the members agrees.
        #expect(myHome.objects("todos").count == 4)
        #expect(try context.count(ofRelationship: "todos", of: myHome) == 4)
        #expect(throws: KeyValueError.self) { try context.count(ofRelationship: "name", of: myHome) }
    }
}

extension RelationshipCountTests {
    @Test("counts through the inverse are each category's own when many rows match (the range guard's path)")
    func manyRows() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.toDoModel())
        let categories = try (0..<3).map { i in
            let c = try stack.context.insertObject(forEntityName: "Category")
            c["name"] = .string("c\(i)")
            return c
        }
        for i in 0..<3_001 {
            let item = try stack.context.insertObject(forEntityName: "ToDo")
            try item.setValue(categories[i % 3], forKey: "category")
        }
        try stack.context.save()
        let context = stack.newContext()
        let fetched = try context.fetch(FetchRequest(entityName: "Category", sortDescriptors: [ObjectSortDescriptor(key: "name")]))
        #expect(try fetched.map { try context.count(ofRelationship: "todos", of: $0) } == [1_001, 1_000, 1_000])
        let byPredicate = try fetched.map { c in
            try context.count(for: FetchRequest(entityName: "ToDo", predicate: .comparison(ComparisonPredicate(.keyPath("category"), .equalTo, .constant(.object(c))))))
        }
        #expect(byPredicate == [1_001, 1_000, 1_000])
    }
}
