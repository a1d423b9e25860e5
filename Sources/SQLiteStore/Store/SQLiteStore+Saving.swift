import CSQLiteConfig
import Foundation
import GRDB
import ObjectGraph
import ObjectModel
import Predicates
import SQLSyntax

extension SQLiteStore {
    /// Writes a save in one immediate transaction: primary keys from `Z_PRIMARYKEY`,
    /// `INSERT` for new rows, `UPDATE ... WHERE Z_PK = ? AND Z_OPT = ?` for changed ones and
    /// `DELETE ... WHERE Z_PK = ? AND Z_OPT = ?` for deleted ones; a statement that changes
    /// no row is a conflict, reported with the row as it now is.
    ///
    /// - Throws: `MergeConflictError` listing every conflict (nothing is written), unless
    ///   `changes.overwritesConflicts`; the database's error, after rolling back.
    public func save(_ changes: StoreChanges) throws -> StoreSaveResult {
        try writing(keepsOwnErrors: false) { db, files in
            let transaction = historyState.enabled ? try beginHistoryTransaction(changes.transaction, in: db) : nil
            var result = try write(changes, in: db, files: files)
            if let transaction {
                result.transactionNumber = try endHistoryTransaction(transaction, inserted: result.insertedIDs,
                                                                     owners: ownersJoined(by: changes), in: db)
            }
            return result
        }
    }

    /// Writes new rows in one immediate transaction, handed over in parts (see
    /// `BulkInsertingStore`): keys are taken from `Z_PRIMARYKEY` first, each part is written
    /// as a save writes its inserts (the history recording each), and the transaction
    /// commits after the last part, or rolls back on any error, the files written for its
    /// external data removed. An error of `body`'s is thrown as it is.
    public func insertInOneTransaction(counts: [String: Int], transaction info: TransactionInfo,
                                       _ body: (_ firstKeys: [String: Int64], _ write: ([StoredRow]) throws -> Void) throws -> Void) throws -> Int64? {
        try writing(keepsOwnErrors: true) { db, files in
            // Each root's keys in one run, handed to its entities in name order.
            let roots = rootNames
            var byRoot: [String: Int64] = [:]
            for (name, count) in counts {
                guard let root = roots[name] else { throw ObjectGraphError.unknownEntity(name) }
                byRoot[root, default: 0] += Int64(count)
            }
            var next: [String: Int64] = [:]
            for (root, count) in byRoot where count > 0 { next[root] = try reserveKeys(count, root: root, in: db) }
            var firstKeys: [String: Int64] = [:]
            for (name, count) in counts.sorted(by: { $0.key < $1.key }) {
                let root = roots[name]!
                firstKeys[name] = next[root] ?? 1
                next[root, default: 1] += Int64(count)
            }
            let number = historyState.enabled ? try beginHistoryTransaction(info, in: db) : nil
            try body(firstKeys) { rows in
                let written = try write(StoreChanges(inserted: rows), in: db, files: files)
                // Every row is new, owners too: their inserts say all, and an owner
                // written in a later part gets no update of its own.
                if let number { try recordInserts(written.insertedIDs, transaction: number, in: db) }
            }
            return try number.flatMap { try endHistoryTransaction($0, inserted: [], in: db) }
        }
    }

    /// Runs `body` in one immediate transaction of the writer, as every save does: the file
    /// checked to be the one opened, under the write lock (a connection to a file removed or
    /// replaced since it was opened would write where nobody will look); on any error the
    /// transaction rolled back and the external files it wrote removed, and once committed
    /// the files it made obsolete removed. The database's errors are thrown as store errors
    /// (naming damage where they find it); other errors too, unless `keepsOwnErrors` (the
    /// caller's own, such as a user giving up, pass as they are).
    private func writing<T>(keepsOwnErrors: Bool, _ body: (Database, ExternalDataChanges) throws -> T) throws -> T {
        guard !isReadOnly else { throw ObjectGraphError.readOnlyStore(url?.path ?? identifier) }
        let files = ExternalDataChanges()
        var value: T?
        do {
            switchToWALMode()
            do {
                try database.inTransaction(.immediate) { db in
                    if let url { try StoreFiles.checkStillOpened(openedFile, at: url) }
                    value = try body(db, files)
                    return .commit
                }
                if historyState.enabled { historyState.installed = true }
            } catch {
                externalData.remove(files.written)
                throw error
            }
            externalData.remove(files.obsolete)
        } catch let error as MergeConflictError {
            throw error
        } catch let error as ObjectGraphError {
            throw error
        } catch where keepsOwnErrors && !(error is DatabaseError) {
            throw error
        } catch {
            if case let damaged as ObjectGraphError = Self.damage(error, path: url?.path ?? ":memory:") { throw damaged }
            if let clash = uniquenessClash(error) {
                throw ObjectGraphError.storeFormat(file: url?.path ?? ":memory:", reason: "save failed, nothing written: \(clash)")
            }
            throw ObjectGraphError.storeFormat(file: url?.path ?? ":memory:", reason: "save failed: \(Self.describe(error))")
        }
        return value!
    }

