import Foundation
import ObjectGraph
import ObjectModel
import SQLSyntax

extension PostgresStore {
    /// Migrates the store at a `postgres://` URL through `steps` where it lies, in one
    /// transaction: PostgreSQL's DDL is transactional, so a migration that fails leaves the
    /// store exactly as it was, and no client ever sees half of one or a version between.
    ///
    /// The transaction holds the schema's lock, the one every writable open takes: two
    /// clients never migrate at once, and a client opening meanwhile waits, then finds the
    /// new version. The second of two clients migrating finds the store current and changes
    /// nothing. The entity tables are locked first, in one order, so that a client reading
    /// them waits rather than deadlocks. Saves of clients that opened the store before it was
    /// migrated are refused from then on (`PostgresStoreError.migratedMeanwhile`), their
    /// edits kept.
    ///
    /// Columns are added (filled with their defaults), renamed and dropped with their folded
    /// copies; tables of inheritance trees and many-to-many relationships made and dropped
    /// (with their sequences; new entities get `Z_PRIMARYKEY` rows); indexes made to match; history
    /// triggers made for the new columns; the metadata's version hashes replaced.
    ///
    /// - Returns: nil when the store is at the last step's version; else the index of the
    ///   first step that `SchemaChange` does not plan, with nothing changed.
    /// - Throws: `ObjectGraphError.mismatch` when the store was written with none of the versions.
    public static func migrateInPlace(at url: URL, steps: [InPlaceMigrationStep]) throws -> Int? {
        guard let last = steps.last else { return nil }
        let location = try PostgresLocation(url: url)
        let connections = PostgresConnections(location: location)
        defer { connections.close() }
        do {
            try connections.inTransaction { session in
                try migrate(session, location: location, steps: steps, to: last.destination)
            }
            return nil
        } catch let refused as NotInPlace {
            return refused.step
        }
    }

    /// One step, from `source` to `destination` (see `migrateInPlace(at:steps:)`); false when
    /// the change is beyond a change in place, with nothing changed.
    public static func migrateInPlace(at url: URL, from source: ManagedObjectModel, to destination: ManagedObjectModel,
                                      renames: [String: [String: String]]) throws -> Bool {
        try migrateInPlace(at: url, steps: [InPlaceMigrationStep(source: source, destination: destination, renames: renames)]) == nil
    }

    /// Rolls the transaction back: a step is beyond a change in place.
    private struct NotInPlace: Error {
        var step: Int
    }

