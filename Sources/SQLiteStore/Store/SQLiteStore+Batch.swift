import Foundation
import GRDB
import ObjectGraph
import ObjectModel
import Predicates
import SQLSyntax

extension SQLiteStore: BatchRequestStore {
    /// Runs a batch request in one immediate transaction, in SQL: rows are written without
    /// being read into objects. With history on, the triggers record it under `transaction`.
    public func execute(_ request: BatchRequest, transaction: TransactionInfo) throws -> BatchResult {
        guard !isReadOnly else { throw ObjectGraphError.readOnlyStore(url?.path ?? identifier) }
        var result = BatchResult(count: 0)
        let obsolete = ExternalDataChanges()
        do {
            switchToWALMode()
            try database.inTransaction(.immediate) { db in
                if let url { try StoreFiles.checkStillOpened(openedFile, at: url) }
                let number = historyState.enabled ? try beginHistoryTransaction(transaction, in: db) : nil
                var insertedIDs: [ManagedObjectID] = []
                switch request {
                case .insert(let insert): (result, insertedIDs) = try batchInsert(insert, in: db)
                case .update(let update): result = try batchUpdate(update, in: db)
                case .delete(let delete): result = try batchDelete(delete, in: db, obsolete: obsolete)
                }
                if let number { _ = try endHistoryTransaction(number, inserted: insertedIDs, in: db) }
                return .commit
            }
            if historyState.enabled { historyState.installed = true }
            externalData.remove(obsolete.obsolete)
        } catch let error as BatchRequestError {
            throw error
        } catch let error as ObjectGraphError {
            throw error
        } catch let error as SQLiteStoreError {
            throw error
        } catch {
            if case let damaged as ObjectGraphError = Self.damage(error, path: url?.path ?? ":memory:") { throw damaged }
            if let clash = uniquenessClash(error) {
                throw ObjectGraphError.storeFormat(file: url?.path ?? ":memory:", reason: "batch request failed, nothing written: \(clash)")
            }
            throw ObjectGraphError.storeFormat(file: url?.path ?? ":memory:", reason: "batch request failed: \(Self.describe(error))")
        }
        return result
    }

    // MARK: Insert

    /// The result, and the new objects' IDs (for the history) whatever the result type.
    private func batchInsert(_ request: BatchInsertRequest, in db: Database) throws -> (BatchResult, [ManagedObjectID]) {
        guard let entity = model.entity(named: request.entityName), let writer = rowWriters[entity.name],
              let root = rootNames[entity.name] else { throw ObjectGraphError.unknownEntity(request.entityName) }
        guard !request.objects.isEmpty else { return (BatchResult(count: 0, objectIDs: request.resultType == .objectIDs ? [] : nil), []) }
        var next = try reserveKeys(Int64(request.objects.count), root: root, in: db)
        // The IDs are made only when someone reads them: the result, or the history.
        let keepsIDs = request.resultType == .objectIDs || historyState.enabled
        var ids: [ManagedObjectID] = []
        if keepsIDs { ids.reserveCapacity(request.objects.count) }
        // Rows in the entity's attribute order (the writer's fast path): defaults, then the given values.
        let defaults = entity.attributes.map { $0.isTransient ? ObjectValue.null : $0.defaultValue }
        let positions = Dictionary(uniqueKeysWithValues: entity.attributes.enumerated().filter { !$0.element.isTransient }
            .map { ($0.element.name, $0.offset) })
        let number = entityNumbers[entity.name]
        let encoder: RowWriter.ExternalEncoder? = writer.hasExternalColumns ? { _, bytes in
            // Inserted in one transaction: a file written for a row that then fails stays unused.
            try self.externalData.stored(bytes, previous: nil).value
        } : nil
        // Dictionaries made alike list their keys alike: the positions of the last object's
        // keys are tried first, by comparing strings (cheap for the same string), before
        // hashing. A key that is no stored attribute refuses the request, and the
        // transaction writes nothing.
        var lastKeys: [(key: String, position: Int)] = []
        let unnamed = objectID(entityName: entity.name, primaryKey: 0)
        // As in a save: the history files these rows at the end, without the triggers' help.
        try insertingWithoutTriggers(request.objects.count, in: db) {
            for object in request.objects {
                let id = keepsIDs ? objectID(entityName: entity.name, primaryKey: next) : unnamed
                var values = defaults
                var k = 0
                for (key, value) in object {
                    let position: Int
                    if k < lastKeys.count, lastKeys[k].key == key {
                        position = lastKeys[k].position
                    } else {
                        guard let found = positions[key] else { throw BatchRequestError.notAnAttribute(entity: entity.name, key: key) }
                        position = found
                        if k < lastKeys.count { lastKeys[k] = (key, found) } else { lastKeys.append((key, found)) }
                    }
                    values[position] = value
                    k += 1
                }
                let row = StoredRow(objectID: id, entity: entity, values: values)
                try writer.insert(row, primaryKey: next, in: db, key: { $0.primaryKey }, entityNumber: { _ in number }, external: encoder)
                if keepsIDs { ids.append(id) }
                next &+= 1
            }
        }
        return (BatchResult(count: request.objects.count, objectIDs: request.resultType == .objectIDs ? ids : nil), ids)
    }

    // MARK: Update

