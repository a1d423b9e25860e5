import Foundation
import GRDB
import ObjectGraph
import ObjectModel
import SQLSyntax

extension SQLiteStore: CheckingStore {}

extension SQLiteStore {
    /// Checks the store against its model, reading only: references to rows that are not
    /// there (to-one keys and join rows), one-to-one relationships whose inverse does not point
    /// back, nil values the model requires, values a uniqueness constraint allows once held
    /// twice, a `Z_PRIMARYKEY` counter behind a table's keys, and rows of no entity. Each check
    /// is a statement or two per table, relationship or constraint; a sound store gives none.
    public func check() throws -> [StoreFinding] {
        try onReader { db in
            var findings: [StoreFinding] = []
            let schema = self.schema
            func uri(_ key: Int64, number: Int?) -> String {
                guard let number, let name = schema.entityName(forNumber: number) else { return "row \(key)" }
                return objectID(entityName: name, primaryKey: key).uriRepresentation.absoluteString
            }
            /// Runs `SELECT Z_PK, Z_ENT …` (its first two columns), counting every row and naming the first.
            func rows(_ select: String, _ arguments: StatementArguments = []) throws -> (count: Int, objects: [String]) {
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (\(select))", arguments: arguments) ?? 0
                guard count > 0 else { return (0, []) }
                let named = try Row.fetchAll(db, sql: select + " LIMIT \(StoreFinding.namedObjects)", arguments: arguments).map { row in
                    uri(row[0], number: row[1])
                }
                return (count, named)
            }
            func add(_ kind: StoreFinding.Kind, _ entity: String, _ key: String?, _ found: (count: Int, objects: [String]), _ message: String) {
                guard found.count > 0 else { return }
                findings.append(StoreFinding(kind: kind, entity: entity, key: key, count: found.count, objects: found.objects, message: message))
            }
            let q = { (name: String) in "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

            for query in schema.checkQueries(dialect: SQLiteDialect()) {
                guard let kind = StoreFinding.Kind(rawValue: query.kind.rawValue) else { continue }
                if query.countsOnly {
                    let count = try Int.fetchOne(db, sql: query.select) ?? 0
                    add(kind, query.entity, query.key, (count, []), query.message(count))
                } else {
                    let found = try rows(query.select)
                    add(kind, query.entity, query.key, found, query.message(found.count))
                }
            }
            // The key counters: Z_PRIMARYKEY's Z_MAX must reach each table's largest key.
            for table in schema.tables {
                let largest = try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM \(q(table.name))") ?? 0
                let counter = try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = ?", arguments: [table.rootEntityName]) ?? 0
                if largest > counter {
                    findings.append(StoreFinding(kind: .keyCounterBehind, entity: table.rootEntityName, key: nil, count: 1, objects: [],
                                                 message: "Z_PRIMARYKEY's Z_MAX for \(table.rootEntityName) is \(counter), "
                                                    + "but \(table.name) holds keys up to \(largest): the next insert would take a key in use"))
                }
            }
            return findings
        }
    }
}
