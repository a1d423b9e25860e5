import Foundation
import ObjectGraph
import ObjectModel
import Predicates
import SQLSyntax

extension PostgresStore: CheckingStore {
    /// Checks the store against its model, reading only, as the SQLite store does: references
    /// to rows that are not there, one-to-one relationships whose inverse does not point back,
    /// nil required values, values a uniqueness constraint allows once held twice, rows of no
    /// entity, and a key sequence behind its table's largest key (the next insert would take a
    /// key in use).
    public func check() throws -> [StoreFinding] {
        let dialect = PostgresDialect(), q = dialect.quote
        return try connections.withConnection { session in
            func integer(_ sql: String) throws -> Int64 {
                try session.run(sql, []).first.flatMap { try PostgresValueCoding.integer(Array($0)[0]) } ?? 0
            }
            var findings: [StoreFinding] = []
            for query in layout.checkQueries(dialect: dialect) {
                guard let kind = StoreFinding.Kind(rawValue: query.kind.rawValue) else { continue }
                if query.countsOnly {
                    let count = Int(try integer(query.select))
                    if count > 0 {
                        findings.append(StoreFinding(kind: kind, entity: query.entity, key: query.key, count: count, objects: [],
                                                     message: query.message(count)))
                    }
                    continue
                }
                let count = Int(try integer("SELECT COUNT(*) FROM (\(query.select)) found"))
                guard count > 0 else { continue }
                let named = try session.run(query.select + " LIMIT \(StoreFinding.namedObjects)", []).map { row -> String in
                    let cells = Array(row)
                    guard let key = try PostgresValueCoding.integer(cells[0]) else { return "row without a key" }
                    guard let number = try PostgresValueCoding.integer(cells[1]), let name = layout.entityName(forNumber: Int(number)) else {
                        return "row \(key)"
                    }
                    return objectID(entityName: name, primaryKey: key).uriRepresentation.absoluteString
                }
                findings.append(StoreFinding(kind: kind, entity: query.entity, key: query.key, count: count, objects: named,
                                             message: query.message(count)))
            }
            // The key sequences: the next key each gives must be past its table's largest.
            for table in layout.tables {
                let largest = try integer("SELECT COALESCE(MAX(\(q("Z_PK"))), 0) FROM \(q(table.name))")
                let sequence = schema.sequence(ofRoot: table.rootEntityName)
                let next = try integer("SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END FROM \(q(sequence))")
                if largest >= next {
                    findings.append(StoreFinding(kind: .keyCounterBehind, entity: table.rootEntityName, key: nil, count: 1, objects: [],
                                                 message: "the key sequence \(sequence) of \(table.rootEntityName) gives \(next) next, "
                                                    + "but \(table.name) holds keys up to \(largest): the next insert would take a key in use"))
                }
            }
            return findings
        }
    }
}
