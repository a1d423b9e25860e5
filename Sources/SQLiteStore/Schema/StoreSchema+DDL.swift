import Foundation
import GRDB
import ObjectModel
import SQLSyntax

extension StoreSchema {
    /// The statements that create an empty store: entity tables, join tables, indexes and
    /// the bookkeeping tables `Z_PRIMARYKEY` and `Z_METADATA`, as Core Data writes them.
    var creationStatements: [String] {
        creationSyntax.map(\.sqlite)
    }

    /// The creation statements as syntax trees.
    var creationSyntax: [SQLStatement] {
        var statements: [SQLStatement] = []
        let bookkeeping = [SQLColumnDefinition("Z_PK", .integer, primaryKey: true),
                           SQLColumnDefinition("Z_ENT", .integer), SQLColumnDefinition("Z_OPT", .integer)]
        for table in tables {
            statements.append(.createTable(table.name, columns: bookkeeping + table.columns.map { SQLColumnDefinition($0.name, $0.declaredType) },
                                           padded: true))
        }
        for join in joinTables {
            let columns = ([join.firstColumn, join.secondColumn] + join.orderColumns).map { SQLColumnDefinition($0, .integer) }
            statements.append(.createTable(join.name, columns: columns, primaryKey: [join.firstColumn, join.secondColumn], padded: true))
        }
        for table in tables {
            if table.entityNumbers.count > 1 {
                statements.append(.createIndex(table.name + "_Z_ENT_INDEX", on: table.name, columns: ["Z_ENT"]))
            }
            for index in table.indexes { statements.append(index.creation()) }
        }
        for join in joinTables {
            statements.append(.createIndex(join.index.name, on: join.index.table, columns: join.index.columns))
        }
        statements.append(.createTable("Z_PRIMARYKEY", columns: [
            SQLColumnDefinition("Z_ENT", .integer, primaryKey: true), SQLColumnDefinition("Z_NAME", .varchar),
            SQLColumnDefinition("Z_SUPER", .integer), SQLColumnDefinition("Z_MAX", .integer),
        ]))
        statements.append(.createTable("Z_METADATA", columns: [
            SQLColumnDefinition("Z_VERSION", .integer, primaryKey: true), SQLColumnDefinition("Z_UUID", .varchar255),
            SQLColumnDefinition("Z_PLIST", .blob),
        ]))
        return statements
    }

    /// Creates the schema in an empty database and fills `Z_PRIMARYKEY`.
    func create(in db: Database) throws {
        // One statement at a time: a prepared statement holds exactly one.
        for sql in creationStatements { try db.makeStatement(sql: sql).execute() }
        let insert = SQLStatement.insert(into: "Z_PRIMARYKEY", columns: ["Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX"],
                                         values: [.parameter, .parameter, .parameter, .literal(0)]).sqlite
        for (_, mapping) in mappings.sorted(by: { $0.value.number < $1.value.number }) {
            let parent = mapping.entity.parentName.flatMap { mappings[$0]?.number } ?? 0
            try db.cachedStatement(sql: insert).execute(arguments: [mapping.number, mapping.entity.name, parent])
        }
    }

    /// The differences between this schema and a database's tables: missing tables and
    /// columns, columns the model lacks, and columns declared for another kind of value than
    /// the model keeps in them (text in a column of numbers), by entity. Empty when the store
    /// fits the model.
    func differences(from db: Database) throws -> [String] {
        var problems: [String] = []
        func columns(of table: String) throws -> [String: String]? {
            let rows = try Row.fetchAll(db, sql: "PRAGMA table_info(\(SQLiteStore.dialect.quote(table)))")
            if rows.isEmpty { return nil }
            var types: [String: String] = [:]
            for row in rows {
                types[(String.fromDatabaseValue(row["name"]) ?? "").uppercased()] = (String.fromDatabaseValue(row["type"]) ?? "").uppercased()
            }
            return types
        }
        for table in tables {
            guard let existing = try columns(of: table.name) else {
                problems.append("\(table.rootEntityName): no table \(table.name)")
                continue
            }
            let known = ["Z_PK", "Z_ENT", "Z_OPT"] + table.columns.map(\.name)
            let missing = known.filter { existing[$0] == nil }
            if !missing.isEmpty {
                problems.append("\(table.rootEntityName): table \(table.name) lacks \(missing.joined(separator: ", "))")
            }
            // A property's column the model lacks means another version of the model wrote the
            // store. Bookkeeping columns (`Z_…`, `Z<n>…`) are left to Core Data.
            let extra = Set(existing.keys).subtracting(known).filter(Self.isPropertyColumn).sorted()
            if !extra.isEmpty {
                problems.append("\(table.rootEntityName): table \(table.name) has \(extra.joined(separator: ", ")), which the model lacks")
            }
            for column in table.columns {
                guard let declared = existing[column.name] else { continue }
                let stored = ValueKind(declaredType: declared), wanted = ValueKind(declaredType: column.declaredType.description)
                if stored != wanted, stored != .any {
                    problems.append("\(table.rootEntityName): column \(table.name).\(column.name) is declared \(declared) (\(stored)), where the model keeps \(wanted)")
                }
            }
        }
        for join in joinTables {
            guard let existing = try columns(of: join.name) else {
                problems.append("no join table \(join.name)")
                continue
            }
            for c in [join.firstColumn, join.secondColumn] + join.orderColumns where existing[c] == nil {
                problems.append("join table \(join.name) lacks \(c)")
            }
        }
        return problems
    }

    /// The kind of value a column's declared type holds, by SQLite's rules for a column's
    /// affinity ("Datatypes In SQLite", 3.1): kinds within one (integers, reals, dates,
    /// decimals are all numbers) read back as the model expects; across them they do not.
    enum ValueKind: CustomStringConvertible {
        case text, bytes, numbers
        /// A column declared without a type, which holds anything.
        case any

        init(declaredType: String) {
            let type = declaredType.uppercased()
            if type.contains("INT") { self = .numbers }
            else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") { self = .text }
            else if type.contains("BLOB") { self = .bytes }
            else if type.trimmingCharacters(in: .whitespaces).isEmpty { self = .any }
            else { self = .numbers }
        }

        var description: String {
            switch self {
            case .text: "text"
            case .bytes: "bytes"
            case .numbers: "numbers"
            case .any: "any value"
            }
        }
    }

    /// Whether a column name is one Core Data gives a property: `Z` and the upper-cased name.
    static func isPropertyColumn(_ name: String) -> Bool {
        guard name.hasPrefix("Z"), let next = name.dropFirst().first else { return false }
        // A name no property could have (`Z NAME`) is another program's column, not a property's.
        return next != "_" && !next.isNumber && ManagedObjectModel.isValidName(String(name.dropFirst()))
    }
}
