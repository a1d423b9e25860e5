import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import TestSupport

@Suite("Fetching from atomic stores")
struct FetchingTests {
    @Test("a fetch of an abstract super-entity returns its sub-entities' instances")
    func abstractSuperEntity() throws {
        let stack = try TestStack(model: try ModelFixtures.employeeModel())
        let context = stack.context
        for (entity, first) in [("Employee", "Ada"), ("Contractor", "Cy"), ("Employee", "Bo")] {
            let p = try context.insertObject(forEntityName: entity)
            p["firstName"] = .string(first)
            p["lastName"] = "X"
            if entity == "Employee" { p["salary"] = 1 }
        }
        try context.save()
        let reader = stack.newContext()
        let people = try reader.fetch(FetchRequest(entityName: "Person", sortDescriptors: [ObjectSortDescriptor(key: "firstName")]))
        #expect(people.map { "\($0.entity.name):\($0.string("firstName")!)" } == ["Employee:Ada", "Employee:Bo", "Contractor:Cy"])
        var onlyPeople = FetchRequest(entityName: "Person")
        onlyPeople.includesSubentities = false
        #expect(try context.count(for: onlyPeople) == 0)
        #expect(try context.count(for: FetchRequest(entityName: "Employee")) == 2)
    }

    func toDoStack() throws -> TestStack {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let home = try stack.context.insertObject(forEntityName: "Category")
        home["name"] = "Home"
        for (i, name) in ["water plants", "Buy milk", "answer mail", "Call mom", "book flights"].enumerated() {
            let item = try stack.context.insertObject(forEntityName: "ToDo")
            item["name"] = .string(name)
            item["dueDate"] = .date(Date(timeIntervalSinceReferenceDate: Double(i) * 3600))
            item["completed"] = .bool(i % 2 == 0)
            if i < 3 { item["category"] = .object(home) }
        }
        try stack.context.save()
        return stack
    }

    @Test("predicate, sort, offset and limit", arguments: [
        ("completed == NO", ["Buy milk", "Call mom"]),
        ("name BEGINSWITH[c] 'b'", ["Buy milk", "book flights"]),
        ("category.name == 'Home'", ["water plants", "Buy milk", "answer mail"]),
        ("category == nil", ["Call mom", "book flights"]),
    ])
    func predicates(format: String, expected: [String]) throws {
        let stack = try toDoStack()
        let request = FetchRequest(entityName: "ToDo", predicate: try ObjectPredicate(format: format),
                                   sortDescriptors: [ObjectSortDescriptor(key: "dueDate")])
        let reader = stack.newContext()
        #expect(try reader.fetch(request).compactMap { $0.string("name") } == expected)
    }

    @Test("offset and limit apply after sorting")
    func window() throws {
        let stack = try toDoStack()
        var request = FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name", comparison: .caseInsensitiveCompare)])
        request.fetchOffset = 1
        request.fetchLimit = 2
        let reader = stack.newContext()
        #expect(try reader.fetch(request).compactMap { $0.string("name") } == ["book flights", "Buy milk"])
    }

    @Test("fetched objects are faults until touched, unless asked otherwise")
    func faults() throws {
        let stack = try toDoStack()
        let context = stack.newContext()
        let faults = try context.fetch(FetchRequest(entityName: "ToDo"))
        #expect(faults.allSatisfy { $0.isFault })
        var request = FetchRequest(entityName: "ToDo")
        request.returnsObjectsAsFaults = false
        let loaded = stack.newContext()
        #expect(try loaded.fetch(request).allSatisfy { !$0.isFault })
    }

    @Test("unsaved inserts, changes and deletes show in the results")
    func pendingChanges() throws {
        let stack = try toDoStack()
        let context = stack.context
        let request = FetchRequest(entityName: "ToDo", predicate: try ObjectPredicate(format: "completed == NO"),
                                   sortDescriptors: [ObjectSortDescriptor(key: "name")])
        let milk = try context.fetch(request).first { $0.string("name") == "Buy milk" }!
        milk["completed"] = true
        let fresh = try context.insertObject(forEntityName: "ToDo")
        fresh["name"] = "Add tests"
        let mom = try context.fetch(request).first { $0.string("name") == "Call mom" }!
        context.delete(mom)
        #expect(try context.fetch(request).compactMap { $0.string("name") } == ["Add tests"])
        #expect(try context.count(for: request) == 1)
        var ignoring = request
        ignoring.includesPendingChanges = false
        #expect(try context.fetch(ignoring).compactMap { $0.string("name") } == ["Buy milk", "Call mom"])
    }

