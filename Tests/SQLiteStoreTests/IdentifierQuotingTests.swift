import Foundation
import GRDB
import Testing
import SQLSyntax
import TestSupport

/// Every table, column and index name reaches SQLite through the dialect's one quoting
/// function. Names a model could never hold are used here on purpose: whatever a name
/// holds, it names exactly one thing and runs nothing.
@Suite("Identifiers quoted for SQLite")
struct IdentifierQuotingTests {
    static let pool: [Character] = Array("abcXYZ_019éßΩ") + [" ", "'", "\"", ";", "(", ")", "-", ",", ".", "[", "]", "`", "\n", "\u{200B}", "$", "%", "*", "/"]
    static let keywords = ["order", "SELECT", "group", "table", "rowid", "true", "index", "where"]

    static func generatedName(_ rng: inout SeededGenerator) -> String {
        if Int.random(in: 0..<5, using: &rng) == 0 { return keywords.randomElement(using: &rng)! }
        return String((0..<Int.random(in: 1...10, using: &rng)).map { _ in pool.randomElement(using: &rng)! })
    }

    @Test("generated names make a table, a column and an index of exactly that name, and hold and return a row")
    func generatedNames() throws {
        let dialect = SQLiteDialect()
        var rng = SeededGenerator(seed: 0x9007)
        for _ in 0..<200 {
            let table = Self.generatedName(&rng), column = Self.generatedName(&rng) + "c", index = Self.generatedName(&rng) + "i"
            let queue = try DatabaseQueue()
            try queue.write { db in
                for statement: SQLStatement in [
                    .createTable(table, columns: [SQLColumnDefinition("Z_PK", .integer, primaryKey: true), SQLColumnDefinition(column, .varchar)]),
                    .createIndex(index, on: table, columns: [column]),
                ] {
                    try db.makeStatement(sql: dialect.render(statement).sql).execute()
                }
                let insert = dialect.render(SQLStatement.insert(into: table, columns: ["Z_PK", column], values: [.value(.integer(7)), .value(.text(table))]))
                try db.makeStatement(sql: insert.sql).execute(arguments: StatementArguments(insert.arguments.map(Self.databaseValue)))
            }
            try queue.read { db in
                let names = try Row.fetchAll(db, sql: "SELECT type, name, tbl_name FROM sqlite_master ORDER BY type")
                    .map { [$0["type"] as String, $0["name"] as String, $0["tbl_name"] as String] }
                #expect(names == [["index", index, table], ["table", table, table]], "\(table.debugDescription)")
                let columns = try Row.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table]).map { $0["name"] as String }
                #expect(columns == ["Z_PK", column])
                var select = SQLSelect(columns: [.column(column, of: "t0")], from: .table(table, as: "t0"))
                select.filter = .column(column, of: "t0") == .value(.text(table))
                let query = dialect.render(select)
                let values = try String.fetchAll(db, sql: query.sql, arguments: StatementArguments(query.arguments.map(Self.databaseValue)))
                #expect(values == [table])
            }
        }
    }

    static func databaseValue(_ value: SQLValue) -> DatabaseValue {
        switch value {
        case .null: return .null
        case .integer(let n): return n.databaseValue
        case .real(let d): return d.databaseValue
        case .text(let s): return s.databaseValue
        case .blob(let d): return d.databaseValue
        case .date, .decimal, .uuid: return .null   // not bound by these statements
        }
    }
}
