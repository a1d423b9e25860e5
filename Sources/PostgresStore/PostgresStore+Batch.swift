import Foundation
import ObjectGraph
import ObjectModel
import PostgresNIO
import Predicates
import SQLSyntax

extension PostgresStore: BatchRequestStore {
    /// Runs a batch request in one transaction, in SQL: rows are written without being read
    /// into objects, as the SQLite store does. The history triggers record it under
    /// `transaction`, and other clients hear of it as of any commit.
    public func execute(_ request: BatchRequest, transaction: TransactionInfo) throws -> BatchResult {
        guard !isReadOnly else { throw ObjectGraphError.readOnlyStore(location.description) }
        return try connections.inTransaction { session in
            try checkVersion(in: session)
            if tracksHistory { _ = try nameHistoryTransaction(transaction, in: session) }
            switch request {
            case .insert(let insert): return try batchInsert(insert, in: session)
            case .update(let update): return try batchUpdate(update, in: session)
            case .delete(let delete): return try batchDelete(delete, in: session)
            }
        }
    }

    // MARK: Insert

    private func batchInsert(_ request: BatchInsertRequest, in session: PostgresConnections.Session) throws -> BatchResult {
        guard let entity = model.entity(named: request.entityName), let root = rootNames[entity.name] else {
            throw ObjectGraphError.unknownEntity(request.entityName)
        }
        let stored = Set(entity.attributes.filter { !$0.isTransient }.map(\.name))
        for object in request.objects {
            for key in object.keys where !stored.contains(key) { throw BatchRequestError.notAnAttribute(entity: entity.name, key: key) }
        }
        let keys = request.objects.isEmpty ? [] : try takeKeys(request.objects.count, root: root, in: session)
        let defaults = entity.attributes.map { $0.isTransient ? ObjectValue.null : $0.defaultValue }
        let positions = Dictionary(uniqueKeysWithValues: entity.attributes.enumerated().map { ($0.element.name, $0.offset) })
        var rows: [StoredRow] = []
        rows.reserveCapacity(request.objects.count)
        for (object, key) in zip(request.objects, keys) {
            var values = defaults
            for (name, value) in object { values[positions[name]!] = value }
            rows.append(StoredRow(objectID: objectID(entityName: entity.name, primaryKey: key), entity: entity, values: values))
        }
        try checkStorable(StoreChanges(inserted: rows))
        let ids = rows.map(\.objectID)
        try insert(rows, ids: ids, key: { $0.primaryKey }, in: session)
        return BatchResult(count: rows.count, objectIDs: request.resultType == .objectIDs ? ids : nil)
    }

    // MARK: Update

