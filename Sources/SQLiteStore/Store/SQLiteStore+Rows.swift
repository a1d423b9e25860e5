import Foundation
import GRDB
import ObjectGraph
import ObjectModel
import Predicates
import SQLSyntax

extension SQLiteStore {
    /// One object's row, read with a cached prepared statement.
    public func row(for objectID: ManagedObjectID) throws -> StoredRow? {
        guard let pk = objectID.primaryKey, let query = rowQueries[objectID.entityName] else { return nil }
        return try reading { db in
            // A cursor's row reads the statement's columns (a copied row has lost text after a NUL).
            let cursor = try Row.fetchCursor(db.cachedStatement(sql: query.selectOne), arguments: [pk])
            return try withExtendedLifetime(cursor) {
                guard let row = try cursor.next() else { return nil }
                return try query.storedRow(row, store: self)
            }
        }
    }

    /// Many objects' rows in one query per entity (and per 500 keys), in the order asked.
    public func rows(for objectIDs: [ManagedObjectID]) throws -> [StoredRow] {
        var byEntity: [String: [Int64]] = [:]
        for id in objectIDs { if let pk = id.primaryKey { byEntity[id.entityName, default: []].append(pk) } }
        var found: [ManagedObjectID: StoredRow] = [:]
        try reading { db in
            for (entity, keys) in byEntity {
                guard let query = rowQueries[entity] else { continue }
                var start = 0
                while start < keys.count {
                    let chunk = Array(keys[start..<min(keys.count, start + 500)])
                    start += chunk.count
                    let statement = try db.cachedStatement(sql: query.selectMany(chunk.count))
                    let cursor = try Row.fetchCursor(statement, arguments: StatementArguments(chunk))
                    while let row = try cursor.next() {
                        let stored = try query.storedRow(row, store: self)
                        found[stored.objectID] = stored
                    }
                }
            }
        }
        return objectIDs.compactMap { found[$0] }
    }

    /// The members of a to-many relationship, read from the inverse's foreign key or the join table.
    public func relatedObjectIDs(of objectID: ManagedObjectID, relationship: RelationshipDescription) throws -> [ManagedObjectID] {
        try reading { db in try relatedObjectIDs(of: objectID, relationship: relationship, in: db) }
    }

    func relatedObjectIDs(of objectID: ManagedObjectID, relationship: RelationshipDescription,
                          in db: Database) throws -> [ManagedObjectID] {
        guard let pk = objectID.primaryKey, let mapping = schema.mapping(for: objectID.entityName),
              let storage = mapping.toManyStorage(for: relationship.name),
              let destination = schema.mapping(for: relationship.destinationEntityName) else { return [] }
        let order = mapping.orderColumns[relationship.name]
        var select: SQLSelect
        switch storage {
        case .foreignKey(let table, let column):
            select = SQLSelect(columns: [.column("Z_PK"), .column("Z_ENT")], from: .table(table), filter: .column(column) == .parameter)
            select.orderBy = (order.map { [SQLOrdering(.column($0))] } ?? []) + [SQLOrdering(.column("Z_PK"))]
        case .joinTable(let name, let own, let other):
            select = SQLSelect(columns: [.column("Z_PK", of: "d"), .column("Z_ENT", of: "d")], from: .table(name, as: "j"),
                               joins: [SQLJoin(.inner, destination.table.name, as: "d", on: .column("Z_PK", of: "d") == .column(other, of: "j"))],
                               filter: .column(own, of: "j") == .parameter)
            select.orderBy = (order.map { [SQLOrdering(.column($0, of: "j"))] } ?? []) + [SQLOrdering(.column("Z_PK", of: "d"))]
        }
        let sql = select.sqlite
        let statement = try db.cachedStatement(sql: sql)
        var ids: [ManagedObjectID] = []
        let cursor = try Row.fetchCursor(statement, arguments: [pk])
        while let row = try cursor.next() {
            let name = schema.entityName(forNumber: row[1]) ?? destination.entity.name
            guard case .int64(let key) = (row[0] as DatabaseValue).storage, key > 0 else {
                throw damagedKey(row[0], table: destination.table.name)
            }
            ids.append(self.objectID(entityName: name, primaryKey: key))
        }
        return ids
    }
}

extension SQLiteStore {
    /// The error for a row whose `Z_PK` is not what Core Data keeps there (a whole number from
    /// 1 on): another program's NULL, text or real would otherwise read as a key no row has,
    /// and the object as one deleted elsewhere.
    func damagedKey(_ value: DatabaseValue, table: String) -> ObjectGraphError {
        .storeDamaged(file: url?.path ?? ":memory:",
                      detail: "\(table) has a row whose Z_PK is \(value.isNull ? "NULL" : "\(value)"), where Core Data keeps a whole number from 1 on")
    }
}
