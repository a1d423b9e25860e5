import Foundation
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import Testing
import TestSupport

/// A fetch explained: the statement as run with its values, SQLite's plan, and the index that
/// would serve it, in the model's terms.
@Suite("Explaining a fetch")
struct ExplainTests {
    static func stack() throws -> SQLiteTestStack {
        let url = try ModelFixtures.writeModelFile(ModelFixtures.modelXML("""
            <entity name="Book" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
                <attribute name="pages" optional="YES" attributeType="Integer 64" usesScalarValueType="NO"/>
                <attribute name="isbn" optional="YES" attributeType="String" indexed="YES"/>
                <attribute name="year" optional="YES" attributeType="Integer 64" usesScalarValueType="NO"/>
            </entity>
            """), name: "Shelf")
        let stack = try SQLiteTestStack(model: try XcodeModelFile.read(url).current)
        for i in 0..<300 {
            let book = try stack.context.insertObject(forEntityName: "Book")
            book["title"] = .string("Book \(i)")
            book["pages"] = .int(100 + i)
            book["isbn"] = .string("isbn-\(i)")
            book["year"] = .int(1900 + i % 100)
        }
        try stack.context.save()
        return stack
    }

    func explain(_ stack: SQLiteTestStack, _ format: String, sort: String? = nil, limit: Int = 0) throws -> FetchExplanation {
        var request = FetchRequest(entityName: "Book", predicate: try ObjectPredicate(format: format))
        request.sortDescriptors = sort.map { [ObjectSortDescriptor(key: $0)] } ?? []
        request.fetchLimit = limit
        return try stack.context.explain(request)
    }

    @Test("an indexed attribute: SQLite searches its index, the values are bound, every row is read and counted, and no advice")
    func servedByAnIndex() throws {
        let stack = try Self.stack()
        let explained = try explain(stack, "isbn == 'isbn-7'")
        #expect(explained.statement.hasPrefix("SELECT t0.Z_PK, t0.Z_ENT FROM ZBOOK t0 WHERE t0.ZISBN = ?"), "\(explained.statement)")
        #expect(explained.arguments == ["\"isbn-7\""])
        #expect(explained.plan.first?.hasPrefix("SEARCH t0 USING") == true && explained.indexes.count == 1, "\(explained.plan)")
        #expect(explained.rows == 1 && !explained.readsWholeTable)
        #expect(explained.advice == nil)
    }

    @Test("an attribute not indexed: the whole table is read, and marking it indexed is advised; with a sort and a limit, a fetch index of both")
    func advisesAnIndex() throws {
        let stack = try Self.stack()
        let one = try explain(stack, "year == 1950")
        #expect(one.readsWholeTable && one.rows == 3)
        #expect(one.advice == "the store reads all of Book's rows to find the matches; marking Book.year indexed (Xcode: the attribute's Index option) would let it search instead")
        let two = try explain(stack, "year == 1950 AND pages > 120", sort: "title", limit: 2)
        #expect(two.advice?.contains("a fetch index on Book of (year, pages)") == true, "\(two.advice ?? "")")
        let sorted = try explain(stack, "year == 1950", sort: "title", limit: 2)
        #expect(sorted.sorts)
        #expect(sorted.advice?.contains("a fetch index on Book of (year, title)") == true, "\(sorted.advice ?? "")")
        let lines = sorted.lines
        #expect(lines.first?.hasPrefix("statement  SELECT") == true && lines.contains { $0.hasPrefix("plan       ") }
                && lines.contains { $0.hasPrefix("time       ") && $0.hasSuffix(", 2 rows") } && lines.last?.hasPrefix("advice     ") == true, "\(lines)")
    }

    @Test("a filter no index can answer says so; a store in memory has no plan to show")
    func noIndexCanHelp() throws {
        let stack = try Self.stack()
        let contains = try explain(stack, "title CONTAINS[c] '7'")
        #expect(contains.advice?.hasPrefix("no index would serve this filter") == true, "\(contains.advice ?? "")")
        let memory = try TestStack(model: stack.model)
        #expect(throws: ObjectGraphError.noQueryPlan(.inMemory)) { try memory.context.explain(FetchRequest(entityName: "Book")) }
    }
}
