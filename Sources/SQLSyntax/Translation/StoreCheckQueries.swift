import Foundation
import ObjectModel

/// One statement of a store check, in a dialect's SQL: what it looks for, on which entity and
/// key, and the objects it finds.
package struct StoreCheckQuery: Sendable {
    /// The kinds of `StoreFinding` a statement finds (the same names).
    package enum Kind: String, Sendable {
        case danglingReference, oneSidedReference, orphanJoinRow, missingRequiredValue, duplicateUnique, unknownEntityNumber
        case countOutOfRange, metadataMismatch
    }

    package var kind: Kind
    package var entity: String
    package var key: String?
    /// `SELECT Z_PK, Z_ENT …` of the objects concerned; or, where `countsOnly`, `SELECT COUNT(*) …`.
    package var select: String
    package var countsOnly = false
    /// The finding in words, for the number found.
    package var message: @Sendable (Int) -> String
}

extension StoreSchema {
    /// The check's statements, the same on every engine but for the dialect: rows of no entity
    /// per table; per entity, nil required values, keys of rows that are not there, one-to-one
    /// relationships whose inverse does not point back, join rows to missing objects, and values
    /// a uniqueness constraint allows once held twice. (The key counters are each store's own.)
    package func checkQueries(dialect: any SQLDialect) -> [StoreCheckQuery] {
        let q = dialect.quote
        var queries: [StoreCheckQuery] = []
        for table in tables {
            let numbers = table.entityNumbers.map(String.init).joined(separator: ", ")
            queries.append(StoreCheckQuery(kind: .unknownEntityNumber, entity: table.rootEntityName, key: nil,
                                           select: "SELECT \(q("Z_PK")), \(q("Z_ENT")) FROM \(q(table.name)) WHERE \(q("Z_ENT")) NOT IN (\(numbers))") { _ in
                "rows of \(table.name) whose Z_ENT is none of its entities' numbers (\(numbers))"
            })
        }
        let pk = q("Z_PK"), ent = q("Z_ENT")
        for entity in model.entities.sorted(by: { $0.name < $1.name }) {
            guard let mapping = mapping(for: entity.name) else { continue }
            let table = q(mapping.table.name)
            let kinds = entity.kindNames.compactMap { self.mapping(for: $0)?.number }.map(String.init).joined(separator: ", ")
            let own = Set(entity.declaration.attributes.map(\.name) + entity.declaration.relationships.map(\.name))
            for (attribute, column) in mapping.attributes where own.contains(attribute.name) && !attribute.isOptional && !attribute.isTransient {
                queries.append(StoreCheckQuery(kind: .missingRequiredValue, entity: entity.name, key: attribute.name,
                                               select: "SELECT \(pk), \(ent) FROM \(table) WHERE \(ent) IN (\(kinds)) AND \(q(column)) IS NULL") { _ in
                    "\(entity.name).\(attribute.name) is required, and these objects have no value"
                })
            }
            for (relationship, key) in mapping.toOne where own.contains(relationship.name) {
                let column = q(key.column)
                if !relationship.isOptional {
                    queries.append(StoreCheckQuery(kind: .missingRequiredValue, entity: entity.name, key: relationship.name,
                                                   select: "SELECT \(pk), \(ent) FROM \(table) WHERE \(ent) IN (\(kinds)) AND \(column) IS NULL") { _ in
                        "\(entity.name).\(relationship.name) is required, and these objects have none"
                    })
                }
                guard let destination = self.mapping(for: key.destinationEntityName) else { continue }
                let target = q(destination.table.name)
                queries.append(StoreCheckQuery(kind: .danglingReference, entity: entity.name, key: relationship.name,
                                               select: "SELECT t.\(pk), t.\(ent) FROM \(table) t WHERE t.\(ent) IN (\(kinds)) AND t.\(column) IS NOT NULL "
                                                   + "AND NOT EXISTS (SELECT 1 FROM \(target) d WHERE d.\(pk) = t.\(column))") { _ in
                    "\(entity.name).\(relationship.name) holds the key of a \(key.destinationEntityName) that is not in the store"
                })
                // One-to-one: the inverse must hold this object back.
                if let inverseName = relationship.inverseName, let inverse = destination.foreignKey(for: inverseName) {
                    queries.append(StoreCheckQuery(kind: .oneSidedReference, entity: entity.name, key: relationship.name,
                                                   select: "SELECT t.\(pk), t.\(ent) FROM \(table) t JOIN \(target) d ON d.\(pk) = t.\(column) "
                                                       + "WHERE t.\(ent) IN (\(kinds)) AND d.\(q(inverse.column)) \(dialect.text(of: .isNot)) t.\(pk)") { _ in
                        "\(entity.name).\(relationship.name) points at a \(key.destinationEntityName) whose \(inverseName) does not point back"
                    })
                }
            }
            for (relationship, storage) in mapping.toMany where own.contains(relationship.name) {
                guard case .joinTable(let name, let ownColumn, let otherColumn) = storage,
                      let destination = self.mapping(for: relationship.destinationEntityName) else { continue }
                // Each join table is checked from the side whose name comes first.
                if let inverse = relationship.inverseName, (relationship.destinationEntityName, inverse) < (entity.name, relationship.name) { continue }
                queries.append(StoreCheckQuery(kind: .orphanJoinRow, entity: entity.name, key: relationship.name,
                                               select: "SELECT COUNT(*) FROM \(q(name)) j WHERE NOT EXISTS (SELECT 1 FROM \(table) s WHERE s.\(pk) = j.\(q(ownColumn))) "
                                                   + "OR NOT EXISTS (SELECT 1 FROM \(q(destination.table.name)) d WHERE d.\(pk) = j.\(q(otherColumn)))",
                                               countsOnly: true) { missing in
                    "\(name) has \(missing) row\(missing == 1 ? "" : "s") joining \(entity.name).\(relationship.name) to an object that is not in the store"
                })
            }
            // Count rules: how many members a to-many relationship holds (an optional one may hold none).
            for (relationship, storage) in mapping.toMany where own.contains(relationship.name) && (relationship.minCount > 1 || relationship.maxCount > 0) {
                let members: String
                switch storage {
                case .joinTable(let name, let ownColumn, _): members = "SELECT COUNT(*) FROM \(q(name)) j WHERE j.\(q(ownColumn)) = o.\(pk)"
                case .foreignKey(let memberTable, let column): members = "SELECT COUNT(*) FROM \(q(memberTable)) m WHERE m.\(q(column)) = o.\(pk)"
                }
                var broken: [String] = []
                if relationship.maxCount > 0 { broken.append("(\(members)) > \(relationship.maxCount)") }
                if relationship.minCount > 1 {
                    broken.append("(\(members)) < \(relationship.minCount)" + (relationship.isOptional ? " AND (\(members)) > 0" : ""))
                }
                let bounds = relationship.maxCount > 0
                    ? (relationship.minCount > 1 ? "from \(relationship.minCount) to \(relationship.maxCount)" : "at most \(relationship.maxCount)")
                    : "at least \(relationship.minCount)"
                queries.append(StoreCheckQuery(kind: .countOutOfRange, entity: entity.name, key: relationship.name,
                                               select: "SELECT o.\(pk), o.\(ent) FROM \(table) o WHERE o.\(ent) IN (\(kinds)) AND ("
                                                   + broken.map { "(\($0))" }.joined(separator: " OR ") + ")") { _ in
                    "\(entity.name).\(relationship.name) holds \(bounds) objects in the model, and these objects hold another number"
                })
            }
            // The entity's row in Z_PRIMARYKEY: its name, number and parent, as the model has them.
            let parent = entity.parentName.flatMap { self.mapping(for: $0)?.number } ?? 0
            let literal = "'" + entity.name.replacingOccurrences(of: "'", with: "''") + "'"
            queries.append(StoreCheckQuery(kind: .metadataMismatch, entity: entity.name, key: nil,
                                           select: "SELECT 1 - COUNT(*) FROM \(q("Z_PRIMARYKEY")) WHERE \(ent) = \(mapping.number) "
                                               + "AND \(q("Z_NAME")) = \(literal) AND COALESCE(\(q("Z_SUPER")), 0) = \(parent)",
                                           countsOnly: true) { _ in
                "Z_PRIMARYKEY has no row naming \(entity.name) entity \(mapping.number)"
                    + (parent == 0 ? " with no parent" : " under entity \(parent) (\(entity.parentName ?? ""))") + ", as the model and the tables have it"
            })
            for constraint in entity.declaration.uniquenessConstraints {
                let columns = constraint.compactMap { mapping.column(forAttribute: $0) ?? mapping.foreignKey(for: $0)?.column }.map(q)
                guard columns.count == constraint.count, !columns.isEmpty else { continue }
                let list = columns.joined(separator: ", ")
                let set = columns.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")
                queries.append(StoreCheckQuery(kind: .duplicateUnique, entity: entity.name, key: constraint.joined(separator: ","),
                                               select: "SELECT t.\(pk), t.\(ent) FROM \(table) t WHERE t.\(ent) IN (\(kinds)) AND (\(list)) IN "
                                                   + "(SELECT \(list) FROM \(table) WHERE \(ent) IN (\(kinds)) AND \(set) GROUP BY \(list) HAVING COUNT(*) > 1) "
                                                   + "ORDER BY \(list), t.\(pk)") { _ in
                    "\(entity.name) objects share their \(constraint.joined(separator: ", ")), which the model allows once"
                })
            }
        }
        return queries
    }
}
