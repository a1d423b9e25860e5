import Foundation
import ObjectGraph
import ObjectModel
import PostgresNIO
import Predicates
import SQLSyntax

extension PostgresStore {
    /// Runs a fetch in SQL: the predicate, sort, limit and offset all run on the server, and
    /// only the rows asked for come back.
    public func execute(_ request: StoreRequest) throws -> StoreResult {
        let query = try FetchQuery(schema: layout, request: request, flavor: flavor)
        switch request.fetch.resultType {
        case .count:
            let rendered = Self.dialect.render(try query.selectCount())
            let rows = try reading { try $0.run(rendered) }
            return .count(Int(try rows.first.flatMap { try PostgresValueCoding.integer(Array($0)[0]) } ?? 0))
        case .dictionaries:
            let (select, names, decoders) = try query.selectDictionaries()
            let rows = try reading { try $0.run(Self.dialect.render(select)) }
            return .dictionaries(try rows.map { row in
                let cells = Array(row)
                var d: [String: ObjectValue] = [:]
                for (i, name) in names.enumerated() {
                    switch decoders[i] {
                    case .attribute(let type): d[name] = try PostgresValueCoding.objectValue(cells[i], type: type)
                    case .externalData: d[name] = try PostgresValueCoding.objectValue(cells[i], type: .binary)
                    case .object(let entity, let entityColumn):
                        guard let pk = try PostgresValueCoding.integer(cells[i]) else { d[name] = .null; continue }
                        var entityName = entity
                        if let entityColumn, let number = try PostgresValueCoding.integer(cells[entityColumn]),
                           let concrete = layout.entityName(forNumber: Int(number)) {
                            entityName = concrete
                        }
                        d[name] = .object(objectID(entityName: entityName, primaryKey: pk))
                    }
                }
                return d
            })
        case .managedObjects, .objectIDs:
            if let rows = try rowsInOneTrip(request, query: query) { return rows }
            let rendered = Self.dialect.render(try query.selectIDs())
            let found = try reading { try $0.run(rendered) }
            var collector = FetchedKeysCollector(storeIdentifier: identifier, entityNamesByNumber: layout.concreteEntityNamesByNumber,
                                                 capacity: found.count)
            for row in found {
                var cells = row.makeIterator()
                guard let pk = try cells.next().flatMap(PostgresValueCoding.integer) else {
                    throw PostgresStoreError.schemaMismatch("a row with no Z_PK")
                }
                let number = try cells.next().flatMap(PostgresValueCoding.integer).map { Int($0) }
                guard let number, collector.append(key: pk, entityNumber: number) else {
                    throw PostgresStoreError.schemaMismatch(layout.unplacedRow(key: pk, entityNumber: number))
                }
            }
            // Faults make their IDs when asked (`FetchedKeys`); other results need them now.
            let keys = collector.finish()
            if request.acceptsKeys, request.fetch.resultType == .managedObjects, request.fetch.returnsObjectsAsFaults {
                return .keys(keys)
            }
            let ids = keys.objectIDs
            if request.fetch.resultType == .managedObjects, !request.fetch.returnsObjectsAsFaults {
                return .rows(ids: ids, rows: try rows(for: ids))
            }
            return .rows(ids: ids, rows: nil)
        }
    }

    /// Objects of one entity, at most a page of them (or all with their values asked for):
    /// their rows come with their keys, in one round trip rather than keys, then rows.
    private func rowsInOneTrip(_ request: StoreRequest, query: FetchQuery) throws -> StoreResult? {
        guard request.fetch.resultType == .managedObjects else { return nil }
        let concrete = request.entityNames.filter { model.entity(named: $0)?.isAbstract == false }
        guard concrete.count == 1, let mapping = layout.mapping(for: concrete[0]) else { return nil }
        let limit = request.appliesLimits ? request.fetch.fetchLimit : 0
        guard !request.fetch.returnsObjectsAsFaults || (limit > 0 && limit <= faultBatchSize) else { return nil }
        var select = try query.selectIDs()
        select.columns = Self.rowColumns(mapping, of: "t0")
        var ids: [ManagedObjectID] = [], rows: [StoredRow] = []
        for row in try reading({ try $0.run(Self.dialect.render(select)) }) {
            let stored = try storedRow(Array(row), mapping: mapping)
            ids.append(stored.objectID)
            rows.append(stored)
        }
        return .rows(ids: ids, rows: rows)
    }

    /// Runs a read. When the server refuses it (a column or table that is not there) because
    /// another client migrated the store after this one opened it, says so instead.
    func reading<T>(_ body: (PostgresConnections.Session) throws -> T) throws -> T {
        do {
            return try connections.withConnection(body)
        } catch PostgresStoreError.server(let message) {
            if let now = try? connections.withConnection({ session -> StoreMetadata? in
                try Self.metadataDigest(session) == metadataDigest ? nil : Self.readMetadata(session, place: location.description)
            }) {
                throw PostgresStoreError.migratedMeanwhile(location: location.description,
                                                           differingEntities: model.entitiesDiffering(fromVersionHashes: now.versionHashes))
            }
            throw PostgresStoreError.server(message)
        }
    }

    public func row(for objectID: ManagedObjectID) throws -> StoredRow? {
        try rows(for: [objectID]).first
    }

