import Foundation
import GRDB
import ObjectGraph
import ObjectModel
import Predicates
import SQLSyntax

/// How one entity's rows are read: the columns selected and how each becomes a value of
/// a `StoredRow`. Built once per entity; the SQL is a cached prepared statement.
final class RowQuery {
    let mapping: StoreSchema.EntityMapping
    /// `Z_PK, Z_OPT, <attribute columns>, <foreign keys>` of the entity.
    let columns: [SQLExpression]
    let selectOne: String
    /// Each attribute column's position in the entity's attributes.
    private let attributePositions: [Int]
    /// The attribute columns whose values may be in external files, by column number.
    private let externalColumns: [Int]

    init(mapping: StoreSchema.EntityMapping) {
        self.mapping = mapping
        attributePositions = mapping.attributePositions
        externalColumns = mapping.externalColumns.indices.filter { mapping.externalColumns[$0] }
        var columns = (["Z_PK", "Z_OPT"] + mapping.attributes.map(\.column)).map { SQLExpression.column($0) }
        for (_, key) in mapping.toOne {
            columns.append(.column(key.column))
            columns.append(key.entityColumn.map { .column($0) } ?? .null)
        }
        self.columns = columns
        selectOne = SQLSelect(columns: columns, from: .table(mapping.table.name), filter: .column("Z_PK") == .parameter).sqlite
    }

    /// `SELECT ... WHERE Z_PK IN (?, ...)` for `count` keys.
    func selectMany(_ count: Int) -> String {
        SQLSelect(columns: columns, from: .table(mapping.table.name),
                  filter: SQLExpression.column("Z_PK").isIn(Array(repeating: .parameter, count: count))).sqlite
    }

    /// The stored row a database row holds, its values in the order of the entity's attributes.
    ///
    /// - Throws: `ObjectGraphError.storeFormat` when a value kept in an external file cannot be read.
    func storedRow(_ row: Row, store: SQLiteStore) throws -> StoredRow {
        // Core Data's keys are whole numbers from 1 on; another program's NULL, text or real
        // would otherwise read as a key no row has.
        guard case .int64(let pk) = (row[0] as DatabaseValue).storage, pk > 0 else {
            throw store.damagedKey(row[0], table: mapping.table.name)
        }
        let entity = mapping.entity
        var values = Array(repeating: ObjectValue.null, count: entity.attributes.count)
        var i = 2
        for (position, (attribute, _)) in zip(attributePositions, mapping.attributes) {
            values[position] = DatabaseValueCoding.objectValue(row.storedValue(atIndex: i), type: attribute.type)
            i += 1
        }
        for column in externalColumns {
            // Only blobs are tagged (see `RowWriter`).
            guard case .blob(let stored) = (row[2 + column] as DatabaseValue).storage else { continue }
            let position = attributePositions[column]
            values[position] = .data(try store.externalData.bytes(of: stored, attribute: "\(entity.name).\(entity.attributes[position].name)"))
        }
        var stored = StoredRow(objectID: store.objectID(entityName: entity.name, primaryKey: pk),
                               version: row[1] ?? 0, entity: entity, values: values)
        for (relationship, key) in mapping.toOne {
            if let destination = row[i] as Int64? {
                var entityName = key.destinationEntityName
                if let number = row[i + 1] as Int?, let name = store.schema.entityName(forNumber: number) {
                    entityName = name
                }
                stored.toOne[relationship.name] = store.objectID(entityName: entityName, primaryKey: destination)
            }
            i += 2
        }
        return stored
    }
}

extension Row {
    /// The value in a column of a row read from a statement, with text in full: GRDB reads
    /// text up to its first NUL character, so text whose bytes run longer is read again as
    /// bytes.
    func storedValue(atIndex i: Int) -> DatabaseValue {
        let value: DatabaseValue = self[i]
        guard case .string(let text) = value.storage else { return value }
        let whole: String? = try? withUnsafeData(atIndex: i) { bytes in
            guard let bytes, bytes.count != text.utf8.count else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }
        return whole?.databaseValue ?? value
    }
}
