import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

@Suite("The fetch utilities on a SQLite store")
struct FetchUtilityTests {
    func context() throws -> ManagedObjectContext {
        let stack = try SQLiteTestStack(model: try ModelFixtures.companyModel())
        try CompanyFixture.fill(stack.context)
        return try stack.reopened().context
    }

    func names(_ objects: FetchedObjects) -> [String] { objects.compactMap { $0.string("name") }.sorted() }

    @Test("all objects of an entity")
    func all() throws {
        let c = try context()
        #expect(names(try c.objects(forEntityName: "Employee")) == CompanyFixture.employees.sorted())
    }

    @Test("the objects matching one key and value")
    func byKey() throws {
        let c = try context()
        let sales = try #require(try c.object(forEntityName: "Department", matchingKey: "name", value: "Sales"))
        #expect(names(try c.objects(forEntityName: "Employee", matchingKey: "department", value: sales)) == ["Bob", "Émile"])
        #expect(try c.objects(forEntityName: "Employee", matchingKey: "salary", value: 1).isEmpty)
    }

    @Test("exactly one object: the object, nil when none, an error when more than one")
    func exactlyOne() throws {
        let c = try context()
        #expect(try c.object(forEntityName: "Employee", matchingKey: "name", value: "Ada")?.int("salary") == 120000)
        #expect(try c.object(forEntityName: "Employee", matchingKey: "name", value: "Zed") == nil)
        #expect(throws: FetchUtilityError.moreThanOneObject(entity: "Project", key: "department", count: 2)) {
            let engineering = try #require(try c.object(forEntityName: "Department", matchingKey: "name", value: "Engineering"))
            _ = try c.object(forEntityName: "Project", matchingKey: "department", value: engineering)
        }
    }

    @Test("keys and values joined by AND or by OR")
    func keysAndValues() throws {
        let c = try context()
        #expect(names(try c.objects(forEntityName: "Employee", matchingKeysAndValues: ["name": "Bob", "salary": 50000])) == ["Bob"])
        #expect(names(try c.objects(forEntityName: "Employee", matchingKeysAndValues: ["name": "Bob", "salary": 0])) == [])
        #expect(names(try c.objects(forEntityName: "Employee", matchingKeysAndValues: ["name": "Bob", "salary": 0], usingOR: true)) == ["Bob", "dave"])
    }

    @Test("failures are thrown errors: unknown entity, unknown key")
    func failures() throws {
        let c = try context()
        #expect(throws: ObjectGraphError.unknownEntity("Nope")) { try c.objects(forEntityName: "Nope") }
        #expect(throws: FetchUtilityError.unknownKey(entity: "Employee", key: "age")) {
            try c.objects(forEntityName: "Employee", matchingKey: "age", value: 3)
        }
    }
}