    /// The rows of many objects: one query per entity and batch of keys, not one per object.
    public func rows(for objectIDs: [ManagedObjectID]) throws -> [StoredRow] {
        try reading { try rows(for: objectIDs, in: $0) }
    }

    /// The most keys one query asks for.
    static let keysPerQuery = 10_000

    func rows(for objectIDs: [ManagedObjectID], in session: PostgresConnections.Session) throws -> [StoredRow] {
        var byEntity: [String: [Int64]] = [:]
        for id in objectIDs where id.storeIdentifier == identifier {
            if let pk = id.primaryKey { byEntity[id.entityName, default: []].append(pk) }
        }
        var found: [ManagedObjectID: StoredRow] = [:]
        for (entity, keys) in byEntity {
            guard let mapping = layout.mapping(for: entity) else { continue }
            for start in stride(from: 0, to: keys.count, by: Self.keysPerQuery) {
                let batch = keys[start..<min(start + Self.keysPerQuery, keys.count)]
                let select = SQLSelect(columns: Self.rowColumns(mapping), from: .table(mapping.table.name),
                                       filter: SQLExpression.column("Z_PK").isIn(batch.map { .value(.integer($0)) }))
                for row in try session.run(Self.dialect.render(select)) {
                    let stored = try storedRow(Array(row), mapping: mapping)
                    found[stored.objectID] = stored
                }
            }
        }
        return objectIDs.compactMap { found[$0] }
    }

    /// `Z_PK`, `Z_OPT`, the attributes, then each to-one's key and entity (NULL where the
    /// destination has no sub-entities).
    static func rowColumns(_ mapping: StoreSchema.EntityMapping, of table: String? = nil) -> [SQLExpression] {
        var columns = (["Z_PK", "Z_OPT"] + mapping.attributes.map(\.column)).map { SQLExpression.column($0, of: table) }
        for (_, key) in mapping.toOne {
            columns.append(.column(key.column, of: table))
            columns.append(key.entityColumn.map { .column($0, of: table) } ?? .null)
        }
        return columns
    }

    func storedRow(_ cells: [PostgresCell], mapping: StoreSchema.EntityMapping) throws -> StoredRow {
        let entity = mapping.entity
        let pk = try PostgresValueCoding.integer(cells[0]) ?? 0
        var values = Array(repeating: ObjectValue.null, count: entity.attributes.count)
        var i = 2
        for (position, (attribute, _)) in zip(mapping.attributePositions, mapping.attributes) {
            values[position] = try PostgresValueCoding.objectValue(cells[i], type: attribute.type)
            i += 1
        }
        var stored = StoredRow(objectID: objectID(entityName: entity.name, primaryKey: pk),
                               version: try PostgresValueCoding.integer(cells[1]) ?? 0, entity: entity, values: values)
        for (relationship, key) in mapping.toOne {
            if let destination = try PostgresValueCoding.integer(cells[i]) {
                var entityName = key.destinationEntityName
                if let number = try PostgresValueCoding.integer(cells[i + 1]), let name = layout.entityName(forNumber: Int(number)) {
                    entityName = name
                }
                stored.toOne[relationship.name] = objectID(entityName: entityName, primaryKey: destination)
            }
            i += 2
        }
        return stored
    }

    public func relatedObjectIDs(of objectID: ManagedObjectID, relationship: RelationshipDescription) throws -> [ManagedObjectID] {
        try reading { try relatedObjectIDs(of: objectID, relationship: relationship, in: $0) }
    }

    func relatedObjectIDs(of objectID: ManagedObjectID, relationship: RelationshipDescription,
                          in session: PostgresConnections.Session) throws -> [ManagedObjectID] {
        guard let pk = objectID.primaryKey, let mapping = layout.mapping(for: objectID.entityName),
              let storage = mapping.toManyStorage(for: relationship.name),
              let destination = layout.mapping(for: relationship.destinationEntityName) else { return [] }
        let order = mapping.orderColumns[relationship.name]
        var select: SQLSelect
        switch storage {
        case .foreignKey(let table, let column):
            select = SQLSelect(columns: [.column("Z_PK"), .column("Z_ENT")], from: .table(table), filter: .column(column) == .value(.integer(pk)))
            select.orderBy = (order.map { [SQLOrdering(.column($0))] } ?? []) + [SQLOrdering(.column("Z_PK"))]
        case .joinTable(let name, let own, let other):
            select = SQLSelect(columns: [.column("Z_PK", of: "d"), .column("Z_ENT", of: "d")], from: .table(name, as: "j"),
                               joins: [SQLJoin(.inner, destination.table.name, as: "d", on: .column("Z_PK", of: "d") == .column(other, of: "j"))],
                               filter: .column(own, of: "j") == .value(.integer(pk)))
            select.orderBy = (order.map { [SQLOrdering(.column($0, of: "j"))] } ?? []) + [SQLOrdering(.column("Z_PK", of: "d"))]
        }
        return try session.run(Self.dialect.render(select)).compactMap { row in
            let cells = Array(row)
            guard let key = try PostgresValueCoding.integer(cells[0]) else { return nil }
            let name = try PostgresValueCoding.integer(cells[1]).flatMap { layout.entityName(forNumber: Int($0)) } ?? destination.entity.name
            return self.objectID(entityName: name, primaryKey: key)
        }
    }
}