    private static func migrate(_ session: PostgresConnections.Session, location: PostgresLocation,
                                steps: [InPlaceMigrationStep], to destination: ManagedObjectModel) throws {
        let place = location.description
        try lockSchema(session, location: location)
        guard try session.hasTable("Z_METADATA") else {
            throw ObjectGraphError.storeFormat(file: place, reason: "no store there (the schema \(location.schema) has no Z_METADATA)")
        }
        var metadata = try readMetadata(session, place: place)
        // Another client may have migrated it while this one waited for the lock.
        if destination.isCompatible(withVersionHashes: metadata.versionHashes) { return }
        guard let first = steps.firstIndex(where: { $0.source.isCompatible(withVersionHashes: metadata.versionHashes) }) else {
            throw ObjectGraphError.mismatch(file: place, storeHashes: metadata.versionHashes, model: steps[0].source)
        }
        // First, so that saves in flight finish before anything changes, and saves that
        // start later wait, then find the new version and are refused.
        metadata.versionHashes = destination.entityVersionHashes
        metadata.versionIdentifiers = destination.versionIdentifier.map { [$0] } ?? []
        try session.run(#"UPDATE "Z_METADATA" SET "Z_PLIST" = $1"#, [.blob(try PostgresMetadata.encode(metadata))])

        // Entities a step adds take the next numbers, in the order their versions name them
        // (below the history's own, which start at 16001). A removed entity keeps its row in
        // Z_PRIMARYKEY, so that its number is never given again: the history may name it.
        var numbers = try entityNumbers(session)
        for step in steps[first...] {
            for name in step.destination.entityNames where numbers[name] == nil {
                numbers[name] = (numbers.values.filter { $0 < 16_000 }.max() ?? 0) + 1
            }
        }
        var plans: [SchemaChange] = []
        for index in first..<steps.count {
            let step = steps[index]
            guard let plan = try SchemaChange(from: step.source, to: step.destination, numbers: numbers, renames: step.renames,
                                              storedType: PostgresValueCoding.columnType(of:), addsEntities: true) else {
                throw NotInPlace(step: index)
            }
            plans.append(plan)
        }
        // Every entity table at once, in one order: readers wait instead of deadlocking.
        let tables = plans[0].old.tables.map(\.name).sorted().map(dialect.quote).joined(separator: ", ")
        try session.execute("LOCK TABLE \(tables) IN ACCESS EXCLUSIVE MODE")
        // History triggers name the columns: they go first and come back made for the new tables.
        let history = try hasHistory(session)
        if history {
            for name in plans[0].old.tables.map(\.name) + plans[0].old.joinTables.map(\.name) {
                try session.execute("DROP FUNCTION IF EXISTS " + dialect.quote("Z_HC_" + name) + "() CASCADE")
            }
        }
        for plan in plans {
            let old = PostgresSchema(layout: plan.old), new = PostgresSchema(layout: plan.new)
            for join in plan.droppedJoinTables { try session.execute("DROP TABLE " + dialect.quote(join.name)) }
            for table in plan.droppedTables {
                try session.execute("DROP TABLE " + dialect.quote(table.name))
                try session.execute("DROP SEQUENCE IF EXISTS " + dialect.quote(old.sequence(ofRoot: table.rootEntityName)))
            }
            for change in plan.tables {
                for statement in statements(for: change, old: old) { try session.run(dialect.render(statement)) }
            }
            for table in plan.addedTables {
                try session.run(dialect.render(new.tableCreation(table)))
                for index in new.indexCreation(table) { try session.run(dialect.render(index)) }
                try session.execute(new.sequenceCreation(table))
            }
            for join in plan.addedJoinTables {
                try session.run(dialect.render(new.joinTableCreation(join)))
                try session.run(dialect.render(new.joinIndexCreation(join)))
            }
            for name in plan.addedEntities {
                guard let mapping = plan.new.mapping(for: name) else { continue }
                let parent = mapping.entity.parentName.flatMap { plan.new.mapping(for: $0)?.number } ?? 0
                try session.run(dialect.render(.insert(into: "Z_PRIMARYKEY", columns: ["Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX"], values: [
                    .value(.integer(Int64(mapping.number))), .value(.text(name)), .value(.integer(Int64(parent))), .literal(0),
                ])))
            }
        }
        let new = PostgresSchema(layout: plans[plans.count - 1].new)
        if history {
            for sql in PostgresHistorySchema(schema: new).triggerStatements { try session.execute(sql) }
        }
        let differences = try differences(of: new, in: session)
        if !differences.isEmpty {
            throw ObjectGraphError.storeFormat(file: place, reason: "the migrated schema does not fit: \(differences.joined(separator: "; "))")
        }
    }

    /// The lock a writable open and a migration take on the schema, for the transaction.
    static func lockSchema(_ session: PostgresConnections.Session, location: PostgresLocation) throws {
        try session.run("SELECT pg_advisory_xact_lock(hashtext($1))", [.text("termdata " + location.schema)])
    }

    /// `Z_PRIMARYKEY`: entity name → number.
    static func entityNumbers(_ session: PostgresConnections.Session) throws -> [String: Int] {
        var numbers: [String: Int] = [:]
        for row in try session.run(#"SELECT "Z_ENT", "Z_NAME" FROM "Z_PRIMARYKEY""#, []) {
            let cells = Array(row)
            if let number = try PostgresValueCoding.integer(cells[0]), case .string(let name) = try PostgresValueCoding.plainValue(cells[1]) {
                numbers[name] = Int(number)
            }
        }
        return numbers
    }

    /// One table's change in PostgreSQL's terms: text columns bring their folded copies along.
    private static func statements(for change: SchemaChange.TableChange, old: PostgresSchema) -> [SQLStatement] {
        let table = change.table
        let oldColumns = Set(old.columnTypes[table]?.map(\.name) ?? [])
        func copies(of column: String) -> [(fold: FoldedColumns.Fold, name: String)] {
            FoldedColumns.Fold.allCases.map { ($0, FoldedColumns.name(of: column, $0)) }
        }
        var syntax: [SQLStatement] = []
        for index in change.droppedIndexes { syntax.append(.dropIndex(index.name, ifExists: true)) }
        for column in change.dropped {
            syntax.append(.dropColumn(column, from: table))
            for copy in copies(of: column) where oldColumns.contains(copy.name) { syntax.append(.dropColumn(copy.name, from: table)) }
        }
        for (from, to) in change.renamed {
            syntax.append(.renameColumn(from, to: to, in: table))
            for (copy, renamed) in zip(copies(of: from), copies(of: to)) where oldColumns.contains(copy.name) {
                syntax.append(.renameColumn(copy.name, to: renamed.name, in: table))
            }
        }
        for (column, attribute) in change.added {
            syntax.append(.addColumn(to: table, SQLColumnDefinition(column, attribute.map { PostgresValueCoding.columnType(of: $0.type) } ?? .bigint)))
            if let attribute, attribute.type == .string || attribute.type == .uri {
                for copy in copies(of: column) { syntax.append(.addColumn(to: table, SQLColumnDefinition(copy.name, .textByCodePoint))) }
            }
        }
        for fill in change.fills {
            let ofEntities = SQLExpression.column("Z_ENT").isIn(fill.entities.map { .value(.integer(Int64($0))) })
            var assignments: [(String, SQLExpression)] = [(fill.column, .value(PostgresValueCoding.sqlValue(fill.value)))]
            let text: String? = switch fill.value {
            case .string(let s): s
            case .url(let u): u.absoluteString
            default: nil
            }
            if let text {
                for copy in copies(of: fill.column) {
                    assignments.append((copy.name, .value(FoldedColumns.value(of: text, copy.fold).map(SQLValue.text) ?? .null)))
                }
            }
            syntax.append(.update(table, set: assignments,
                                  where: fill.onlyNull ? .and([ofEntities, SQLExpression.column(fill.column).isNull()]) : ofEntities))
        }
        for index in change.indexes {
            syntax.append(index.creation(ifNotExists: true))
        }
        return syntax
    }

    /// Where the schema's entity tables differ from what the layout says they hold.
    static func differences(of schema: PostgresSchema, in session: PostgresConnections.Session) throws -> [String] {
        var found: [String: Set<String>] = [:]
        let rows = try session.run("SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = $1",
                                   [.text(session.location.schema)])
        for row in rows {
            let cells = Array(row)
            if case .string(let table) = try PostgresValueCoding.plainValue(cells[0]),
               case .string(let column) = try PostgresValueCoding.plainValue(cells[1]) {
                found[table, default: []].insert(column)
            }
        }
        var problems: [String] = []
        for table in schema.layout.tables {
            let expected = Set(["Z_PK", "Z_ENT", "Z_OPT"] + schema.columnTypes[table.name]!.map(\.name))
            guard let columns = found[table.name] else { problems.append("\(table.name) is missing"); continue }
            let missing = expected.subtracting(columns).sorted(), extra = columns.subtracting(expected).sorted()
            if !missing.isEmpty { problems.append("\(table.name) lacks \(missing.joined(separator: ", "))") }
            if !extra.isEmpty { problems.append("\(table.name) has \(extra.joined(separator: ", ")) besides") }
        }
        return problems
    }
}
