import Foundation
import ObjectGraph
import ObjectModel
import Predicates
import Testing

/// The same company filled into any store: departments, employees with accented and
/// lower-case names, a missing date, a missing department, many-to-many projects and notes.
public enum CompanyFixture {
    public static let employees = ["Ada", "Bob", "Cécile", "dave", "Émile"]

    public static func fill(_ context: ManagedObjectContext) throws {
        func insert(_ entity: String, _ values: [String: ObjectValue]) throws -> ManagedObject {
            let o = try context.insertObject(forEntityName: entity)
            for (k, v) in values { o[k] = v }
            return o
        }
        let engineering = try insert("Department", ["name": "Engineering", "budget": .decimal(1000.5)])
        let sales = try insert("Department", ["name": "Sales"])
        func date(_ s: Double) -> ObjectValue { .date(Date(timeIntervalSinceReferenceDate: s)) }
        let ada = try insert("Employee", ["name": "Ada", "salary": 120000, "hired": date(1000), "department": .object(engineering)])
        let bob = try insert("Employee", ["name": "Bob", "salary": 50000, "department": .object(sales)])
        _ = try insert("Employee", ["name": "Cécile", "salary": 80000, "hired": date(2000), "department": .object(engineering)])
        let dave = try insert("Employee", ["name": "dave", "salary": 0, "hired": date(3000)])
        _ = try insert("Employee", ["name": "Émile", "salary": 65000, "hired": date(500), "department": .object(sales)])
        let compiler = try insert("Project", ["name": "Compiler", "department": .object(engineering)])
        let database = try insert("Project", ["name": "Database", "department": .object(engineering)])
        compiler["members"] = .set([.object(ada), .object(dave)])
        database["members"] = .set([.object(ada), .object(bob)])
        _ = try insert("Note", ["text": "likes SQL", "author": .object(ada)])
        _ = try insert("Note", ["text": "on call", "author": .object(ada)])
        _ = try insert("Note", ["text": "new", "author": .object(bob)])
        try context.save()
    }

    /// A badge for the employee of the fixture named `name`, saved: what a Cascade takes a
    /// level further than the employee (department → employees → badge).
    @discardableResult
    public static func addBadge(for name: String, in context: ManagedObjectContext) throws -> ManagedObject {
        guard let holder = try context.object(forEntityName: "Employee", matchingKey: "name", value: name) else {
            preconditionFailure("the fixture has no employee \(name)")
        }
        let badge = try context.insertObject(forEntityName: "Badge")
        badge["holder"] = .object(holder)
        badge["code"] = "AB123"
        try context.save()
        return badge
    }

    /// The fixture with a badge for Bob and two tags, saved: a sound store for the store
    /// check, with a one-to-one, a many-to-many, a count rule and a uniqueness constraint.
    public static func fillForCheck(_ context: ManagedObjectContext) throws {
        try fill(context)
        try addBadge(for: "Bob", in: context)
        for label in ["red", "blue"] { try context.insertObject(forEntityName: "Tag")["label"] = .string(label) }
        try context.save()
    }

    /// One case of the shared table: a predicate and the employees it matches.
    public struct Case: Sendable, CustomTestStringConvertible {
        public var format: String
        public var expected: [String]
        public var testDescription: String { format }

        public init(format: String, expected: [String]) {
            self.format = format
            self.expected = expected
        }
    }

