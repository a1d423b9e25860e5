import Foundation
import GRDB
import ObjectGraph
import ObjectModel
import Predicates

extension SQLiteStore {
    /// Writes a save in one immediate transaction: primary keys from `Z_PRIMARYKEY`,
    /// `INSERT` for new rows, `UPDATE ... WHERE Z_PK = ? AND Z_OPT = ?` for changed ones and
    /// `DELETE ... WHERE Z_PK = ? AND Z_OPT = ?` for deleted ones; a statement that changes
    /// no row is a conflict, reported with the row as it now is.
    ///
    /// - Throws: `MergeConflictError` listing every conflict (nothing is written), unless
    ///   `changes.overwritesConflicts`; the database's error, after rolling back.
    public func save(_ changes: StoreChanges) throws -> StoreSaveResult {
        guard !isReadOnly else { throw ObjectGraphError.readOnlyStore(url?.path ?? identifier) }
        var result = StoreSaveResult()
        do {
            try database.inTransaction(.immediate) { db in
                result = try write(changes, in: db)
                return .commit
            }
        } catch let error as MergeConflictError {
            throw error
        } catch let error as ObjectGraphError {
            throw error
        } catch {
            throw ObjectGraphError.storeFormat(file: url?.path ?? ":memory:", reason: "save failed: \(Self.describe(error))")
        }
        return result
    }

