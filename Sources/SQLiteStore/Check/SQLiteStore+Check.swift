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

            for table in schema.tables {
                let numbers = table.entityNumbers.map(String.init).joined(separator: ", ")
                add(.unknownEntityNumber, table.rootEntityName, nil,
                    try rows("SELECT Z_PK, Z_ENT FROM \(q(table.name)) WHERE Z_ENT NOT IN (\(numbers))"),
                    "rows of \(table.name) whose Z_ENT is none of its entities' numbers (\(numbers))")
                let largest = try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM \(q(table.name))") ?? 0
                let counter = try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = ?", arguments: [table.rootEntityName]) ?? 0
                if largest > counter {
                    findings.append(StoreFinding(kind: .keyCounterBehind, entity: table.rootEntityName, key: nil, count: 1, objects: [],
                                                 message: "Z_PRIMARYKEY's Z_MAX for \(table.rootEntityName) is \(counter), "
                                                    + "but \(table.name) holds keys up to \(largest): the next insert would take a key in use"))
                }
            }

            for entity in schema.model.entities.sorted(by: { $0.name < $1.name }) {
                guard let mapping = schema.mapping(for: entity.name) else { continue }
                let table = q(mapping.table.name)
                let kinds = entity.kindNames.compactMap { schema.mapping(for: $0)?.number }.map(String.init).joined(separator: ", ")
                let own = Set(entity.declaration.attributes.map(\.name) + entity.declaration.relationships.map(\.name))
                for (attribute, column) in mapping.attributes where own.contains(attribute.name) && !attribute.isOptional && !attribute.isTransient {
                    add(.missingRequiredValue, entity.name, attribute.name,
                        try rows("SELECT Z_PK, Z_ENT FROM \(table) WHERE Z_ENT IN (\(kinds)) AND \(q(column)) IS NULL"),
                        "\(entity.name).\(attribute.name) is required, and these objects have no value")
                }
                for (relationship, key) in mapping.toOne where own.contains(relationship.name) {
                    let column = q(key.column)
                    if !relationship.isOptional {
                        add(.missingRequiredValue, entity.name, relationship.name,
                            try rows("SELECT Z_PK, Z_ENT FROM \(table) WHERE Z_ENT IN (\(kinds)) AND \(column) IS NULL"),
                            "\(entity.name).\(relationship.name) is required, and these objects have none")
                    }
                    guard let destination = schema.mapping(for: key.destinationEntityName) else { continue }
                    let target = q(destination.table.name)
                    add(.danglingReference, entity.name, relationship.name,
                        try rows("SELECT t.Z_PK, t.Z_ENT FROM \(table) t WHERE t.Z_ENT IN (\(kinds)) AND t.\(column) IS NOT NULL "
                                 + "AND NOT EXISTS (SELECT 1 FROM \(target) d WHERE d.Z_PK = t.\(column))"),
                        "\(entity.name).\(relationship.name) holds the key of a \(key.destinationEntityName) that is not in the store")
                    // One-to-one: the inverse must hold this object back.
                    if let inverseName = relationship.inverseName, let inverse = destination.foreignKey(for: inverseName) {
                        add(.oneSidedReference, entity.name, relationship.name,
                            try rows("SELECT t.Z_PK, t.Z_ENT FROM \(table) t JOIN \(target) d ON d.Z_PK = t.\(column) "
                                     + "WHERE t.Z_ENT IN (\(kinds)) AND d.\(q(inverse.column)) IS NOT t.Z_PK"),
                            "\(entity.name).\(relationship.name) points at a \(key.destinationEntityName) whose \(inverseName) does not point back")
                    }
                }
                for (relationship, storage) in mapping.toMany where own.contains(relationship.name) {
                    guard case .joinTable(let name, let ownColumn, let otherColumn) = storage,
                          let destination = schema.mapping(for: relationship.destinationEntityName) else { continue }
                    // Each join table is checked from the side whose name comes first.
                    if let inverse = relationship.inverseName, (relationship.destinationEntityName, inverse) < (entity.name, relationship.name) { continue }
                    let missing = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(q(name)) j WHERE NOT EXISTS (SELECT 1 FROM \(table) s WHERE s.Z_PK = j.\(q(ownColumn))) "
                                                   + "OR NOT EXISTS (SELECT 1 FROM \(q(destination.table.name)) d WHERE d.Z_PK = j.\(q(otherColumn)))") ?? 0
                    if missing > 0 {
                        findings.append(StoreFinding(kind: .orphanJoinRow, entity: entity.name, key: relationship.name, count: missing, objects: [],
                                                     message: "\(name) has \(missing) row\(missing == 1 ? "" : "s") joining \(entity.name).\(relationship.name) "
                                                        + "to an object that is not in the store"))
                    }
                }
                for constraint in entity.declaration.uniquenessConstraints {
                    let columns = constraint.compactMap { mapping.column(forAttribute: $0) ?? mapping.foreignKey(for: $0)?.column }.map(q)
                    guard columns.count == constraint.count, !columns.isEmpty else { continue }
                    let list = columns.joined(separator: ", ")
                    let set = columns.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")
                    add(.duplicateUnique, entity.name, constraint.joined(separator: ","),
                        try rows("SELECT t.Z_PK, t.Z_ENT FROM \(table) t WHERE t.Z_ENT IN (\(kinds)) AND (\(list)) IN "
                                 + "(SELECT \(list) FROM \(table) WHERE Z_ENT IN (\(kinds)) AND \(set) GROUP BY \(list) HAVING COUNT(*) > 1) ORDER BY \(list), t.Z_PK"),
                        "\(entity.name) objects share their \(constraint.joined(separator: ", ")), which the model allows once")
                }
            }
            return findings
        }
    }
}