    @Test("the minimum date comes back as a dictionary, as in the guide's expression example")
    func expressionDescriptions() throws {
        let stack = try toDoStack()
        var request = FetchRequest(entityName: "ToDo")
        request.propertiesToFetch = [
            .expression(ExpressionDescription(name: "minDate", expression: try ObjectExpression(format: "min:(dueDate)"), resultType: .date)),
            .expression(ExpressionDescription(name: "maxDate", expression: try ObjectExpression(format: "max:(dueDate)"), resultType: .date)),
            .expression(ExpressionDescription(name: "n", expression: try ObjectExpression(format: "count:(name)"), resultType: .integer64)),
        ]
        let rows = try stack.context.fetchDictionaries(request)
        #expect(rows == [["minDate": .date(Date(timeIntervalSinceReferenceDate: 0)),
                          "maxDate": .date(Date(timeIntervalSinceReferenceDate: 4 * 3600)),
                          "n": 5]])
    }

    @Test("dictionaries group by a key, keep groups by a having predicate, and drop duplicates")
    func grouping() throws {
        let stack = try toDoStack()
        var request = FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "completed")])
        request.propertiesToFetch = [.key("completed"),
            .expression(ExpressionDescription(name: "count", expression: try ObjectExpression(format: "count:(name)"), resultType: .integer64))]
        request.propertiesToGroupBy = [.key("completed")]
        #expect(try stack.context.fetchDictionaries(request) == [["completed": false, "count": 2], ["completed": true, "count": 3]])
        request.havingPredicate = try ObjectPredicate(format: "count > 2")
        #expect(try stack.context.fetchDictionaries(request) == [["completed": true, "count": 3]])
        var distinct = FetchRequest(entityName: "ToDo", propertiesToFetch: [.key("completed")])
        distinct.returnsDistinctResults = true
        #expect(try stack.context.fetchDictionaries(distinct).count == 2)
    }

    @Test("a template's variables are filled in; a missing one is an error")
    func templates() throws {
        let stack = try TestStack(model: try ModelFixtures.companyModel())
        let e = try stack.context.insertObject(forEntityName: "Employee")
        e["name"] = "Ada"
        try stack.context.save()
        let request = try FetchRequest.fromTemplate(named: "EmployeesNamed", in: stack.model, variables: ["NAME": "Ada"])
        #expect(try stack.context.fetch(request) == [e])
        #expect(throws: (any Error).self) { try FetchRequest.fromTemplate(named: "EmployeesNamed", in: stack.model) }
    }

    @Test("SELF == object and SELF IN objects match by identity")
    func selfComparisons() throws {
        let stack = try toDoStack()
        let all = try stack.context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "dueDate")]))
        let one = try ObjectPredicate(format: "SELF == %@", all[1])
        #expect(try stack.context.fetch(FetchRequest(entityName: "ToDo", predicate: one)) == [all[1]])
        let some = try ObjectPredicate(format: "SELF IN %@", [all[0], all[2]].map { ObjectValue.object($0) })
        #expect(Set(try stack.context.fetch(FetchRequest(entityName: "ToDo", predicate: some))) == [all[0], all[2]])
        let byID = try ObjectPredicate(format: "SELF == %@", all[3].objectID)
        #expect(try stack.context.fetch(FetchRequest(entityName: "ToDo", predicate: byID)) == [all[3]])
    }

    @Test("a dictionary fetch gives a to-one relationship's value as its object's ID on every store, grouped or not")
    func dictionaryRelationshipsAreIDs() throws {
        for type in [StoreType.inMemory, .xml, .binary] {
            let url = type == .inMemory ? nil : try Fixtures.temporaryDirectory("dictionaries").appendingPathComponent("Company.\(type.rawValue)")
            let stack = try TestStack(model: try ModelFixtures.companyModel(), type: type, url: url)
            try CompanyFixture.fill(stack.context)
            let sales = try #require(try stack.context.object(forEntityName: "Department", matchingKey: "name", value: "Sales"))
            var request = FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: "name == 'Bob'"))
            request.resultType = .dictionaries
            request.propertiesToFetch = [.key("department")]
            let rows = try stack.context.fetchDictionaries(request)
            #expect(rows.first?["department"]?.objectReference as? ManagedObjectID == sales.objectID, "\(type): \(rows)")
            request.predicate = nil
            request.propertiesToGroupBy = [.key("department")]
            let groups = try stack.context.fetchDictionaries(request)
            let grouped: [ManagedObjectID] = groups.compactMap { $0["department"]?.objectReference as? ManagedObjectID }
            #expect(grouped.contains(sales.objectID), "\(type): \(groups)")
        }
    }
}