    private func write(_ changes: StoreChanges, in db: Database) throws -> StoreSaveResult {
        var result = StoreSaveResult()
        var conflicts: [MergeConflict] = []

        // Primary keys, from the root entity's counter.
        var countsByRoot: [String: Int64] = [:]
        for row in changes.inserted {
            guard let mapping = schema.mapping(for: row.objectID.entityName) else {
                throw ObjectGraphError.unknownEntity(row.objectID.entityName)
            }
            countsByRoot[mapping.table.rootEntityName, default: 0] += 1
        }
        var nextKey: [String: Int64] = [:]
        for (root, count) in countsByRoot {
            let number = schema.mapping(for: root)!.number
            let max = try Int64.fetchOne(db.cachedStatement(sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?"),
                                         arguments: [number]) ?? 0
            let tableMax = try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM \(schema.mapping(for: root)!.table.name)") ?? 0
            let start = Swift.max(max, tableMax) + 1
            nextKey[root] = start
            try db.cachedStatement(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?")
                .execute(arguments: [start + count - 1, number])
        }
        for row in changes.inserted {
            let mapping = schema.mapping(for: row.objectID.entityName)!
            let root = mapping.table.rootEntityName
            let key = nextKey[root]!
            nextKey[root] = key + 1
            result.permanentIDs[row.objectID] = objectID(entityName: row.objectID.entityName, primaryKey: key)
        }
        let permanent = result.permanentIDs
        func key(_ id: ManagedObjectID) -> Int64? { (permanent[id] ?? id).primaryKey }

        // Updates and deletes first check the version the context read.
        for row in changes.updated {
            guard let mapping = schema.mapping(for: row.objectID.entityName), let pk = row.objectID.primaryKey else { continue }
            let statement = try db.cachedStatement(sql: updateSQL(mapping, checksVersion: !changes.overwritesConflicts))
            var arguments = values(of: row, mapping: mapping, key: key)
            arguments.append(pk.databaseValue)
            if !changes.overwritesConflicts { arguments.append(row.version.databaseValue) }
            try statement.execute(arguments: StatementArguments(arguments))
            if db.changesCount == 0 {
                let persisted = try storedRow(pk: pk, entity: row.objectID.entityName, in: db)
                conflicts.append(MergeConflict(objectID: row.objectID, oldVersion: row.version,
                                               newVersion: persisted?.version ?? 0, persisted: persisted))
                continue
            }
            let version = changes.overwritesConflicts
                ? try Int64.fetchOne(db.cachedStatement(sql: "SELECT Z_OPT FROM \(mapping.table.name) WHERE Z_PK = ?"), arguments: [pk]) ?? row.version + 1
                : row.version + 1
            result.versions[row.objectID] = version
        }
        for (id, version) in changes.deleted {
            guard let mapping = schema.mapping(for: id.entityName), let pk = id.primaryKey else { continue }
            let sql = changes.overwritesConflicts
                ? "DELETE FROM \(mapping.table.name) WHERE Z_PK = ?"
                : "DELETE FROM \(mapping.table.name) WHERE Z_PK = ? AND Z_OPT = ?"
            try db.cachedStatement(sql: sql).execute(arguments: changes.overwritesConflicts ? [pk] : [pk, version])
            if db.changesCount == 0, let persisted = try storedRow(pk: pk, entity: id.entityName, in: db) {
                conflicts.append(MergeConflict(objectID: id, oldVersion: version, newVersion: persisted.version, persisted: persisted))
                continue
            }
            for (_, storage) in mapping.toMany {
                if case .joinTable(let name, let own, _) = storage {
                    try db.cachedStatement(sql: "DELETE FROM \(name) WHERE \(own) = ?").execute(arguments: [pk])
                }
            }
        }
        if !conflicts.isEmpty { throw MergeConflictError(conflicts: conflicts) }

        for row in changes.inserted {
            let mapping = schema.mapping(for: row.objectID.entityName)!
            let pk = key(row.objectID)!
            let statement = try db.cachedStatement(sql: insertSQL(mapping))
            var arguments: [DatabaseValue] = [pk.databaseValue, mapping.number.databaseValue, 1.databaseValue]
            arguments += values(of: row, mapping: mapping, key: key)
            try statement.execute(arguments: StatementArguments(arguments))
            result.versions[permanent[row.objectID]!] = 1
        }
        for row in changes.inserted + changes.updated {
            try writeToMany(row, key: key, in: db)
        }
        return result
    }

    /// The attribute and foreign-key values of a row, in the order of `insertSQL`/`updateSQL`.
    private func values(of row: StoredRow, mapping: StoreSchema.EntityMapping,
                        key: (ManagedObjectID) -> Int64?) -> [DatabaseValue] {
        var arguments: [DatabaseValue] = []
        arguments.reserveCapacity(mapping.attributes.count + mapping.toOne.count * 2)
        for (attribute, _) in mapping.attributes {
            arguments.append(DatabaseValueCoding.databaseValue(row.attributes[attribute.name] ?? .null))
        }
        for (relationship, fk) in mapping.toOne {
            let destination = row.toOne[relationship.name]
            arguments.append(destination.flatMap(key)?.databaseValue ?? .null)
            if fk.entityColumn != nil {
                arguments.append(destination.flatMap { schema.mapping(for: $0.entityName)?.number }?.databaseValue ?? .null)
            }
        }
        return arguments
    }

    private func assignedColumns(_ mapping: StoreSchema.EntityMapping) -> [String] {
        var columns = mapping.attributes.map(\.column)
        for (_, fk) in mapping.toOne {
            columns.append(fk.column)
            if let e = fk.entityColumn { columns.append(e) }
        }
        return columns
    }

    private func insertSQL(_ mapping: StoreSchema.EntityMapping) -> String {
        let columns = ["Z_PK", "Z_ENT", "Z_OPT"] + assignedColumns(mapping)
        return "INSERT INTO \(mapping.table.name) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
    }

    private func updateSQL(_ mapping: StoreSchema.EntityMapping, checksVersion: Bool) -> String {
        let sets = ["Z_OPT = Z_OPT + 1"] + assignedColumns(mapping).map { "\($0) = ?" }
        return "UPDATE \(mapping.table.name) SET \(sets.joined(separator: ", ")) WHERE Z_PK = ?" + (checksVersion ? " AND Z_OPT = ?" : "")
    }

    /// Writes the to-many relationships a row carries: join-table rows, and foreign keys
    /// of relationships that have no inverse (those with one are written by the inverse).
    private func writeToMany(_ row: StoredRow, key: (ManagedObjectID) -> Int64?, in db: Database) throws {
        guard !row.toMany.isEmpty, let mapping = schema.mapping(for: row.objectID.entityName), let pk = key(row.objectID) else { return }
        for (relationship, storage) in mapping.toMany {
            guard let members = row.toMany[relationship.name] else { continue }
            switch storage {
            case .joinTable(let name, let own, let other):
                try db.cachedStatement(sql: "DELETE FROM \(name) WHERE \(own) = ?").execute(arguments: [pk])
                let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO \(name) (\(own), \(other)) VALUES (?, ?)")
                for member in members {
                    if let m = key(member) { try insert.execute(arguments: [pk, m]) }
                }
            case .foreignKey(let table, let column):
                guard relationship.inverseName == nil else { continue }
                try db.cachedStatement(sql: "UPDATE \(table) SET \(column) = NULL WHERE \(column) = ?").execute(arguments: [pk])
                let set = try db.cachedStatement(sql: "UPDATE \(table) SET \(column) = ? WHERE Z_PK = ?")
                for member in members {
                    if let m = key(member) { try set.execute(arguments: [pk, m]) }
                }
            }
        }
    }

    /// A row as it is in the database now, within the save's transaction.
    private func storedRow(pk: Int64, entity: String, in db: Database) throws -> StoredRow? {
        guard let query = rowQueries[entity] else { return nil }
        guard let row = try Row.fetchOne(db.cachedStatement(sql: query.selectOne), arguments: [pk]) else { return nil }
        var stored = query.storedRow(row, store: self)
        for (relationship, _) in query.mapping.toMany {
            stored.toMany[relationship.name] = try relatedObjectIDs(of: stored.objectID, relationship: relationship, in: db)
        }
        return stored
    }
}
