import Foundation
import GRDB
import ObjectGraph
import ObjectModel
import Predicates
import SQLSyntax

extension SQLiteStore {
    /// Migrates a store file from `source` to `destination` where it lies, in one
    /// transaction: columns added (and filled with their defaults), renamed and dropped,
    /// indexes made to match, the metadata's version hashes replaced.
    ///
    /// It handles what lightweight migration infers on the same entities: attributes and
    /// to-one relationships added, removed, renamed, made optional, made required with a
    /// default, integers widened. Anything else (entities added, removed or renamed, a
    /// change of inheritance or of a many-to-many) returns false with the file untouched,
    /// for the migration to take the general path.
    ///
    /// - Parameter renames: per entity, new property name → old name.
    public static func migrateInPlace(at url: URL, from source: ManagedObjectModel, to destination: ManagedObjectModel,
                                      renames: [String: [String: String]]) throws -> Bool {
        guard Set(source.entityNames) == Set(destination.entityNames),
              source.entities.allSatisfy({ destination.entity(named: $0.name)?.parentName == $0.parentName }) else { return false }
        let database = try DatabaseQueue(path: url.path)
        defer { try? database.close() }
        var migrated = false
        try database.writeWithoutTransaction { db in
            try db.inTransaction {
                migrated = try migrate(db, source: source, destination: destination, renames: renames, path: url.path)
                return migrated ? .commit : .rollback
            }
        }
        if migrated { try database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") } }
        return migrated
    }

    private static func migrate(_ db: Database, source: ManagedObjectModel, destination: ManagedObjectModel,
                                renames: [String: [String: String]], path: String) throws -> Bool {
        let numbers = try StoreSchema.entityNumbers(in: db, for: [source, destination])
        let old = try StoreSchema(model: source, numbers: numbers)
        let new = try StoreSchema(model: destination, numbers: numbers)
        guard old.joinTables == new.joinTables, old.tables.map(\.name) == new.tables.map(\.name) else { return false }

        var statements: [RenderedSQL] = []
        for (oldTable, newTable) in zip(old.tables, new.tables) {
            let table = newTable.name
            let oldColumns = Dictionary(uniqueKeysWithValues: oldTable.columns.map { ($0.name, $0.declaredType) })
            var kept: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
            var renamed: [(from: String, to: String)] = []
            var added: [(column: String, type: SQLColumnType)] = []
            var fills: [(column: String, value: ObjectValue, entities: [Int], onlyNull: Bool)] = []

            for entityName in destination.entities.filter({ $0.rootName == newTable.rootEntityName }).map(\.name) {
                guard let entity = destination.entity(named: entityName), let newMapping = new.mappings[entityName],
                      let oldMapping = old.mappings[entityName], let oldEntity = source.entity(named: entityName) else { return false }
                let kinds = entity.kindNames.compactMap { numbers[$0] }
                // An abstract entity has no mapping of its own: the renames of the properties it
                // declares are found in the mappings of the entities that inherit them.
                var entityRenames = renames[entityName] ?? [:]
                for kind in entity.kindNames where kind != entityName {
                    entityRenames.merge(renames[kind] ?? [:]) { own, _ in own }
                }
                for a in entity.declaration.attributes where !a.isTransient {
                    guard let column = newMapping.column(forAttribute: a.name) else { return false }
                    let oldName = entityRenames[a.name] ?? a.name
                    if let oldAttribute = oldEntity.attribute(named: oldName), !oldAttribute.isTransient,
                       let oldColumn = oldMapping.column(forAttribute: oldName) {
                        guard oldColumns[oldColumn] == StoreSchema.declaredType(of: a.type) else { return false }
                        // Values kept externally are tagged; a change either way rewrites them.
                        guard oldAttribute.allowsExternalBinaryDataStorage == a.allowsExternalBinaryDataStorage else { return false }
                        if oldColumn != column { renamed.append((oldColumn, column)) }
                        kept.insert(oldColumn)
                        if !a.isOptional, oldAttribute.isOptional, a.defaultValue != .null {
                            guard !a.allowsExternalBinaryDataStorage else { return false }
                            fills.append((column, a.defaultValue, kinds, true))
                        }
                    } else {
                        added.append((column, StoreSchema.declaredType(of: a.type)))
                        if a.defaultValue != .null {
                            guard !a.allowsExternalBinaryDataStorage else { return false }
                            fills.append((column, a.defaultValue, kinds, false))
                        }
                    }
                }
                for r in entity.declaration.relationships where !r.isTransient && !r.isToMany {
                    guard let key = newMapping.foreignKey(for: r.name) else { return false }
                    let oldName = entityRenames[r.name] ?? r.name
                    if let oldKey = oldMapping.foreignKey(for: oldName) {
                        guard (oldKey.entityColumn == nil) == (key.entityColumn == nil) else { return false }
                        for (from, to) in [(oldKey.column, key.column), (oldKey.entityColumn, key.entityColumn)] {
                            guard let from, let to else { continue }
                            if from != to { renamed.append((from, to)) }
                            kept.insert(from)
                        }
                    } else {
                        added.append((key.column, .integer))
                        if let entityColumn = key.entityColumn { added.append((entityColumn, .integer)) }
                    }
                }
            }
            // To-many relationships without an inverse keep their key on this table.
            for column in newTable.columns where oldColumns[column.name] != nil && !renamed.contains(where: { $0.to == column.name }) {
                if !added.contains(where: { $0.column == column.name }) { kept.insert(column.name) }
            }
            let targets = Set(renamed.map(\.to))
            guard targets.allSatisfy({ oldColumns[$0] == nil || !kept.contains($0) }) else { return false }
            let dropped = oldColumns.keys.filter { !kept.contains($0) }.sorted()

            var syntax: [SQLStatement] = []
            for index in oldTable.indexes where !newTable.indexes.contains(index) {
                syntax.append(.dropIndex(index.name, ifExists: true))
            }
            for column in dropped { syntax.append(.dropColumn(column, from: table)) }
            for (from, to) in renamed { syntax.append(.renameColumn(from, to: to, in: table)) }
            for (column, type) in added { syntax.append(.addColumn(to: table, SQLColumnDefinition(column, type))) }
            for fill in fills {
                let column = SQLExpression.column(fill.column)
                let ofEntities = SQLExpression.column("Z_ENT").isIn(fill.entities.map { .value(.integer(Int64($0))) })
                syntax.append(.update(table, set: [(fill.column, .value(DatabaseValueCoding.sqlValue(fill.value)))],
                                      where: fill.onlyNull ? .and([ofEntities, column.isNull()]) : ofEntities))
            }
            for index in newTable.indexes {
                syntax.append(.createIndex(index.name, on: table, columns: index.columns, ifNotExists: true))
            }
            statements += syntax.map(Self.dialect.render)
        }
        // History triggers name the columns: they go first and come back made for the new schema.
        let historyTriggers = try historyTriggerNames(db)
        for name in historyTriggers { try db.execute(sql: SQLStatement.dropTrigger(name).sqlite) }
        // One statement at a time: a prepared statement holds exactly one.
        for statement in statements { try db.makeStatement(sql: statement.sql).execute(arguments: statement.statementArguments) }
        if !historyTriggers.isEmpty { try installHistory(HistorySchema(schema: new), in: db) }

        guard let row = try Row.fetchOne(db, sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1"),
              let plist = row["Z_PLIST"] as Data? else {
            throw ObjectGraphError.storeFormat(file: path, reason: "Z_METADATA has no property list")
        }
        var (metadata, _) = try SQLiteMetadata.decode(plist, uuid: row["Z_UUID"] ?? "")
        metadata.versionHashes = destination.entityVersionHashes
        metadata.versionIdentifiers = destination.versionIdentifier.map { [$0] } ?? []
        try db.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ?", arguments: [try SQLiteMetadata.encode(metadata)])
        let differences = try new.differences(from: db)
        if !differences.isEmpty {
            throw ObjectGraphError.storeFormat(file: path, reason: "the migrated schema does not fit: \(differences.joined(separator: "; "))")
        }
        return true
    }
}