    /// Predicates whose results the in-memory and the SQLite evaluation must agree on.
    public static let cases: [Case] = [
        Case(format: "salary > 60000", expected: ["Ada", "Cécile", "Émile"]),
        Case(format: "salary BETWEEN {50000, 80000}", expected: ["Bob", "Cécile", "Émile"]),
        Case(format: "salary IN {0, 50000}", expected: ["Bob", "dave"]),
        Case(format: "salary != 0", expected: ["Ada", "Bob", "Cécile", "Émile"]),
        Case(format: "name == 'Ada'", expected: ["Ada"]),
        Case(format: "name != 'Ada'", expected: ["Bob", "Cécile", "dave", "Émile"]),
        Case(format: "name ==[c] 'ADA'", expected: ["Ada"]),
        Case(format: "name ==[cd] 'cecile'", expected: ["Cécile"]),
        Case(format: "name ==[c] 'cecile'", expected: []),
        Case(format: "name < 'C'", expected: ["Ada", "Bob"]),
        Case(format: "name <[c] 'c'", expected: ["Ada", "Bob"]),
        Case(format: "name BEGINSWITH 'C'", expected: ["Cécile"]),
        Case(format: "name BEGINSWITH 'c'", expected: []),
        Case(format: "name BEGINSWITH[cd] 'e'", expected: ["Émile"]),
        Case(format: "name ENDSWITH 'e'", expected: ["Cécile", "dave", "Émile"]),
        Case(format: "name CONTAINS[c] 'D'", expected: ["Ada", "dave"]),
        Case(format: "name CONTAINS 'é'", expected: ["Cécile"]),
        // A string IN a string: the same substring test with the sides swapped.
        Case(format: "'ci' IN name", expected: ["Cécile"]),
        Case(format: "'D' IN[c] name", expected: ["Ada", "dave"]),
        Case(format: "name LIKE 'B?b'", expected: ["Bob"]),
        Case(format: "name LIKE[c] '*E'", expected: ["Cécile", "dave", "Émile"]),
        Case(format: "name LIKE[cd] 'c*'", expected: ["Cécile"]),
        Case(format: "name MATCHES '[A-Z].*'", expected: ["Ada", "Bob", "Cécile"]),
        Case(format: "name MATCHES[c] '[a-d].*'", expected: ["Ada", "Bob", "Cécile", "dave"]),
        Case(format: "name IN {'Ada', 'Bob', 'Zed'}", expected: ["Ada", "Bob"]),
        Case(format: "name IN[c] {'ada', 'BOB'}", expected: ["Ada", "Bob"]),
        Case(format: "name == 5", expected: []),
        Case(format: "salary == 'Ada'", expected: []),
        Case(format: "hired == nil", expected: ["Bob"]),
        Case(format: "hired != nil", expected: ["Ada", "Cécile", "dave", "Émile"]),
        Case(format: "hired > CAST(900, 'NSDate')", expected: ["Ada", "Cécile", "dave"]),
        Case(format: "hired < CAST(900, 'NSDate')", expected: ["Émile"]),
        Case(format: "department.name == 'Sales'", expected: ["Bob", "Émile"]),
        Case(format: "department == nil", expected: ["dave"]),
        Case(format: "department != nil", expected: ["Ada", "Bob", "Cécile", "Émile"]),
        Case(format: "department.budget > 100", expected: ["Ada", "Cécile"]),
        Case(format: "department.budget == nil", expected: ["Bob", "dave", "Émile"]),
        Case(format: "NOT (department.name == 'Sales')", expected: ["Ada", "Cécile", "dave"]),
        Case(format: "NOT (hired > CAST(900, 'NSDate'))", expected: ["Bob", "Émile"]),
        Case(format: "ANY projects.name == 'Compiler'", expected: ["Ada", "dave"]),
        Case(format: "ANY projects.name BEGINSWITH[c] 'd'", expected: ["Ada", "Bob"]),
        Case(format: "ALL projects.name == 'Database'", expected: ["Bob", "Cécile", "Émile"]),
        Case(format: "NONE projects.name == 'Database'", expected: ["Cécile", "dave", "Émile"]),
        Case(format: "projects.@count == 0", expected: ["Cécile", "Émile"]),
        // A to-many key path CONTAINS a value: some member's key equals it.
        Case(format: "projects.name CONTAINS 'Compiler'", expected: ["Ada", "dave"]),
        Case(format: "projects.name CONTAINS[c] 'database'", expected: ["Ada", "Bob"]),
        Case(format: "NOT (projects.name CONTAINS 'Database')", expected: ["Cécile", "dave", "Émile"]),
        Case(format: "projects.@max.name == 'Database'", expected: ["Ada", "Bob"]),
        Case(format: "projects.@min.name == 'Compiler'", expected: ["Ada", "dave"]),
        Case(format: "projects.@min.name == nil", expected: ["Cécile", "Émile"]),
        Case(format: "notes.@max.text BEGINSWITH 'o'", expected: ["Ada"]),
        Case(format: "projects.@count >= 2", expected: ["Ada"]),
        Case(format: "notes.@count >= 1", expected: ["Ada", "Bob"]),
        Case(format: "ANY notes.text CONTAINS 'SQL'", expected: ["Ada"]),
        Case(format: "ANY projects.department.name == 'Engineering'", expected: ["Ada", "Bob", "dave"]),
        // Through two to-many steps: the quantifier ranges over the members' members.
        Case(format: "ANY projects.members.name == 'Bob'", expected: ["Ada", "Bob"]),
        Case(format: "ALL projects.members.salary > 10000", expected: ["Bob", "Cécile", "Émile"]),
        Case(format: "NONE projects.members.name == 'dave'", expected: ["Bob", "Cécile", "Émile"]),
        Case(format: "ANY department.projects.members.salary > 60", expected: ["Ada", "Cécile"]),
        // A key path or SELF on the right is the employee's, not the member's.
        Case(format: "ANY projects.members.salary > salary", expected: ["Bob", "dave"]),
        Case(format: "ANY notes.author == SELF", expected: ["Ada", "Bob"]),
        Case(format: "ANY projects.department != department", expected: ["Bob", "dave"]),
        // SUBQUERY(...).@count, with key paths of the member ($p) and of the employee.
        Case(format: "SUBQUERY(projects, $p, $p.name BEGINSWITH 'D').@count > 0", expected: ["Ada", "Bob"]),
        Case(format: "SUBQUERY(projects, $p, ANY $p.members.salary > salary).@count > 0", expected: ["Bob", "dave"]),
        Case(format: "SUBQUERY(projects, $p, $p.department == department).@count == 2", expected: ["Ada"]),
        Case(format: "SUBQUERY(notes, $n, $n.text CONTAINS 'SQL' OR $n.text == 'new').@count BETWEEN {1, 1}", expected: ["Ada", "Bob"]),
        Case(format: "SUBQUERY(projects, $p, SUBQUERY($p.members, $m, $m.salary == 0).@count > 0).@count == 1", expected: ["Ada", "dave"]),
        Case(format: "SUBQUERY(projects, $p, $p.members.@count < 2).@count == 0", expected: ["Ada", "Bob", "Cécile", "dave", "Émile"]),
        Case(format: "salary > 60000 AND department.name == 'Engineering'", expected: ["Ada", "Cécile"]),
        Case(format: "salary < 1 OR name == 'Bob'", expected: ["Bob", "dave"]),
        Case(format: "NOT (salary < 1 OR name == 'Bob')", expected: ["Ada", "Cécile", "Émile"]),
        Case(format: "TRUEPREDICATE", expected: ["Ada", "Bob", "Cécile", "dave", "Émile"]),
        Case(format: "FALSEPREDICATE", expected: []),
        Case(format: "60000 < salary", expected: ["Ada", "Cécile", "Émile"]),
    ]

