import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

/// One table of cases, evaluated in memory (an in-memory store) and in SQL (a SQLite store).
@Suite("In-memory and SQL evaluation agree")
struct PredicateAgreementTests {
    static func stacks() throws -> (memory: ManagedObjectContext, sqlite: ManagedObjectContext) {
        let model = try ModelFixtures.companyModel()
        let memory = try TestStack(model: model)
        try CompanyFixture.fill(memory.context)
        let sqlite = try SQLiteTestStack(model: model)
        try CompanyFixture.fill(sqlite.context)
        // Fresh contexts: the stores answer, not pending changes.
        return (memory.newContext(), try sqlite.reopened().context)
    }

    func names(_ context: ManagedObjectContext, _ request: FetchRequest<ManagedObject>) throws -> [String] {
        try context.fetch(request).compactMap { $0.string("name") }
    }

    @Test("predicates match the same employees", arguments: CompanyFixture.cases)
    func predicate(_ c: CompanyFixture.Case) throws {
        let (memory, sqlite) = try Self.stacks()
        let request = FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: c.format))
        #expect(try names(memory, request).sorted() == c.expected.sorted(), "in memory")
        #expect(try names(sqlite, request).sorted() == c.expected.sorted(), "in SQL")
    }

    @Test("@sum, @avg, @min and @max of a number over a to-many relationship", arguments: [
        ("employees.@sum.salary > 100000", ["Engineering", "Sales"]),
        ("employees.@sum.salary >= 200000", ["Engineering"]),
        ("employees.@avg.salary == 57500", ["Sales"]),
        ("employees.@avg.salary == nil", [String]()),
        ("employees.@min.salary < 60000", ["Sales"]),
        ("employees.@max.salary == 120000", ["Engineering"]),
        ("employees.@max.hired > CAST(1500, 'NSDate')", ["Engineering"]),
        ("projects.@count == 0 AND projects.@max.name == nil", ["Sales"]),
    ])
    func aggregates(_ format: String, _ expected: [String]) throws {
        let (memory, sqlite) = try Self.stacks()
        let request = FetchRequest(entityName: "Department", predicate: try ObjectPredicate(format: format))
        #expect(try names(memory, request).sorted() == expected, "in memory")
        #expect(try names(sqlite, request).sorted() == expected, "in SQL")
    }

    @Test("string operators see text after a NUL character, in SQL as in memory", arguments: [
        "name CONTAINS[c] 'AFTER'",
        "name CONTAINS 'after'",
        "name ENDSWITH[cd] 'R E'",
        "name ENDSWITH 'é'",
        "name LIKE[c] 'before*AFTER*'",
        "name MATCHES '.*after.*'",
        "name ==[c] 'BEFORE\\000AFTER É'",
        "name == 'before\\000after é'",
        "name IN {'before\\000after é', 'y'}",
    ])
    func textAfterNUL(_ format: String) throws {
        let model = try ModelFixtures.companyModel()
        let memory = try TestStack(model: model)
        let sqlite = try SQLiteTestStack(model: model)
        for context in [memory.context, sqlite.context] {
            for name in ["before\u{0}after é", "before", "x"] {
                try context.insertObject(forEntityName: "Employee").setValue(name, forKey: "name")
            }
            try context.save()
        }
        let request = FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: format))
        #expect(try names(memory.newContext(), request) == ["before\u{0}after é"], "in memory")
        #expect(try names(try sqlite.reopened().context, request) == ["before\u{0}after é"], "in SQL")
    }

    /// Names that tell SQLite's ASCII forms from the evaluator's Unicode ones: combining marks,
    /// ß, the Turkish dotted I, the Kelvin sign, wildcard characters, control characters.
    static let unicodeNames = [
        "Gamma ray", "GAMMA", "gam%ma", "gam_ma", "a_b", "x\u{301}yz", "straße", "STRASSE", "İstanbul", "istanbul",
        "\u{212A}elvin", "kelvin", "", "tab\there", "line\nbreak", "cr\r\nlf", "[bracket]*star?", "back\\slash",
        "Ünïcödé", "unicode", "café", "CAFE", "e\u{301}clair", "éclair",
        "aaab", "abcabd", "ab*cd", "ends\\", "del\u{7F}", "[@]",
    ]

    @Test("text tests agree on every kind of text: SQLite's ASCII forms where they are exact, the evaluator's elsewhere", arguments: [
        "text BEGINSWITH[c] 'gam'", "text BEGINSWITH 'gam'", "text BEGINSWITH[d] 'x'", "text BEGINSWITH[cd] 'E'",
        "text ENDSWITH[c] 'MA'", "text ENDSWITH 'ma'", "text ENDSWITH[c] 'ELVIN'", "text ENDSWITH[cd] 'CLAIR'",
        "text CONTAINS[c] '%'", "text CONTAINS '_'", "text CONTAINS[c] 'SS'", "text CONTAINS[c] 'i'", "text CONTAINS[cd] 'CAF'",
        "text CONTAINS[c] 'ab'", "text CONTAINS '\t'", "text CONTAINS[c] ''", "text BEGINSWITH ''",
        "text ==[c] 'gamma'", "text ==[cd] 'cafe'", "text !=[c] 'gamma'", "text ==[c] ''", "text ==[d] 'eclair'",
        "text ==[n] 'GAMMA'", "text BEGINSWITH[n] 'G'",
        "NOT (text BEGINSWITH[c] 'g')", "NOT (text ==[c] 'GAMMA')",
        "text LIKE[c] 'g*A'", "text LIKE 'gam?ma'", "text LIKE[c] '*\\\\*'", "text LIKE '[b*'", "text LIKE[c] '*\\**'",
        "text LIKE 'cr?lf'", "text BEGINSWITH[c] 'k'", "text LIKE[c] '?AMMA'", "text LIKE[cd] 'CAF?'", "text LIKE '*'", "text LIKE[c] 'x*'", "text LIKE[c] 'STRA*'",
        "text LIKE '*ab'", "text LIKE[c] 'A*B*'", "text LIKE 'ab\\\\*cd'", "text LIKE '*\\\\'", "text CONTAINS 'aab'",
        "text CONTAINS[c] 'ABD'", "text ENDSWITH[c] 'GAMMA RAY'", "text BEGINSWITH 'Gamma ray and more'", "text ==[c] '[`]'",
        "text BEGINSWITH[c] 'DEL'", "text ==[d] 'GAMMA'", "text LIKE[c] 'del?'", "text BEGINSWITH[cn] 'g'", "text LIKE[cn] 'G*'",
        "NOT (text LIKE[c] '*A*')", "NOT (text ENDSWITH 'b')", "NOT (text CONTAINS[cd] 'E')",
    ])
    func unicodeText(_ format: String) throws {
        let model = try ModelFixtures.companyModel()
        let memory = try TestStack(model: model)
        let sqlite = try SQLiteTestStack(model: model)
        for context in [memory.context, sqlite.context] {
            for name in Self.unicodeNames { try context.insertObject(forEntityName: "Note").setValue(name, forKey: "text") }
            _ = try context.insertObject(forEntityName: "Note")   // no text
            try context.save()
        }
        let request = FetchRequest(entityName: "Note", predicate: try ObjectPredicate(format: format))
        func matched(_ context: ManagedObjectContext) throws -> [String] {
            try context.fetch(request).map { $0.string("text") ?? "<nil>" }.sorted()
        }
        let inMemory = try matched(memory.newContext())
        #expect(try matched(try sqlite.reopened().context) == inMemory, "\(format): memory has \(inMemory)")
    }

    @Test("arithmetic runs in SQL and matches as in memory: integers, overflow, division, decimals and nil",
          arguments: CompanyFixture.arithmeticFormats)
    func arithmetic(_ format: String) throws {
        let (memory, sqlite) = try Self.stacks()
        let request = FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: format))
        let inMemory = try names(memory, request).sorted()
        #expect(try names(sqlite, request).sorted() == inMemory, "\(format): memory has \(inMemory)")
    }

    @Test("arithmetic with no exact SQL form is refused by name, not answered differently", arguments: [
        "salary / salary > 1", "modulus:by:(salary, 0) == 1", "modulus:by:(salary, 2.5) == 1", "salary / 0 > 1", "name + 1 == 2", "hired + 1 > 5",
    ])
    func arithmeticRefused(_ format: String) throws {
        let (_, sqlite) = try Self.stacks()
        let request = FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: format))
        #expect(throws: SQLiteStoreError.self) { try sqlite.fetch(request) }
    }

    @Test("key paths of different kinds compared with each other match alike", arguments: [
        "salary < name", "name > salary", "salary > hired", "hired <= salary",
        "salary == name", "salary != name", "hired == salary", "department.name > salary",
    ])
    func mixedKinds(_ format: String) throws {
        let (memory, sqlite) = try Self.stacks()
        let request = FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: format))
        #expect(try names(sqlite, request).sorted() == names(memory, request).sorted())
    }

    @Test("a decomposed é (e + U+0301): == and < compare literally on both paths, [c] and [d] fold to one text", arguments: [
        ("name == 'émile'", ["émile"]),
        ("name == 'e\u{301}mile'", ["e\u{301}mile"]),
        ("name ==[n] 'émile'", ["émile"]),
        ("name ==[c] 'ÉMILE'", ["émile", "e\u{301}mile"]),
        ("name ==[cd] 'EMILE'", ["émile", "e\u{301}mile"]),
        ("name < 'f'", ["e\u{301}mile"]),
        ("name BEGINSWITH[c] 'É'", ["émile", "e\u{301}mile"]),
    ])
    func decomposedText(_ format: String, _ expected: [String]) throws {
        let model = try ModelFixtures.companyModel()
        let memory = try TestStack(model: model)
        let sqlite = try SQLiteTestStack(model: model)
        for context in [memory.context, sqlite.context] {
            for name in ["émile", "e\u{301}mile"] {
                let e = try context.insertObject(forEntityName: "Employee")
                e["name"] = .string(name)
            }
            try context.save()
        }
        let request = FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: format))
        func scalars(_ names: [String]) -> [[UInt32]] { names.map { $0.unicodeScalars.map(\.value) }.sorted { $0.lexicographicallyPrecedes($1) } }
        #expect(scalars(try names(memory.newContext(), request)) == scalars(expected), "in memory")
        #expect(scalars(try names(try sqlite.reopened().context, request)) == scalars(expected), "in SQL")
    }

    @Test("a number IN a string is an error on both paths, not no match")
    func numberInString() throws {
        let (memory, sqlite) = try Self.stacks()
        let request = FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: "salary IN 'abc'"))
        #expect(throws: (any Error).self) { try memory.fetch(request) }
        let error = #expect(throws: SQLiteStoreError.self) { try sqlite.fetch(request) }
        #expect(error.map { "\($0)".contains("IN with a string needs a string") } == true)
        let names = FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: "name IN[c] 'xADAx'"))
        #expect(try self.names(memory, names) == ["Ada"])
        #expect(try self.names(sqlite, names) == ["Ada"])
    }

    @Test("a to-many key path ordered against a value without ANY, ALL or NONE is an error on both paths", arguments: [
        "projects.name > 'A'", "projects.name BETWEEN {'A', 'Z'}", "ANY projects.members.@count > 1",
    ])
    func orderingACollection(_ format: String) throws {
        let (memory, sqlite) = try Self.stacks()
        let request = FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: format))
        let inMemory = #expect(throws: (any Error).self) { try memory.fetch(request) }
        #expect(inMemory.map { "\($0)".contains("ANY, ALL or NONE") || "\($0)".contains("ANY") } == true, "\(String(describing: inMemory))")
        #expect(throws: (any Error).self) { try sqlite.fetch(request) }
    }

    @Test("large predicates that SQLite would refuse as written: 2,000 ORs, 190 NOTs, ANDs nested 150 deep")
    func largePredicates() throws {
        let (memory, sqlite) = try Self.stacks()
        let ors = (0..<2_000).map { "name == 'nobody \($0)'" }.joined(separator: " OR ") + " OR name == 'Ada'"
        let nots = String(repeating: "NOT ", count: 190) + "name BEGINSWITH 'B'"
        let odd = String(repeating: "NOT ", count: 191) + "name BEGINSWITH 'B'"
        var nested = "salary > 0"
        for i in 0..<150 { nested = "(\(nested) AND name != 'nobody \(i)')" }
        for (format, expected) in [(ors, ["Ada"]), (nots, ["Bob"]), (nested, nil)] {
            let request = FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: format))
            let inMemory = try names(memory, request).sorted()
            if let expected { #expect(inMemory == expected, "\(format.prefix(40))") }
            #expect(try names(sqlite, request).sorted() == inMemory, "\(format.prefix(40))")
        }
        let request = FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: odd))
        #expect(try names(sqlite, request).sorted() == names(memory, request).sorted())
        #expect(try !names(memory, request).contains("Bob"))
        // AND and OR alternating 150 deep stay nested: SQLite refuses them, and says so plainly.
        var alternating = "salary > 0"
        for i in 0..<150 { alternating = "(\(alternating) \(i % 2 == 0 ? "OR" : "AND") salary > \(i))" }
        let error = #expect(throws: SQLiteStoreError.self) {
            try sqlite.fetch(FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: alternating)))
        }
        #expect(error.map { "\($0)".hasPrefix("the predicate is too large or too deeply nested for SQLite") } == true)
    }

    @Test("objects as arguments: SELF == object, SELF IN objects, to-one IN objects, to-many CONTAINS object")
    func objectArguments() throws {
        let (memory, sqlite) = try Self.stacks()
        for context in [memory, sqlite] {
            let ada = try #require(try context.object(forEntityName: "Employee", matchingKey: "name", value: "Ada"))
            let bob = try #require(try context.object(forEntityName: "Employee", matchingKey: "name", value: "Bob"))
            let sales = try #require(try context.object(forEntityName: "Department", matchingKey: "name", value: "Sales"))
            let compiler = try #require(try context.object(forEntityName: "Project", matchingKey: "name", value: "Compiler"))
            func run(_ format: String, _ args: any ObjectValueConvertible...) throws -> [String] {
                try names(context, FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: format, argumentArray: args.map(\.objectValue)))).sorted()
            }
            #expect(try run("SELF == %@", ada) == ["Ada"])
            #expect(try run("SELF != %@", ada) == ["Bob", "Cécile", "dave", "Émile"])
            #expect(try run("SELF IN %@", ObjectValue.array([.object(ada), .object(bob)])) == ["Ada", "Bob"])
            #expect(try run("department == %@", sales) == ["Bob", "Émile"])
            #expect(try run("department IN %@", ObjectValue.array([.object(sales)])) == ["Bob", "Émile"])
            #expect(try run("projects CONTAINS %@", compiler) == ["Ada", "dave"])
            #expect(try run("%@ IN projects", compiler) == ["Ada", "dave"])
            #expect(try run("name == $NAME".replacingOccurrences(of: "$NAME", with: "%@"), "Bob") == ["Bob"])
        }
    }

    @Test("sort descriptors order alike, nil first ascending", arguments: [
        ([ObjectSortDescriptor(key: "name")], ["Ada", "Bob", "Cécile", "dave", "Émile"]),
        ([ObjectSortDescriptor(key: "name", comparison: .caseInsensitiveCompare)], ["Ada", "Bob", "Cécile", "dave", "Émile"]),
        ([ObjectSortDescriptor(key: "name", ascending: false)], ["Émile", "dave", "Cécile", "Bob", "Ada"]),
        ([ObjectSortDescriptor(key: "hired")], ["Bob", "Émile", "Ada", "Cécile", "dave"]),
        ([ObjectSortDescriptor(key: "hired", ascending: false)], ["dave", "Cécile", "Ada", "Émile", "Bob"]),
        ([ObjectSortDescriptor(key: "department.name"), ObjectSortDescriptor(key: "salary", ascending: false)],
         ["dave", "Ada", "Cécile", "Émile", "Bob"]),
        ([ObjectSortDescriptor(key: "name", comparison: .localizedStandardCompare)], ["Ada", "Bob", "Cécile", "dave", "Émile"]),
    ])
    func sorting(_ descriptors: [ObjectSortDescriptor], _ expected: [String]) throws {
        let (memory, sqlite) = try Self.stacks()
        let request = FetchRequest(entityName: "Employee", sortDescriptors: descriptors)
        #expect(try names(memory, request) == expected, "in memory")
        #expect(try names(sqlite, request) == expected, "in SQL")
    }

    @Test("offset and limit apply after sorting in both")
    func window() throws {
        let (memory, sqlite) = try Self.stacks()
        let request = FetchRequest(entityName: "Employee", sortDescriptors: [ObjectSortDescriptor(key: "salary")],
                                   fetchLimit: 2, fetchOffset: 1)
        #expect(try names(memory, request) == ["Bob", "Émile"])
        #expect(try names(sqlite, request) == ["Bob", "Émile"])
    }
}