    private func batchUpdate(_ request: BatchUpdateRequest, in db: Database) throws -> BatchResult {
        guard let entity = model.entity(named: request.entityName), let mapping = schema.mapping(for: entity.name) else {
            throw ObjectGraphError.unknownEntity(request.entityName)
        }
        var assignments: [(String, SQLExpression)] = []
        for (key, value) in request.propertiesToUpdate.sorted(by: { $0.key < $1.key }) {
            guard let attribute = entity.attribute(named: key), !attribute.isTransient, let column = mapping.column(forAttribute: key),
                  !(attribute.allowsExternalBinaryDataStorage && (attribute.type == .binary || attribute.type == .transformable)) else {
                throw BatchRequestError.notAnAttribute(entity: entity.name, key: key)
            }
            assignments.append((column, .value(DatabaseValueCoding.sqlValue(value))))
        }
        // Every updated row gets a new version, so that a context holding it meets the change at its save.
        assignments.append(("Z_OPT", .binary(.binary(.column("Z_OPT"), .remainder, .literal(Int64.max)), .plus, .literal(1))))
        let matches = try matching(entity: entity, predicate: request.predicate)
        let ids = request.resultType == .objectIDs ? try objectIDs(matches, in: db) : nil
        var keys = matches
        keys.columns = [.column("Z_PK", of: "t0")]
        let statement = Self.dialect.render(SQLStatement.update(mapping.table.name, set: assignments, where: .column("Z_PK").isIn(keys)))
        try db.execute(sql: statement.sql, arguments: statement.statementArguments)
        return BatchResult(count: db.changesCount, objectIDs: ids)
    }

    // MARK: Delete

    private func batchDelete(_ request: BatchDeleteRequest, in db: Database, obsolete: ExternalDataChanges) throws -> BatchResult {
        guard let entity = model.entity(named: request.entityName) else { throw ObjectGraphError.unknownEntity(request.entityName) }
        let first = try objectIDs(try matching(entity: entity, predicate: request.predicate), in: db)
        // The objects to delete, the request's and those its Cascade rules reach, each once.
        let deletion = try BatchDeletion(matched: first, model: model) { try destinations(of: $0, $1, in: db) }
        let doomed = deletion.doomed
        // Inverses kept by a key on a surviving destination's row are cleared.
        for (destination, inverse) in deletion.nullified {
            guard let mapping = schema.mapping(for: destination.entityName), let key = mapping.foreignKey(for: inverse.name),
                  let pk = destination.primaryKey else { continue }
            var set: [(String, SQLExpression)] = [(key.column, .null)]
            if let entityColumn = key.entityColumn { set.append((entityColumn, .null)) }
            set.append(("Z_OPT", .binary(.binary(.column("Z_OPT"), .remainder, .literal(Int64.max)), .plus, .literal(1))))
            try db.cachedStatement(sql: SQLStatement.update(mapping.table.name, set: set, where: Self.thisRow).sqlite).execute(arguments: [pk])
        }
        for id in doomed {
            guard let mapping = schema.mapping(for: id.entityName), let pk = id.primaryKey else { continue }
            if let writer = rowWriters[id.entityName] { obsolete.obsolete += try writer.externalFileNames(primaryKey: pk, in: db).values }
            for (_, storage) in mapping.toMany {
                if case .joinTable(let name, let own, _) = storage {
                    try db.cachedStatement(sql: SQLStatement.delete(from: name, where: .column(own) == .parameter).sqlite).execute(arguments: [pk])
                }
            }
            try db.cachedStatement(sql: SQLStatement.delete(from: mapping.table.name, where: Self.thisRow).sqlite).execute(arguments: [pk])
        }
        return BatchResult(count: doomed.count, objectIDs: request.resultType == .objectIDs ? doomed : nil)
    }

    /// The objects a relationship of an object leads to, as the store has them now.
    private func destinations(of id: ManagedObjectID, _ relationship: RelationshipDescription, in db: Database) throws -> [ManagedObjectID] {
        if relationship.isToMany { return try relatedObjectIDs(of: id, relationship: relationship, in: db) }
        guard let mapping = schema.mapping(for: id.entityName), let key = mapping.foreignKey(for: relationship.name),
              let pk = id.primaryKey else { return [] }
        let columns: [SQLExpression] = [.column(key.column)] + (key.entityColumn.map { [.column($0)] } ?? [])
        guard let row = try Row.fetchOne(db.cachedStatement(sql: SQLSelect(columns: columns, from: .table(mapping.table.name),
                                                                            filter: Self.thisRow).sqlite), arguments: [pk]),
              let destination: Int64 = row[0] else { return [] }
        let entityNumber: Int? = key.entityColumn == nil ? nil : row[1]
        let name = entityNumber.flatMap { schema.entityName(forNumber: $0) } ?? key.destinationEntityName
        return [objectID(entityName: name, primaryKey: destination)]
    }

    /// The statement that selects the keys of an entity's objects matching a predicate.
    private func matching(entity: Entity, predicate: ObjectPredicate?) throws -> SQLSelect {
        let request = StoreRequest(fetch: FetchRequest(entityName: entity.name, predicate: predicate), entityNames: entity.kindNames)
        return try FetchQuery(schema: schema, request: request, flavor: Self.flavor).selectIDs()
    }

    private func objectIDs(_ select: SQLSelect, in db: Database) throws -> [ManagedObjectID] {
        let rendered = Self.dialect.render(select)
        return try Row.fetchAll(db, sql: rendered.sql, arguments: rendered.statementArguments).compactMap { row in
            let number: Int = row[1]
            return schema.entityName(forNumber: number).map { objectID(entityName: $0, primaryKey: row[0]) }
        }
    }
}
