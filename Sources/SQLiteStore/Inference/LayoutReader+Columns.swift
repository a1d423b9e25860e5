import Foundation
import GRDB
import SQLSyntax
import ObjectGraph
import ObjectModel

extension LayoutReader {
    /// Names a uniqueness index spells in their own case: `Z_Car_UNIQUE_numberPlate` on
    /// (ZNUMBERPLATE) names `numberPlate`. Returns column → name, and each index's names.
    private func namesFromUniqueIndexes(_ table: String) throws -> (names: [String: String], constraints: [(entity: String, names: [String])]) {
        var names: [String: String] = [:]
        var constraints: [(String, [String])] = []
        for index in try Row.fetchAll(db, sql: "PRAGMA index_list(\(quote(table)))") {
            guard let indexName: String = index["name"], indexName.hasPrefix("Z_"),
                  let marker = indexName.range(of: "_UNIQUE_") else { continue }
            let entity = String(indexName[indexName.index(indexName.startIndex, offsetBy: 2)..<marker.lowerBound])
            var rest = Substring(indexName[marker.upperBound...])
            let columns = try Row.fetchAll(db, sql: "PRAGMA index_info(\(quote(indexName)))").compactMap { $0["name"] as String? }
            var spelled: [String] = []
            for column in columns {
                let upper = String(column.dropFirst())
                guard rest.uppercased().hasPrefix(upper) else { spelled = []; break }
                let name = String(rest.prefix(upper.count))
                spelled.append(name)
                names[column] = name
                rest = rest.dropFirst(upper.count)
                if rest.hasPrefix("_") { rest = rest.dropFirst() }
            }
            if spelled.count == columns.count, !spelled.isEmpty, byName[entity] != nil { constraints.append((entity, spelled)) }
        }
        return (names, constraints)
    }

    /// The property name a column gives: as a uniqueness index spells it, else in lower case.
    private func propertyName(_ column: String, spelled: [String: String]) -> String {
        spelled[column] ?? String(column.dropFirst()).lowercased()
    }

    mutating func readTable(of root: StoredEntity) throws -> [(owner: String, name: String, column: String, table: String, destination: String)] {
        let table = table(of: root)
        let columns = try columns(of: table)
        let names = Set(columns.map(\.name))
        let indexed = Set(try Row.fetchAll(db, sql: "PRAGMA index_list(\(quote(table)))").compactMap { row -> String? in
            guard let name: String = row["name"], name.hasPrefix(table + "_"), name.hasSuffix("_INDEX") else { return nil }
            return String(name.dropFirst(table.count + 1).dropLast("_INDEX".count))
        })
        let (spelled, constraints) = try namesFromUniqueIndexes(table)
        for (entity, group) in constraints { descriptions[entity]?.uniquenessConstraints.append(group) }
        var toOnes: [(owner: String, name: String, column: String, table: String, destination: String)] = []
        for column in columns {
            let name = column.name
            guard name.hasPrefix("Z"), !["Z_PK", "Z_ENT", "Z_OPT"].contains(name) else { continue }
            // Bookkeeping: order keys and the destination-entity columns of to-ones; a
            // to-many without an inverse (`Z<n><REL>`) is read from its owner's side.
            if name.hasPrefix("Z_") || name.dropFirst().first?.isNumber == true { continue }
            let property = propertyName(name, spelled: spelled)
            guard ManagedObjectModel.isValidName(property) else { continue }
            let (owner, ownerIsGuess) = try declaringEntity(of: name, in: table, root: root)
            let key = "\(owner).\(property)"
            if column.declaredType.hasPrefix("INT"), let destination = try destination(of: name, in: table, root: root,
                                                                                       names: names, indexed: indexed.contains(name),
                                                                                       key: key) {
                descriptions[owner]!.relationships.append(RelationshipDescription(
                    name: property, destination: destination, isToMany: false))
                toOnes.append((owner, property, name, table, destination))
                if ownerIsGuess, guesses[key] == nil { guesses[key] = "declared on \(owner): the rows that hold a value are \(owner)s" }
                continue
            }
            let (type, typeGuess) = try attributeType(of: column, in: table)
            descriptions[owner]!.attributes.append(AttributeDescription(name: property, type: type))
            var reasons: [String] = []
            if let typeGuess { reasons.append(typeGuess) }
            if ownerIsGuess { reasons.append("declared on \(owner): the rows that hold a value are \(owner)s") }
            if !reasons.isEmpty { guesses[key] = reasons.joined(separator: "; ") }
        }
        return toOnes
    }

    /// The type a column's declared type and values give, and why, when that is a guess.
    private func attributeType(of column: TableColumn, in table: String) throws -> (AttributeType, String?) {
        let t = column.declaredType
        if t.hasPrefix("INT") {
            let values = try DatabaseValue.fetchAll(db, sql: "SELECT DISTINCT \(quote(column.name)) FROM \(quote(table)) WHERE \(quote(column.name)) IS NOT NULL LIMIT 3")
            let flags = values.allSatisfy { Int64.fromDatabaseValue($0).map { $0 == 0 || $0 == 1 } ?? false }
            let prefixes = ["IS", "HAS", "SHOULD", "CAN", "DID", "WAS", "ALLOWS", "USES", "SHOWS", "NEEDS", "WANTS"]
            let name = String(column.name.dropFirst())
            if !values.isEmpty, flags, prefixes.contains(where: { name.hasPrefix($0) && name.count > $0.count }) {
                return (.boolean, "Boolean: an INTEGER column of 0 and 1 named like a flag")
            }
            return (.integer64, "Integer 64: INTEGER columns hold Integer 16, 32 and 64 and Boolean alike")
        }
        if t == "TIMESTAMP" { return (.date, nil) }
        if t.hasPrefix("VARCHAR") || t.hasPrefix("TEXT") { return (.string, nil) }
        if t == "FLOAT" || t == "REAL" || t == "DOUBLE" { return (.double, "Double: FLOAT columns hold Float and Double alike") }
        if t.hasPrefix("DECIMAL") || t == "NUMERIC" { return (.decimal, nil) }
        if t == "BLOB" {
            let lengths = try Int.fetchAll(db, sql: "SELECT DISTINCT length(\(quote(column.name))) FROM \(quote(table)) WHERE \(quote(column.name)) IS NOT NULL LIMIT 3")
            if lengths == [16] {
                return (.uuid, "UUID: every value is 16 bytes")
            }
            return (.binary, "Binary: BLOB columns hold Binary, Transformable and UUID values alike")
        }
        // A type Core Data does not write (another program's column): its kind of value by
        // SQLite's rules, so that the store opens on the model inferred from it.
        switch StoreSchema.ValueKind(declaredType: t) {
        case .text: return (.string, "String: the declared type \(t) is not one Core Data writes, and holds text")
        case .numbers where t.contains("INT"): return (.integer64, "Integer 64: the declared type \(t) is not one Core Data writes, and holds integers")
        case .numbers: return (.double, "Double: the declared type \(t) is not one Core Data writes, and holds numbers")
        case .bytes: return (.binary, "Binary: the declared type \(t) is not one Core Data writes, and holds bytes")
        case .any: return (.undefined, "Undefined: the column's declared type is empty, so it holds any value")
        }
    }
}
