import Foundation
import ObjectGraph
import ObjectModel
import PostgresNIO
import Predicates
import SQLSyntax

extension PostgresStore {
    /// Writes a save in one transaction: keys from the roots' sequences, `UPDATE ... WHERE
    /// Z_PK = $1 AND Z_OPT = $2` for changed rows and the same test for deleted ones (a
    /// statement that changes no row is a conflict, reported with the row as it now is),
    /// then the new rows, many to a statement.
    ///
    /// - Throws: `MergeConflictError` listing every conflict (nothing is written), unless
    ///   `changes.overwritesConflicts`; `PostgresStoreError.unreachable` when the server went
    ///   away, and the transaction rolled back with it. Either way the store is as it was.
    public func save(_ changes: StoreChanges) throws -> StoreSaveResult {
        guard !isReadOnly else { throw ObjectGraphError.readOnlyStore(location.description) }
        try checkStorable(changes)
        let recording = tracksHistory
        var txid: Int64?
        var result = try connections.inTransaction { session in
            try checkVersion(in: session)
            if recording { txid = try nameHistoryTransaction(changes.transaction, in: session) }
            return try write(changes, in: session)
        }
        // Numbered at the commit, in commit order: read once it is done.
        if let txid { result.transactionNumber = try historyNumber(ofDatabaseTransaction: txid) }
        return result
    }

    /// Refuses the save when another client migrated the store since it was opened: the rows
    /// this client would write no longer fit the tables. The row lock makes a migration wait
    /// for saves in flight, and saves that start during one wait for it, then see it.
    func checkVersion(in session: PostgresConnections.Session) throws {
        guard try Self.metadataDigest(session, lockingForSave: true) != metadataDigest else { return }
        let now = try Self.readMetadata(session, place: location.description)
        throw PostgresStoreError.migratedMeanwhile(location: location.description,
                                                   differingEntities: model.entitiesDiffering(fromVersionHashes: now.versionHashes))
    }

