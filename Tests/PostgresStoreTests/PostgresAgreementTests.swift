import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import PostgresStore
import TestSupport

/// The shared table of predicates, evaluated in memory and in PostgreSQL's SQL.
@Suite("In-memory and PostgreSQL evaluation agree")
struct PostgresAgreementTests {
    /// One company store for the whole suite: the cases only read it.
    static let company: Result<PostgresTestStack, any Error> = Result {
        let stack = try PostgresTestStack(model: try ModelFixtures.companyModel())
        try CompanyFixture.fill(stack.context)
        return stack
    }

    static func stacks() throws -> (memory: ManagedObjectContext, postgres: ManagedObjectContext) {
        let memory = try TestStack(model: try ModelFixtures.companyModel())
        try CompanyFixture.fill(memory.context)
        // A fresh context: the store answers, not pending changes.
        return (memory.newContext(), try company.get().newContext())
    }

    func names(_ context: ManagedObjectContext, _ request: FetchRequest<ManagedObject>) throws -> [String] {
        try context.fetch(request).compactMap { $0.string("name") }
    }

    @Test("predicates match the same employees", arguments: CompanyFixture.cases)
    func predicate(_ c: CompanyFixture.Case) throws {
        let (memory, postgres) = try Self.stacks()
        let request = FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: c.format))
        #expect(try names(memory, request).sorted() == c.expected.sorted(), "in memory")
        #expect(try names(postgres, request).sorted() == c.expected.sorted(), "in SQL")
    }

    @Test("arithmetic runs in SQL and matches as in memory: integers, overflow, division, decimals and nil",
          arguments: CompanyFixture.arithmeticFormats)
    func arithmetic(_ format: String) throws {
        let (memory, postgres) = try Self.stacks()
        let request = FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: format))
        let expected = try names(memory, request).sorted()
        #expect(try names(postgres, request).sorted() == expected, "\(format): memory has \(expected)")
    }

    @Test("value counts by ranges (a CASE per value, grouped in SQL) agree with memory: numbers, decimals through a relationship, dates")
    func valueRanges() throws {
        let (memory, postgres) = try Self.stacks()
        let cases: [(String, ValueBucketing, AttributeType)] = [
            ("salary", .width(30_000), .integer32), ("department.budget", .width(500), .decimal), ("hired", .period(.day), .date),
        ]
        for (keyPath, bucketing, type) in cases {
            func counts(_ context: ManagedObjectContext) throws -> [ValueCounts.Entry] {
                try ValueCounts(keyPath: keyPath, entityName: "Employee", predicate: nil, bucketing: bucketing, type: type, in: context).entries
            }
            let expected = try counts(memory)
            #expect(expected.count > 1)
            #expect(try counts(postgres) == expected, "\(keyPath) by \(bucketing)")
        }
    }

    @Test("text tests on accents, case, ß, the dotted I, wildcards and patterns agree", arguments: [
        "name ==[c] 'STRASSE'", "name ==[cd] 'strasse'", "name BEGINSWITH[cd] 'ı'", "name CONTAINS[c] 'İ'",
        "name LIKE '*%*'", "name LIKE '?_?'", "name LIKE[cd] 'e*'", "name CONTAINS '\\\\'",
        "name ENDSWITH[d] 'e'", "name MATCHES '.*\\\\d.*'", "name MATCHES[c] 'é.*'", "name MATCHES[cd] 'E.*'",
        "name MATCHES '\\\\w+'", "name MATCHES 'a\\\\b.*'", "name ==[c] ''", "name BEGINSWITH ''",
    ])
    func text(_ format: String) throws {
        let names = ["Straße", "STRASSE", "ıstanbul", "İzmir", "50%", "a_b", "é", "Ève", "back\\slash", "Zoë", "a 1", "a", "", "Émile", "x\ny"]
        let memory = try TestStack(model: try ModelFixtures.companyModel())
        let postgres = try PostgresTestStack(model: try ModelFixtures.companyModel())
        for context in [memory.context, postgres.context] {
            for name in names { try context.insertObject(forEntityName: "Employee")["name"] = .string(name) }
            try context.save()
        }
        let request = FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: format))
        let expected = try self.names(memory.newContext(), request).sorted()
        #expect(try self.names(postgres.newContext(), request).sorted() == expected)
    }

    @Test("MATCHES patterns PostgreSQL reads otherwise are refused, naming the construct", arguments: [
        ("name MATCHES '\\\\p{L}+'", "\\p"), ("name MATCHES 'a*+'", "possessive"), ("name MATCHES '(?<n>a)'", "(?<"),
        ("name MATCHES '[a-z&&[^e]]'", "set"),
    ])
    func untranslatable(_ format: String, _ named: String) throws {
        let (_, postgres) = try Self.stacks()
        let request = FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: format))
        let error = #expect(throws: PostgresStoreError.self) { try postgres.fetch(request) }
        #expect(error?.description.contains(named) == true, "\(error.map { "\($0)" } ?? "")")
    }

    @Test("@sum, @avg, @min and @max of a number over a to-many relationship", arguments: [
        ("employees.@sum.salary > 100000", ["Engineering", "Sales"]),
        ("employees.@avg.salary == 57500", ["Sales"]),
        ("employees.@min.salary < 60000", ["Sales"]),
        ("employees.@max.hired > CAST(1500, 'NSDate')", ["Engineering"]),
    ])
    func aggregates(_ format: String, _ expected: [String]) throws {
        let (memory, postgres) = try Self.stacks()
        let request = FetchRequest(entityName: "Department", predicate: try ObjectPredicate(format: format))
        #expect(try names(memory, request).sorted() == expected, "in memory")
        #expect(try names(postgres, request).sorted() == expected, "in SQL")
    }

    @Test("sorts, limits, offsets, counts and grouped dictionaries run in SQL with memory's results")
    func resultsAndGroups() throws {
        let (memory, postgres) = try Self.stacks()
        var sorted = FetchRequest(entityName: "Employee", sortDescriptors: [
            ObjectSortDescriptor(key: "name", ascending: false, comparison: .caseInsensitiveCompare)])
        sorted.fetchOffset = 1
        sorted.fetchLimit = 3
        #expect(try names(postgres, sorted) == names(memory, sorted))
        let count = FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: "salary > 10"))
        #expect(try postgres.count(for: count) == 4)
        var grouped = FetchRequest(entityName: "Employee", resultType: .dictionaries)
        grouped.propertiesToFetch = [.key("department.name"),
                                     .expression(ExpressionDescription(name: "total", expression: try ObjectExpression(format: "sum:(salary)"),
                                                                       resultType: .integer64))]
        grouped.propertiesToGroupBy = [.key("department.name")]
        grouped.sortDescriptors = [ObjectSortDescriptor(key: "department.name")]
        let rows = try postgres.fetchDictionaries(grouped)
        #expect(rows.map { "\($0["department.name"]?.stringValue ?? "-") \($0["total"]?.intValue ?? -1)" } == ["- 0", "Engineering 200000", "Sales 115000"])
    }
}