    private func batchUpdate(_ request: BatchUpdateRequest, in session: PostgresConnections.Session) throws -> BatchResult {
        guard let entity = model.entity(named: request.entityName), let mapping = layout.mapping(for: entity.name) else {
            throw ObjectGraphError.unknownEntity(request.entityName)
        }
        var assignments: [(String, SQLExpression)] = []
        for (key, value) in request.propertiesToUpdate.sorted(by: { $0.key < $1.key }) {
            guard let attribute = entity.attribute(named: key), !attribute.isTransient, let column = mapping.column(forAttribute: key) else {
                throw BatchRequestError.notAnAttribute(entity: entity.name, key: key)
            }
            if case .string(let text) = value, text.utf8.contains(0) {
                throw PostgresStoreError.unstorableValue(
                    "\(entity.name).\(key) holds a NUL character, which PostgreSQL text cannot hold; nothing was saved")
            }
            assignments.append((column, .value(PostgresValueCoding.sqlValue(value))))
            // The folded copies follow the text, as a save writes them.
            if attribute.type == .string || attribute.type == .uri {
                let text: String? = switch value {
                case .string(let s): s
                case .url(let u): u.absoluteString
                default: nil
                }
                for fold in FoldedColumns.Fold.allCases {
                    let copy = text.flatMap { FoldedColumns.value(of: $0, fold) }
                    assignments.append((FoldedColumns.name(of: column, fold), .value(copy.map(SQLValue.text) ?? .null)))
                }
            }
        }
        // Every updated row gets a new version, so that a client holding it meets the change at its save.
        assignments.append(("Z_OPT", .binary(.binary(.column("Z_OPT"), .remainder, .literal(Int64.max)), .plus, .literal(1))))
        let matches = try matching(entity: entity, predicate: request.predicate)
        var keys = matches
        keys.columns = [.column("Z_PK", of: "t0")]
        keys.orderBy = []
        let update = Self.dialect.render(SQLStatement.update(mapping.table.name, set: assignments, where: .column("Z_PK").isIn(keys)))
        let answer = try session.run(RenderedSQL(sql: update.sql + #" RETURNING "Z_PK", "Z_ENT""#, arguments: update.arguments))
        let ids = try objectIDs(answer)
        return BatchResult(count: ids.count, objectIDs: request.resultType == .objectIDs ? ids : nil)
    }

    // MARK: Delete

    /// Deletes the matching objects and what their Cascade rules reach; Deny refuses the whole
    /// request, Nullify clears the surviving inverses, as the SQLite store's batch delete does.
    private func batchDelete(_ request: BatchDeleteRequest, in session: PostgresConnections.Session) throws -> BatchResult {
        guard let entity = model.entity(named: request.entityName) else { throw ObjectGraphError.unknownEntity(request.entityName) }
        let first = try objectIDs(session.run(Self.dialect.render(try matching(entity: entity, predicate: request.predicate))))
        let deletion = try BatchDeletion(matched: first, model: model) { try destinations(of: $0, $1, in: session) }
        let doomed = deletion.doomed
        let nextVersion = SQLExpression.binary(.binary(.column("Z_OPT"), .remainder, .literal(Int64.max)), .plus, .literal(1))
        for (destination, inverse) in deletion.nullified {
            guard let mapping = layout.mapping(for: destination.entityName), let key = mapping.foreignKey(for: inverse.name),
                  let pk = destination.primaryKey else { continue }
            var set: [(String, SQLExpression)] = [(key.column, .null)]
            if let entityColumn = key.entityColumn { set.append((entityColumn, .null)) }
            set.append(("Z_OPT", nextVersion))
            try session.run(Self.dialect.render(.update(mapping.table.name, set: set, where: .column("Z_PK") == .value(.integer(pk)))))
        }
        // One statement per table and join table, for all the keys it loses.
        var byTable: [String: [Int64]] = [:]
        var byJoin: [String: (column: String, keys: [Int64])] = [:]
        for id in doomed {
            guard let mapping = layout.mapping(for: id.entityName), let pk = id.primaryKey else { continue }
            byTable[mapping.table.name, default: []].append(pk)
            for (_, storage) in mapping.toMany {
                if case .joinTable(let name, let own, _) = storage { byJoin[name + "." + own, default: (own, [])].keys.append(pk) }
            }
        }
        // At most 30,000 keys to a statement: a statement binds at most 65,535 values.
        func delete(from table: String, where column: String, _ keys: [Int64]) throws {
            for start in stride(from: 0, to: keys.count, by: 30_000) {
                let some = keys[start..<min(keys.count, start + 30_000)].map { SQLExpression.value(.integer($0)) }
                try session.run(Self.dialect.render(.delete(from: table, where: SQLExpression.column(column).isIn(some))))
            }
        }
        for (place, join) in byJoin.sorted(by: { $0.key < $1.key }) {
            try delete(from: String(place[..<place.lastIndex(of: ".")!]), where: join.column, join.keys)
        }
        for (table, keys) in byTable.sorted(by: { $0.key < $1.key }) { try delete(from: table, where: "Z_PK", keys) }
        return BatchResult(count: doomed.count, objectIDs: request.resultType == .objectIDs ? doomed : nil)
    }

    /// The objects a relationship of an object leads to, as the store has them in the transaction.
    private func destinations(of id: ManagedObjectID, _ relationship: RelationshipDescription,
                              in session: PostgresConnections.Session) throws -> [ManagedObjectID] {
        if relationship.isToMany { return try relatedObjectIDs(of: id, relationship: relationship, in: session) }
        guard let mapping = layout.mapping(for: id.entityName), let key = mapping.foreignKey(for: relationship.name),
              let pk = id.primaryKey else { return [] }
        let columns: [SQLExpression] = [.column(key.column), key.entityColumn.map { SQLExpression.column($0) } ?? .null]
        let rows = try session.run(Self.dialect.render(SQLSelect(columns: columns, from: .table(mapping.table.name),
                                                                 filter: .column("Z_PK") == .value(.integer(pk)))))
        guard let cells = rows.first.map(Array.init), let destination = try PostgresValueCoding.integer(cells[0]) else { return [] }
        let name = try PostgresValueCoding.integer(cells[1]).flatMap { layout.entityName(forNumber: Int($0)) } ?? key.destinationEntityName
        return [objectID(entityName: name, primaryKey: destination)]
    }

    /// The statement that selects the keys and entities of an entity's objects matching a predicate.
    private func matching(entity: Entity, predicate: ObjectPredicate?) throws -> SQLSelect {
        let request = StoreRequest(fetch: FetchRequest(entityName: entity.name, predicate: predicate), entityNames: entity.kindNames)
        return try FetchQuery(schema: layout, request: request, flavor: flavor).selectIDs()
    }

    private func objectIDs(_ rows: PostgresQueryResult) throws -> [ManagedObjectID] {
        try rows.compactMap { row in
            let cells = Array(row)
            guard let pk = try PostgresValueCoding.integer(cells[0]), let number = try PostgresValueCoding.integer(cells[1]),
                  let name = layout.entityName(forNumber: Int(number)) else { return nil }
            return objectID(entityName: name, primaryKey: pk)
        }
    }
}