    private func write(_ changes: StoreChanges, in session: PostgresConnections.Session) throws -> StoreSaveResult {
        var result = StoreSaveResult()
        // Keys for new rows that have none yet, from each root's sequence.
        var fresh: [String: Int] = [:]
        for row in changes.inserted where !hasKey(row.objectID) {
            guard let root = rootNames[row.objectID.entityName] else { throw ObjectGraphError.unknownEntity(row.objectID.entityName) }
            fresh[root, default: 0] += 1
        }
        var keys: [String: (keys: [Int64], next: Int)] = [:]
        for (root, count) in fresh { keys[root] = (try takeKeys(count, root: root, in: session), 0) }
        result.insertedIDs.reserveCapacity(changes.inserted.count)
        for row in changes.inserted {
            if hasKey(row.objectID) {
                result.insertedIDs.append(row.objectID)
            } else {
                let root = rootNames[row.objectID.entityName]!
                let key = keys[root]!.keys[keys[root]!.next]
                keys[root]!.next += 1
                result.insertedIDs.append(objectID(entityName: row.objectID.entityName, primaryKey: key))
            }
        }
        let referenced = changes.inserted.contains { !$0.toOne.isEmpty || !$0.toMany.isEmpty }
            || changes.updated.contains { !$0.toOne.isEmpty || !$0.toMany.isEmpty }
        let permanent = referenced ? result.permanentIDs(for: changes) : [:]
        let key: (ManagedObjectID) -> Int64? = { (permanent[$0] ?? $0).primaryKey }

        var conflicts: [MergeConflict] = []
        for row in changes.updated {
            guard let mapping = layout.mapping(for: row.objectID.entityName), let pk = row.objectID.primaryKey else { continue }
            let (columns, values) = try columnValues(row, mapping: mapping, key: key)
            let nextVersion = SQLExpression.binary(.binary(.column("Z_OPT"), .remainder, .literal(Int64.max)), .plus, .literal(1))
            var condition = SQLExpression.column("Z_PK") == .value(.integer(pk))
            if !changes.overwritesConflicts { condition = .and([condition, .column("Z_OPT") == .value(.integer(row.version))]) }
            let update = SQLStatement.update(mapping.table.name, set: [("Z_OPT", nextVersion)] + zip(columns, values.map(SQLExpression.value)).map { ($0, $1) },
                                             where: condition)
            let rendered = Self.dialect.render(update)
            let answer = try session.run(RenderedSQL(sql: rendered.sql + #" RETURNING "Z_OPT""#, arguments: rendered.arguments))
            if let version = try answer.first.flatMap({ try PostgresValueCoding.integer(Array($0)[0]) }) {
                result.versions[row.objectID] = version
            } else {
                let persisted = try persistedRow(row.objectID, in: session)
                conflicts.append(MergeConflict(objectID: row.objectID, oldVersion: row.version,
                                               newVersion: persisted?.version ?? 0, persisted: persisted))
            }
        }
        for (id, version) in changes.deleted {
            guard let mapping = layout.mapping(for: id.entityName), let pk = id.primaryKey else { continue }
            var condition = SQLExpression.column("Z_PK") == .value(.integer(pk))
            if !changes.overwritesConflicts { condition = .and([condition, .column("Z_OPT") == .value(.integer(version))]) }
            let deleted = try session.run(Self.dialect.render(.delete(from: mapping.table.name, where: condition))).changedRows
            if deleted == 0, let persisted = try persistedRow(id, in: session) {
                conflicts.append(MergeConflict(objectID: id, oldVersion: version, newVersion: persisted.version, persisted: persisted))
                continue
            }
            for (_, storage) in mapping.toMany {
                if case .joinTable(let name, let own, _) = storage {
                    try session.run(Self.dialect.render(.delete(from: name, where: .column(own) == .value(.integer(pk)))))
                }
            }
        }
        if !conflicts.isEmpty { throw MergeConflictError(conflicts: conflicts) }

        try insert(changes.inserted, ids: result.insertedIDs, key: key, in: session)
        for row in changes.inserted where !row.toMany.isEmpty { try writeToMany(row, key: key, in: session) }
        for row in changes.updated where !row.toMany.isEmpty { try writeToMany(row, key: key, in: session) }
        return result
    }

    /// Whether an inserted row's ID is a key of this store already, handed out by
    /// `obtainPermanentIDs` before the save.
    private func hasKey(_ id: ManagedObjectID) -> Bool {
        id.primaryKey != nil && id.storeIdentifier == identifier
    }

    /// `count` keys from a root's sequence. Other clients take keys from it at the same time
    /// without waiting: the keys need not follow one another.
    func takeKeys(_ count: Int, root: String, in session: PostgresConnections.Session) throws -> [Int64] {
        let rows = try session.run("SELECT nextval($1::regclass) FROM generate_series(1, $2)",
                                   [.text(Self.dialect.quote(schema.sequence(ofRoot: root))), .integer(Int64(count))])
        return try rows.compactMap { try PostgresValueCoding.integer(Array($0)[0]) }
    }

    public func obtainPermanentIDs(for entityNames: [String]) throws -> [ManagedObjectID] {
        guard !entityNames.isEmpty else { return [] }
        guard !isReadOnly else { throw ObjectGraphError.readOnlyStore(location.description) }
        var counts: [String: Int] = [:]
        for name in entityNames {
            guard let root = rootNames[name] else { throw ObjectGraphError.unknownEntity(name) }
            counts[root, default: 0] += 1
        }
        var keys: [String: [Int64]] = [:]
        try connections.withConnection { session in
            // Reversed, to be taken from the end in order.
            for (root, count) in counts { keys[root] = try takeKeys(count, root: root, in: session).reversed() }
        }
        return entityNames.map { name in objectID(entityName: name, primaryKey: keys[rootNames[name]!]!.removeLast()) }
    }

    /// The columns an insert or update writes after `Z_PK`, `Z_ENT` and `Z_OPT`, and their
    /// values: attributes, to-one keys (with the destination's entity where it has
    /// sub-entities), and the folded copies of string attributes.
    private func columnValues(_ row: StoredRow, mapping: StoreSchema.EntityMapping,
                              key: (ManagedObjectID) -> Int64?) throws -> (columns: [String], values: [SQLValue]) {
        let entity = mapping.entity
        let values = row.values(inOrderOf: entity) ?? entity.attributes.map { row.attributes[$0.name] ?? .null }
        var columns: [String] = []
        var bound: [SQLValue] = []
        for (position, (_, column)) in zip(mapping.attributePositions, mapping.attributes) {
            columns.append(column)
            bound.append(PostgresValueCoding.sqlValue(values[position]))
        }
        for (relationship, fk) in mapping.toOne {
            let destination = row.toOne[relationship.name]
            columns.append(fk.column)
            bound.append(destination.flatMap(key).map(SQLValue.integer) ?? .null)
            if let entityColumn = fk.entityColumn {
                columns.append(entityColumn)
                bound.append(destination.flatMap { layout.mapping(for: $0.entityName)?.number }.map { .integer(Int64($0)) } ?? .null)
            }
        }
        for (position, column, fold) in schema.foldedColumns[entity.name] ?? [] {
            columns.append(column)
            switch values[position] {
            case .string(let text): bound.append(FoldedColumns.value(of: text, fold).map(SQLValue.text) ?? .null)
            case .url(let url): bound.append(FoldedColumns.value(of: url.absoluteString, fold).map(SQLValue.text) ?? .null)
            default: bound.append(.null)
            }
        }
        return (columns, bound)
    }

    /// New rows, as many to a statement as PostgreSQL's 65,535 bound values allow.
    func insert(_ rows: [StoredRow], ids: [ManagedObjectID], key: (ManagedObjectID) -> Int64?,
                        in session: PostgresConnections.Session) throws {
        var start = 0
        while start < rows.count {
            let entity = rows[start].objectID.entityName
            var end = start
            while end < rows.count, rows[end].objectID.entityName == entity { end += 1 }
            guard let mapping = layout.mapping(for: entity) else { throw ObjectGraphError.unknownEntity(entity) }
            var columns: [String] = []
            var batch: [[SQLValue]] = []
            var bound = 0
            func flush() throws {
                guard !batch.isEmpty else { return }
                let names = (["Z_PK", "Z_ENT", "Z_OPT"] + columns).map(Self.dialect.quote).joined(separator: ", ")
                var sql = "INSERT INTO \(Self.dialect.quote(mapping.table.name)) (\(names)) VALUES "
                var arguments: [SQLValue] = []
                arguments.reserveCapacity(bound)
                for (r, values) in batch.enumerated() {
                    sql += r == 0 ? "(" : ", ("
                    for (c, value) in values.enumerated() {
                        arguments.append(value)
                        sql += (c == 0 ? "$" : ", $") + String(arguments.count)
                    }
                    sql += ")"
                }
                try session.run(RenderedSQL(sql: sql, arguments: arguments))
                batch.removeAll(keepingCapacity: true)
                bound = 0
            }
            for i in start..<end {
                let (names, values) = try columnValues(rows[i], mapping: mapping, key: key)
                columns = names
                let all: [SQLValue] = [.integer(ids[i].primaryKey!), .integer(Int64(mapping.number)), .integer(1)] + values
                if bound + all.count > 65_535 { try flush() }
                batch.append(all)
                bound += all.count
            }
            try flush()
            start = end
        }
    }

    /// Writes the to-many relationships a row carries, as the SQLite store does: join-table
    /// rows that changed, foreign keys of relationships without an inverse, and positions of
    /// ordered members.
    private func writeToMany(_ row: StoredRow, key: (ManagedObjectID) -> Int64?, in session: PostgresConnections.Session) throws {
        guard let mapping = layout.mapping(for: row.objectID.entityName), let pk = key(row.objectID) else { return }
        func run(_ statement: SQLStatement) throws { try session.run(Self.dialect.render(statement)) }
        for (relationship, storage) in mapping.toMany {
            guard let members = row.toMany[relationship.name] else { continue }
            let keys = members.compactMap(key)
            let order = mapping.orderColumns[relationship.name]
            switch storage {
            case .joinTable(let name, let own, let other):
                let existing = Set(try session.run(Self.dialect.render(SQLSelect(columns: [.column(other)], from: .table(name),
                                                                                 filter: .column(own) == .value(.integer(pk)))))
                    .compactMap { try PostgresValueCoding.integer(Array($0)[0]) })
                let wanted = Set(keys)
                let gone = existing.subtracting(wanted)
                if !gone.isEmpty {
                    try run(.delete(from: name, where: .and([.column(own) == .value(.integer(pk)),
                                                              SQLExpression.column(other).isIn(gone.sorted().map { .value(.integer($0)) })])))
                }
                for m in keys where !existing.contains(m) {
                    try run(.insert(into: name, columns: [own, other], values: [.value(.integer(pk)), .value(.integer(m))], orIgnore: true))
                }
                if let order {
                    for (i, m) in keys.enumerated() {
                        try run(.update(name, set: [(order, .value(.integer(Int64(i + 1))))],
                                        where: .and([.column(own) == .value(.integer(pk)), .column(other) == .value(.integer(m))])))
                    }
                }
            case .foreignKey(let table, let column):
                if relationship.inverseName == nil {
                    try run(.update(table, set: [(column, .null)], where: .column(column) == .value(.integer(pk))))
                    if !keys.isEmpty {
                        try run(.update(table, set: [(column, .value(.integer(pk)))],
                                        where: SQLExpression.column("Z_PK").isIn(keys.map { .value(.integer($0)) })))
                    }
                }
                if let order {
                    for (i, m) in keys.enumerated() {
                        try run(.update(table, set: [(order, .value(.integer(Int64(i + 1))))], where: .column("Z_PK") == .value(.integer(m))))
                    }
                }
            }
        }
    }

    /// A row as it is now, within the save's transaction, with its to-many members.
    private func persistedRow(_ id: ManagedObjectID, in session: PostgresConnections.Session) throws -> StoredRow? {
        guard var stored = try rows(for: [id], in: session).first, let mapping = layout.mapping(for: id.entityName) else { return nil }
        for (relationship, _) in mapping.toMany {
            stored.toMany[relationship.name] = try relatedObjectIDs(of: id, relationship: relationship, in: session)
        }
        return stored
    }

    /// Refuses, before anything is sent, values PostgreSQL cannot hold: text with a NUL
    /// character.
    func checkStorable(_ changes: StoreChanges) throws {
        for row in changes.inserted + changes.updated {
            guard let entity = layout.mapping(for: row.objectID.entityName)?.entity else { continue }
            let values = row.values(inOrderOf: entity) ?? entity.attributes.map { row.attributes[$0.name] ?? .null }
            for (attribute, value) in zip(entity.attributes, values) {
                if case .string(let text) = value, text.utf8.contains(0) {
                    throw PostgresStoreError.unstorableValue(
                        "\(entity.name).\(attribute.name) holds a NUL character, which PostgreSQL text cannot hold; nothing was saved")
                }
            }
        }
    }
}
