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
    /// - Parameter url: the store file, migrated where it lies.
    /// - Parameter source: the model version the store was written with.
    /// - Parameter destination: the model version the store is migrated to.
    /// - Parameter renames: per entity, new property name → old name.
    /// - Returns: whether the store was migrated; false leaves the file untouched.
    public static func migrateInPlace(at url: URL, from source: ManagedObjectModel, to destination: ManagedObjectModel,
                                      renames: [String: [String: String]]) throws -> Bool {
        guard Set(source.entityNames) == Set(destination.entityNames),
              source.entities.allSatisfy({ destination.entity(named: $0.name)?.parentName == $0.parentName }) else { return false }
        let database = try DatabaseQueue(path: url.path, configuration: connectionConfiguration())
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
        guard let plan = try SchemaChange(from: source, to: destination, numbers: numbers, renames: renames,
                                          storedType: StoreSchema.declaredType(of:)) else { return false }
        let new = plan.new
        var statements: [RenderedSQL] = []
        for change in plan.tables {
            let table = change.table
            var syntax: [SQLStatement] = []
            for index in change.droppedIndexes { syntax.append(.dropIndex(index.name, ifExists: true)) }
            for column in change.dropped { syntax.append(.dropColumn(column, from: table)) }
            for (from, to) in change.renamed { syntax.append(.renameColumn(from, to: to, in: table)) }
            for (column, attribute) in change.added {
                syntax.append(.addColumn(to: table, SQLColumnDefinition(column, attribute.map { StoreSchema.declaredType(of: $0.type) } ?? .integer)))
            }
            for fill in change.fills {
                let column = SQLExpression.column(fill.column)
                let ofEntities = SQLExpression.column("Z_ENT").isIn(fill.entities.map { .value(.integer(Int64($0))) })
                syntax.append(.update(table, set: [(fill.column, .value(DatabaseValueCoding.sqlValue(fill.value)))],
                                      where: fill.onlyNull ? .and([ofEntities, column.isNull()]) : ofEntities))
            }
            for index in change.indexes {
                syntax.append(index.creation(ifNotExists: true))
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
              let plist = Data.fromDatabaseValue(row["Z_PLIST"]) else {
            throw ObjectGraphError.storeFormat(file: path, reason: "Z_METADATA has no property list")
        }
        var (metadata, _) = try SQLiteMetadata.decode(plist, uuid: String.fromDatabaseValue(row["Z_UUID"]) ?? "")
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