    /// A save refused by a uniqueness constraint's index, in the model's words: another writer
    /// stored the same values since the context checked them.
    func uniquenessClash(_ error: Error) -> String? {
        guard let error = error as? DatabaseError, error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE,
              let message = error.message, let failed = message.range(of: "UNIQUE constraint failed: ") else { return nil }
        let columns = message[failed.upperBound...].split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).split(separator: ".").last.map(String.init) ?? ""
        }
        guard let index = schema.tables.flatMap(\.indexes).first(where: { $0.isUnique && $0.columns == columns }),
              let separator = index.name.range(of: "_UNIQUE_") else { return nil }
        let entity = String(index.name[index.name.index(index.name.startIndex, offsetBy: 2)..<separator.lowerBound])
        let suffix = String(index.name[separator.upperBound...])
        let constraint = model.entity(named: entity)?.declaration.uniquenessConstraints.first { $0.joined(separator: "_") == suffix }
        let properties = (constraint ?? [suffix]).joined(separator: ", ")
        return "another object of \(entity) already has the same \(properties) (the uniqueness constraint's index \(index.name))"
    }

    private func write(_ changes: StoreChanges, in db: Database, files: ExternalDataChanges) throws -> StoreSaveResult {
        var result = StoreSaveResult()
        var conflicts: [MergeConflict] = []

        // Primary keys, from the root entity's counter, for rows that have none yet (a row
        // may come with a key handed out before, by `obtainPermanentIDs`). Inserted rows come
        // in runs of one entity, so names are looked up once per run rather than once per row.
        let runs = Self.entityRuns(changes.inserted)
        var countsByRoot: [String: Int64] = [:]
        let roots = rootNames
        for run in runs {
            guard let root = roots[run.entity] else { throw ObjectGraphError.unknownEntity(run.entity) }
            let fresh = changes.inserted[run.rows].lazy.filter { !self.hasKey($0.objectID) }.count
            if fresh > 0 { countsByRoot[root, default: 0] += Int64(fresh) }
        }
        var nextKey: [String: Int64] = [:]
        for (root, count) in countsByRoot { nextKey[root] = try reserveKeys(count, root: root, in: db) }
        result.versions.reserveCapacity(changes.updated.count)
        result.insertedIDs.reserveCapacity(changes.inserted.count)
        for run in runs {
            let root = roots[run.entity]!
            var key = nextKey[root] ?? 0
            for i in run.rows {
                let id = changes.inserted[i].objectID
                if hasKey(id) {
                    result.insertedIDs.append(id)
                    continue
                }
                result.insertedIDs.append(objectID(entityName: run.entity, primaryKey: key))
                key &+= 1   // the key after the last one handed out may be past the largest; it is not used
            }
            nextKey[root] = key
        }
        // Rows refer to one another by temporary ID; only relationships need the map.
        let referenced = changes.inserted.contains { !$0.toOne.isEmpty || !$0.toMany.isEmpty }
            || changes.updated.contains { !$0.toOne.isEmpty || !$0.toMany.isEmpty }
        let permanent = referenced ? result.permanentIDs(for: changes) : [:]
        func key(_ id: ManagedObjectID) -> Int64? { (permanent[id] ?? id).primaryKey }

        // Updates and deletes first check the version the context read.
        let numbers = entityNumbers
        func entityNumber(_ id: ManagedObjectID) -> Int? { numbers[id.entityName] }
        // Deletes before updates: a value an object gives up by going is free for another to
        // take in the same save, as a uniqueness constraint's index requires.
        for (id, version) in changes.deleted {
            guard let mapping = schema.mapping(for: id.entityName), let pk = id.primaryKey else { continue }
            let referenced = try rowWriters[id.entityName]?.externalFileNames(primaryKey: pk, in: db) ?? [:]
            let sql = SQLStatement.delete(from: mapping.table.name, where: changes.overwritesConflicts
                ? Self.thisRow : .and([Self.thisRow, .column("Z_OPT") == .parameter])).sqlite
            try db.cachedStatement(sql: sql).execute(arguments: changes.overwritesConflicts ? [pk] : [pk, version])
            if db.changesCount == 0, let persisted = try storedRow(pk: pk, entity: id.entityName, in: db) {
                conflicts.append(MergeConflict(objectID: id, oldVersion: version, newVersion: persisted.version, persisted: persisted))
                continue
            }
            files.obsolete += referenced.values
            for (_, storage) in mapping.toMany {
                if case .joinTable(let name, let own, _) = storage {
                    try db.cachedStatement(sql: SQLStatement.delete(from: name, where: .column(own) == .parameter).sqlite).execute(arguments: [pk])
                }
            }
        }
        for row in changes.updated {
            guard let writer = rowWriters[row.objectID.entityName], let pk = row.objectID.primaryKey else { continue }
            let mapping = writer.mapping
            // Files the row referred to become obsolete unless the new values keep them.
            let previous = try writer.externalFileNames(primaryKey: pk, in: db)
            var kept: Set<String> = []
            let encoder: RowWriter.ExternalEncoder? = writer.hasExternalColumns ? { column, bytes in
                let (value, written) = try self.externalData.stored(bytes, previous: previous[column])
                if let written { files.written.append(written) } else if let name = ExternalData.fileName(of: value) { kept.insert(name) }
                return value
            } : nil
            let changed = try writer.update(row, primaryKey: pk, checkingVersion: !changes.overwritesConflicts, in: db,
                                            key: key, entityNumber: entityNumber, external: encoder)
            if changed { files.obsolete += previous.values.filter { !kept.contains($0) } }
            if !changed {
                let persisted = try storedRow(pk: pk, entity: row.objectID.entityName, in: db)
                conflicts.append(MergeConflict(objectID: row.objectID, oldVersion: row.version,
                                               newVersion: persisted?.version ?? 0, persisted: persisted))
                continue
            }
            let version = changes.overwritesConflicts
                ? try Int64.fetchOne(db.cachedStatement(sql: SQLSelect(columns: [.column("Z_OPT")], from: .table(mapping.table.name),
                                                                   filter: Self.thisRow).sqlite), arguments: [pk])
                    ?? RowWriter.nextVersion(after: row.version)
                : RowWriter.nextVersion(after: row.version)
            result.versions[row.objectID] = version
        }
        if !conflicts.isEmpty { throw MergeConflictError(conflicts: conflicts) }

        // The history's insert triggers file other programs' rows; this save files its own at
        // the end, set-based. Join tables' triggers record the owners a member joins: they
        // are written after, with the triggers on.
        try insertingWithoutTriggers(changes.inserted.count, in: db) {
            for run in runs {
                let writer = rowWriters[run.entity]!
                let encoder: RowWriter.ExternalEncoder? = writer.hasExternalColumns ? { _, bytes in
                    let (value, written) = try self.externalData.stored(bytes, previous: nil)
                    if let written { files.written.append(written) }
                    return value
                } : nil
                for i in run.rows {
                    try writer.insert(changes.inserted[i], primaryKey: result.insertedIDs[i].primaryKey!, in: db,
                                      key: key, entityNumber: entityNumber, external: encoder)
                }
            }
        }
        for row in changes.inserted where !row.toMany.isEmpty { try writeToMany(row, key: key, in: db) }
        for row in changes.updated where !row.toMany.isEmpty { try writeToMany(row, key: key, in: db) }
        return result
    }

    /// Whether `count` new rows go in with the connection's triggers off: a store that
    /// keeps history, many rows (turning the triggers off and on prepares the save's
    /// statements again), and no trigger in the file but the history's, whose insert
    /// triggers do nothing for this store's own saves. A trigger of another program's (an
    /// Apple store's derived attributes) keeps them on.
    func insertsWithoutTriggers(_ count: Int, in db: Database) throws -> Bool {
        guard historyState.enabled, count >= Self.rowsInsertedWithoutTriggers else { return false }
        return try !(Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND substr(name, 1, ?) <> ?)"),
                                   arguments: [HistorySchema.triggerPrefix.count, HistorySchema.triggerPrefix]) ?? true)
    }

    /// How many new rows a save needs for them to go in with the triggers off.
    package static let rowsInsertedWithoutTriggers = 256

    /// Runs `body`, which inserts `count` new rows, with the connection's triggers off when
    /// `insertsWithoutTriggers` says so, and on again after it, whether it throws or not (a
    /// failure to turn them on again fails the transaction rather than leaving them off).
    func insertingWithoutTriggers<T>(_ count: Int, in db: Database, _ body: () throws -> T) throws -> T {
        guard try insertsWithoutTriggers(count, in: db) else { return try body() }
        try setTriggers(enabled: false, in: db)
        let value: T
        do {
            value = try body()
        } catch {
            try? setTriggers(enabled: true, in: db)
            throw error
        }
        try setTriggers(enabled: true, in: db)
        return value
    }

    /// Turns this connection's triggers on or off.
    private func setTriggers(enabled: Bool, in db: Database) throws {
        let code = termdata_sqlite_enable_triggers(UnsafeMutableRawPointer(db.sqliteConnection), enabled ? 1 : 0)
        guard code == ResultCode.SQLITE_OK.rawValue else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
    }

    /// The positions of consecutive rows of one entity.
    /// Whether an inserted row's ID is a key of this store already, handed out by
    /// `obtainPermanentIDs` before the save.
    private func hasKey(_ id: ManagedObjectID) -> Bool {
        id.primaryKey != nil && id.storeIdentifier == identifier
    }

    /// Takes `count` keys from a root entity's counter in `Z_PRIMARYKEY` and returns the
    /// first; the counter records the last, so no other save or connection hands them out.
    func reserveKeys(_ count: Int64, root: String, in db: Database) throws -> Int64 {
        let number = schema.mapping(for: root)!.number
        let max = try Int64.fetchOne(db.cachedStatement(sql: SQLSelect(columns: [.column("Z_MAX")], from: .table("Z_PRIMARYKEY"),
                                                                       filter: .column("Z_ENT") == .parameter).sqlite),
                                     arguments: [number]) ?? 0
        let tableMax = try Int64.fetchOne(db, sql: SQLSelect(columns: [.function("MAX", [.column("Z_PK")])],
                                                            from: .table(schema.mapping(for: root)!.table.name)).sqlite) ?? 0
        // Z_MAX and Z_PK come from a file another program may have written: the keys
        // handed out must stay within 64 bits.
        let highest = Swift.max(max, tableMax)
        guard highest <= Int64.max - count else {
            throw ObjectGraphError.primaryKeysExhausted(file: url?.path ?? identifier, entity: root)
        }
        try db.cachedStatement(sql: SQLStatement.update("Z_PRIMARYKEY", set: [("Z_MAX", .parameter)],
                                                         where: .column("Z_ENT") == .parameter).sqlite)
            .execute(arguments: [highest + count, number])
        return highest + 1
    }

    /// Permanent IDs for objects not saved yet, one per entity name, in order: their keys
    /// are taken from the counters in one transaction, so a later save writes the rows
    /// under them.
    public func obtainPermanentIDs(for entityNames: [String]) throws -> [ManagedObjectID] {
        guard !entityNames.isEmpty else { return [] }
        guard !isReadOnly else { throw ObjectGraphError.readOnlyStore(url?.path ?? identifier) }
        let roots = rootNames
        var counts: [String: Int64] = [:]
        for name in entityNames {
            guard let root = roots[name] else { throw ObjectGraphError.unknownEntity(name) }
            counts[root, default: 0] += 1
        }
        var next: [String: Int64] = [:]
        do {
            switchToWALMode()
            try database.inTransaction(.immediate) { db in
                if let url { try StoreFiles.checkStillOpened(openedFile, at: url) }
                for (root, count) in counts { next[root] = try reserveKeys(count, root: root, in: db) }
                return .commit
            }
        } catch let error as ObjectGraphError {
            throw error
        } catch {
            if case let damaged as ObjectGraphError = Self.damage(error, path: url?.path ?? ":memory:") { throw damaged }
            throw ObjectGraphError.storeFormat(file: url?.path ?? ":memory:", reason: "could not hand out keys: \(Self.describe(error))")
        }
        return entityNames.map { name in
            let root = roots[name]!
            defer { next[root]! &+= 1 }
            return objectID(entityName: name, primaryKey: next[root]!)
        }
    }

    static func entityRuns(_ rows: [StoredRow]) -> [(entity: String, rows: Range<Int>)] {
        var runs: [(entity: String, rows: Range<Int>)] = []
        var start = 0
        for i in rows.indices where i > start && rows[i].objectID.entityName != rows[start].objectID.entityName {
            runs.append((rows[start].objectID.entityName, start..<i))
            start = i
        }
        if start < rows.count { runs.append((rows[start].objectID.entityName, start..<rows.count)) }
        return runs
    }

    /// Writes the to-many relationships a row carries: join-table rows (only those that
    /// changed, so the other side's order survives), foreign keys of relationships that have
    /// no inverse (those with one are written by the inverse), and member positions of
    /// ordered relationships.
    private func writeToMany(_ row: StoredRow, key: (ManagedObjectID) -> Int64?, in db: Database) throws {
        guard !row.toMany.isEmpty, let mapping = schema.mapping(for: row.objectID.entityName), let pk = key(row.objectID) else { return }
        for (relationship, storage) in mapping.toMany {
            guard let members = row.toMany[relationship.name] else { continue }
            let keys = members.compactMap(key)
            let order = mapping.orderColumns[relationship.name]
            switch storage {
            case .joinTable(let name, let own, let other):
                let existing = Set(try Int64.fetchAll(db.cachedStatement(sql: SQLSelect(columns: [.column(other)], from: .table(name),
                                                                                       filter: .column(own) == .parameter).sqlite), arguments: [pk]))
                let wanted = Set(keys)
                let delete = try db.cachedStatement(sql: SQLStatement.delete(from: name, where: .and([.column(own) == .parameter,
                                                                                                  .column(other) == .parameter])).sqlite)
                for gone in existing.subtracting(wanted) { try delete.execute(arguments: [pk, gone]) }
                let insert = try db.cachedStatement(sql: SQLStatement.insert(into: name, columns: [own, other], values: [.parameter, .parameter],
                                                                               orIgnore: true).sqlite)
                for m in keys where !existing.contains(m) { try insert.execute(arguments: [pk, m]) }
                if let order {
                    let position = try db.cachedStatement(sql: SQLStatement.update(name, set: [(order, .parameter)], where: .and([
                        .column(own) == .parameter, .column(other) == .parameter])).sqlite)
                    for (i, m) in keys.enumerated() { try position.execute(arguments: [i + 1, pk, m]) }
                }
            case .foreignKey(let table, let column):
                if relationship.inverseName == nil {
                    try db.cachedStatement(sql: SQLStatement.update(table, set: [(column, .null)], where: .column(column) == .parameter).sqlite).execute(arguments: [pk])
                    let set = try db.cachedStatement(sql: SQLStatement.update(table, set: [(column, .parameter)], where: Self.thisRow).sqlite)
                    for m in keys { try set.execute(arguments: [pk, m]) }
                }
                if let order {
                    let position = try db.cachedStatement(sql: SQLStatement.update(table, set: [(order, .parameter)], where: Self.thisRow).sqlite)
                    for (i, m) in keys.enumerated() { try position.execute(arguments: [i + 1, m]) }
                }
            }
        }
    }

    /// A row as it is in the database now, within the save's transaction.
    private func storedRow(pk: Int64, entity: String, in db: Database) throws -> StoredRow? {
        guard let query = rowQueries[entity] else { return nil }
        let cursor = try Row.fetchCursor(db.cachedStatement(sql: query.selectOne), arguments: [pk])
        guard let row = try cursor.next() else { return nil }
        var stored = try withExtendedLifetime(cursor) { try query.storedRow(row, store: self) }
        for (relationship, _) in query.mapping.toMany {
            stored.toMany[relationship.name] = try relatedObjectIDs(of: stored.objectID, relationship: relationship, in: db)
        }
        return stored
    }

    /// `Z_PK = ?`: the row whose key the statement is given.
    static let thisRow = SQLExpression.column("Z_PK") == .parameter
}

extension SQLiteStore: BulkInsertingStore {}