    /// Arithmetic over the fixture's employees (salaries, departments' decimal budgets, nil),
    /// for the tables that check a store's SQL against memory.
    public static let arithmeticFormats = [
        "salary * 2 > 150000", "salary + 1000 == 51000", "salary - 5000 < 50000", "-salary < -60000", "2 * salary >= 160000",
        "salary / 2 > 30000", "salary / 3 > 26666.5", "salary / 3 == 40000", "modulus:by:(salary, 7) == 3",
        "modulus:by:(salary, 7) != 3", "salary * 1.5 > 90000", "salary * 2 == salary + salary", "salary + salary > 100000",
        "salary > salary / 2 + 30000", "salary * 9223372036854775807 > 0", "salary * 9223372036854775807 == 0",
        "(salary + 1) * (salary - 1) > 1e9", "department.budget * 2 > 1000", "department.budget + 0.5 == 1001",
        "department.budget + 1 == nil", "department.budget - salary < 0", "NOT (department.budget * 2 > 1000)",
        "department.budget / 2 > 500", "salary + nil == nil", "NOT (salary + 1 > 60000)",
        "notes.@count * 2 >= 2", "projects.@count + notes.@count > 1", "department.employees.@count - 1 > 0",
        "department.employees.@sum.salary / 2 > 100000", "department.employees.@avg.salary + 1 > 60000",
    ]
}
