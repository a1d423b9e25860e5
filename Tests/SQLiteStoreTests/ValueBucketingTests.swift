import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

/// Counting values by ranges: one `CASE` in the store's SQL, the same counts as memory's.
@Suite("Value counts by ranges")
struct ValueBucketingTests {
    /// The company in a SQLite store and in memory.
    func stacks() throws -> [(String, ManagedObjectContext)] {
        let model = try ModelFixtures.companyModel()
        let sqlite = try SQLiteTestStack(model: model)
        let memory = try TestStack(model: model)
        try CompanyFixture.fill(sqlite.context)
        try CompanyFixture.fill(memory.context)
        return [("sqlite", sqlite.context), ("memory", memory.context)]
    }

    func rows(_ counts: ValueCounts) -> [String] {
        counts.entries.map { entry in
            let label = entry.upperBound.map { counts.bucketing!.label(from: entry.value, to: $0) } ?? "nil"
            return "\(label): \(entry.count)"
        }
    }

    @Test("salaries in ranges of 50,000: every range from the least to the greatest, empty ones too, in order")
    func numberRanges() throws {
        for (name, context) in try stacks() {
            let counts = try ValueCounts(keyPath: "salary", entityName: "Employee", predicate: nil,
                                         bucketing: .width(50_000), type: .integer32, in: context)
            #expect(rows(counts) == ["0 – 50000: 1", "50000 – 100000: 3", "100000 – 150000: 1"], "\(name)")
            #expect(counts.total == 5)
            let wide = try ValueCounts(keyPath: "salary", entityName: "Employee", predicate: nil,
                                       bucketing: .width(30_000), type: .integer32, in: context)
            #expect(rows(wide) == ["0 – 30000: 1", "30000 – 60000: 1", "60000 – 90000: 2", "90000 – 120000: 0", "120000 – 150000: 1"],
                    "\(name): an empty range is listed with 0")
            // Enter on a range filters to it.
            let middle = try context.fetch(FetchRequest(entityName: "Employee", predicate: ValueCounts.predicate("salary", for: wide.entries[2])))
            #expect(Set(middle.compactMap { $0.string("name") }) == ["Cécile", "Émile"], "\(name)")
        }
    }

    @Test("dates by day and through a to-one relationship; objects without a value are counted last")
    func dateRanges() throws {
        for (name, context) in try stacks() {
            let counts = try ValueCounts(keyPath: "hired", entityName: "Employee", predicate: nil,
                                         bucketing: .period(.day), type: .date, in: context)
            #expect(counts.entries.count == 2, "\(name): \(rows(counts))")
            #expect(counts.entries.first?.count == 4)
            #expect(counts.entries.last == ValueCounts.Entry(value: .null, count: 1), "Bob was never hired")
            let budgets = try ValueCounts(keyPath: "department.budget", entityName: "Employee", predicate: nil,
                                          bucketing: .width(500), type: .decimal, in: context)
            #expect(rows(budgets) == ["1000 – 1500: 2", "nil: 3"], "\(name)")
        }
    }

    @Test("too many ranges, or ranges of the wrong kind, are refused, saying why")
    func refused() throws {
        for (_, context) in try stacks() {
            let many = #expect(throws: ValueBucketing.Refusal.self) {
                try ValueCounts(keyPath: "salary", entityName: "Employee", predicate: nil, bucketing: .width(1), type: .integer32, in: context)
            }
            #expect(many?.description == "ranges of 1 makes 120001 ranges; at most 1000 are counted, choose wider ones")
            let kind = #expect(throws: ValueBucketing.Refusal.self) {
                try ValueCounts(keyPath: "name", entityName: "Employee", predicate: nil, bucketing: .period(.month), type: .string, in: context)
            }
            #expect(kind?.description == "periods need dates, not String values")
        }
    }

    @Test("each value's range is one CASE in the SQL, searched in halves, and the rows are grouped there")
    func inSQL() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.companyModel())
        let bounds: [ObjectValue] = [0, 50_000, 100_000, 150_000, 200_000].map { .int($0) }
        let range = ExpressionDescription(name: "range", expression: ValueBucketing.expression("salary", bounds: bounds), resultType: .integer64)
        let request = FetchRequest(entityName: "Employee", resultType: .dictionaries, propertiesToFetch: [.expression(range)],
                                   propertiesToGroupBy: [.expression(range)])
        let (sql, arguments) = try stack.store.sql(for: StoreRequest(fetch: request, entityNames: ["Employee"]))
        let expression = "CASE WHEN t0.ZSALARY IS NULL THEN NULL ELSE CASE WHEN t0.ZSALARY < ? THEN CASE WHEN t0.ZSALARY < ? "
            + "THEN ? ELSE ? END ELSE CASE WHEN t0.ZSALARY < ? THEN ? ELSE ? END END END"
        #expect(sql.hasPrefix("SELECT \(expression) FROM ZEMPLOYEE t0 GROUP BY 1 "), "grouped by its place among the columns: \(sql)")
        #expect(arguments.prefix(7) == ["100000", "50000", "0", "50000", "150000", "100000", "150000"])
    }

    @Test("round widths make about the asked number of ranges")
    func roundWidths() {
        #expect(ValueBucketing.roundWidth(from: 0, to: 120_000, about: 10, integers: true) == 20_000)
        #expect(ValueBucketing.roundWidth(from: 0.1, to: 0.9, about: 10, integers: false) == 0.1)
        #expect(ValueBucketing.roundWidth(from: 3, to: 7, about: 10, integers: true) == 1)
        #expect(ValueBucketing("month") == .period(.month))
        #expect(ValueBucketing("2.5") == .width(2.5))
        #expect(ValueBucketing("-1") == nil && ValueBucketing("fortnight") == nil)
    }
}

/// Text sorted in SQL the way memory sorts it.
@Suite("Localized text order in SQL")
struct LocalizedSortTests {
    @Test("names sorted case-insensitively in SQL (ASCII ones in C, the rest by the collator) come in memory's order")
    func agreesWithMemory() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.companyModel())
        let names = ["item 10", "Item 9", "item 100", "Zoë", "zebra", "Émile", "emily", "a b", "ab", "A", "_x", "x-ray", "X ray",
                     "ßtraße", "straße", "Strasse2", "9 lives", "10 lives", "", "  lead", "ch", "cz", "aa", "az", "İstanbul", "ıstanbul"]
        for name in names { try stack.context.insertObject(forEntityName: "Employee")["name"] = .string(name) }
        try stack.context.save()
        let sort = [ObjectSortDescriptor(key: "name", ascending: true, comparison: .localizedCaseInsensitiveCompare)]
        let fetched = try stack.newContext().fetch(FetchRequest(entityName: "Employee", sortDescriptors: sort)).compactMap { $0.string("name") }
        let expected = names.sorted { $0.localizedCaseInsensitiveCompare($1) == .orderedAscending }
        #expect(fetched == expected)
        let sql = try stack.store.sql(for: StoreRequest(fetch: FetchRequest(entityName: "Employee", sortDescriptors: sort), entityNames: ["Employee"])).sql
        #expect(sql.contains("COLLATE td_localizedCaseInsensitiveCompare"), "\(sql)")
    }
}
