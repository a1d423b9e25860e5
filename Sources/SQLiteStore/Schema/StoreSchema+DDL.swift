import Foundation
import GRDB

extension StoreSchema {
    /// The statements that create an empty store: entity tables, join tables, indexes and
    /// the bookkeeping tables `Z_PRIMARYKEY` and `Z_METADATA`, as Core Data writes them.
    var creationStatements: [String] {
        var statements: [String] = []
        for table in tables {
            let columns = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
                + table.columns.map { "\($0.name) \($0.declaredType)" }
            statements.append("CREATE TABLE \(table.name) ( \(columns.joined(separator: ", ")) )")
        }
        for join in joinTables {
            let order = join.orderColumns.map { "\($0) INTEGER, " }.joined()
            statements.append("CREATE TABLE \(join.name) ( \(join.firstColumn) INTEGER, \(join.secondColumn) INTEGER, \(order)"
                              + "PRIMARY KEY (\(join.firstColumn), \(join.secondColumn)) )")
        }
        for table in tables {
            if table.entityNumbers.count > 1 {
                statements.append("CREATE INDEX \(table.name)_Z_ENT_INDEX ON \(table.name) (Z_ENT)")
            }
            for index in table.indexes {
                statements.append("CREATE INDEX \(index.name) ON \(index.table) (\(index.columns.joined(separator: ", ")))")
            }
        }
        for join in joinTables {
            statements.append("CREATE INDEX \(join.index.name) ON \(join.index.table) (\(join.index.columns.joined(separator: ", ")))")
        }
        statements.append("CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
        statements.append("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
        return statements
    }

    /// Creates the schema in an empty database and fills `Z_PRIMARYKEY`.
    func create(in db: Database) throws {
        for sql in creationStatements { try db.execute(sql: sql) }
        for (_, mapping) in mappings.sorted(by: { $0.value.number < $1.value.number }) {
            let parent = mapping.entity.parentName.flatMap { mappings[$0]?.number } ?? 0
            try db.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                           arguments: [mapping.number, mapping.entity.name, parent])
        }
    }

    /// The differences between this schema and a database's tables: missing tables and
    /// columns, by entity. Empty when the store fits the model.
    func differences(from db: Database) throws -> [String] {
        var problems: [String] = []
        func columns(of table: String) throws -> Set<String>? {
            let rows = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table.quotedDatabaseIdentifier))")
            if rows.isEmpty { return nil }
            return Set(rows.map { ($0["name"] as String).uppercased() })
        }
        for table in tables {
            guard let existing = try columns(of: table.name) else {
                problems.append("\(table.rootEntityName): no table \(table.name)")
                continue
            }
            let known = ["Z_PK", "Z_ENT", "Z_OPT"] + table.columns.map(\.name)
            let missing = known.filter { !existing.contains($0) }
            if !missing.isEmpty {
                problems.append("\(table.rootEntityName): table \(table.name) lacks \(missing.joined(separator: ", "))")
            }
            // A property's column the model lacks means another version of the model wrote the
            // store. Bookkeeping columns (`Z_…`, `Z<n>…`) are left to Core Data.
            let extra = existing.subtracting(known).filter(Self.isPropertyColumn).sorted()
            if !extra.isEmpty {
                problems.append("\(table.rootEntityName): table \(table.name) has \(extra.joined(separator: ", ")), which the model lacks")
            }
        }
        for join in joinTables {
            guard let existing = try columns(of: join.name) else {
                problems.append("no join table \(join.name)")
                continue
            }
            for c in [join.firstColumn, join.secondColumn] + join.orderColumns where !existing.contains(c) {
                problems.append("join table \(join.name) lacks \(c)")
            }
        }
        return problems
    }

    /// Whether a column name is one Core Data gives a property: `Z` and the upper-cased name.
    static func isPropertyColumn(_ name: String) -> Bool {
        guard name.hasPrefix("Z"), let next = name.dropFirst().first else { return false }
        return next != "_" && !next.isNumber
    }
}
