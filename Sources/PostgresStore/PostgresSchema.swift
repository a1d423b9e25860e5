import Foundation
import ObjectModel
import SQLSyntax

/// Core Data's layout in PostgreSQL: the same tables, columns and indexes as in a SQLite
/// store (`StoreSchema`), in PostgreSQL's types, with the folded copies of string columns and
/// one sequence per inheritance root for primary keys.
struct PostgresSchema: Sendable {
    let layout: StoreSchema
    /// Each entity table's columns after `Z_PK`, `Z_ENT` and `Z_OPT`, with their types.
    let columnTypes: [String: [(name: String, type: SQLColumnType)]]
    /// Each entity's folded copies: the attribute's position in `entity.attributes`, and the
    /// copy's column and fold.
    let foldedColumns: [String: [(position: Int, column: String, fold: FoldedColumns.Fold)]]

    init(layout: StoreSchema) {
        self.layout = layout
        var types: [String: [(String, SQLColumnType)]] = [:]
        var folded: [String: [(Int, String, FoldedColumns.Fold)]] = [:]
        for table in layout.tables {
            var byColumn: [String: SQLColumnType] = [:]
            var copies: [String] = []
            for number in table.entityNumbers {
                guard let name = layout.entityName(forNumber: number), let mapping = layout.mapping(for: name) else { continue }
                for (attribute, column) in mapping.attributes {
                    byColumn[column] = PostgresValueCoding.columnType(of: attribute.type)
                    if attribute.type == .string || attribute.type == .uri {
                        for fold in FoldedColumns.Fold.allCases {
                            let copy = FoldedColumns.name(of: column, fold)
                            if !copies.contains(copy) { copies.append(copy) }
                        }
                    }
                }
            }
            types[table.name] = table.columns.map { ($0.name, byColumn[$0.name] ?? .bigint) } + copies.map { ($0, .textByCodePoint) }
        }
        for (name, mapping) in layout.mappings {
            folded[name] = mapping.attributes.enumerated().flatMap { _, pair -> [(Int, String, FoldedColumns.Fold)] in
                let (attribute, column) = pair
                guard attribute.type == .string || attribute.type == .uri,
                      let position = mapping.entity.attributeIndex(of: attribute.name) else { return [] }
                return FoldedColumns.Fold.allCases.map { (position, FoldedColumns.name(of: column, $0), $0) }
            }
        }
        columnTypes = types
        foldedColumns = folded
    }

    /// The sequence that hands out the primary keys of a root entity's table.
    func sequence(ofRoot root: String) -> String {
        "Z_PK_SEQ_\(layout.mapping(for: root)!.number)"
    }

    /// The statements that make an empty store.
    /// The longest name PostgreSQL keeps whole (NAMEDATALEN - 1 bytes); it cuts longer ones.
    static let longestName = 63

    /// The first quoted name in `statements` longer than `longestName` bytes, without its quotes.
    static func firstLongName(in statements: [String]) -> String? {
        for statement in statements where statement.contains("\"") {
            var name: String?
            var iterator = statement.makeIterator()
            while let c = iterator.next() {
                if name == nil {
                    if c == "\"" { name = "" }
                } else if c == "\"" {
                    // A doubled quote is a quote within the name.
                    var copy = iterator
                    if copy.next() == "\"" { iterator = copy; name!.append("\"") } else {
                        if name!.utf8.count > longestName { return name }
                        name = nil
                    }
                } else {
                    name!.append(c)
                }
            }
        }
        return nil
    }

    var creationStatements: [String] {
        let dialect = PostgresDialect()
        var text = layout.tables.map { dialect.render(tableCreation($0)).sql }
        text += layout.joinTables.map { dialect.render(joinTableCreation($0)).sql }
        for table in layout.tables { text += indexCreation(table).map { dialect.render($0).sql } }
        text += layout.joinTables.map { dialect.render(joinIndexCreation($0)).sql }
        text.append(dialect.render(.createTable("Z_PRIMARYKEY", columns: [
            SQLColumnDefinition("Z_ENT", .bigint, primaryKey: true), SQLColumnDefinition("Z_NAME", .textByCodePoint),
            SQLColumnDefinition("Z_SUPER", .bigint), SQLColumnDefinition("Z_MAX", .bigint),
        ])).sql)
        text.append(dialect.render(.createTable("Z_METADATA", columns: [
            SQLColumnDefinition("Z_VERSION", .bigint, primaryKey: true), SQLColumnDefinition("Z_UUID", .textByCodePoint),
            SQLColumnDefinition("Z_PLIST", .bytea),
        ])).sql)
        text += layout.tables.map(sequenceCreation)
        return text
    }

    /// An entity table: the bookkeeping columns, then its columns in their types.
    func tableCreation(_ table: StoreSchema.Table) -> SQLStatement {
        let bookkeeping = [SQLColumnDefinition("Z_PK", .bigint, primaryKey: true),
                           SQLColumnDefinition("Z_ENT", .bigint), SQLColumnDefinition("Z_OPT", .bigint)]
        return .createTable(table.name, columns: bookkeeping + columnTypes[table.name]!.map { SQLColumnDefinition($0.name, $0.type) })
    }

    func joinTableCreation(_ join: StoreSchema.JoinTable) -> SQLStatement {
        let columns = ([join.firstColumn, join.secondColumn] + join.orderColumns).map { SQLColumnDefinition($0, .bigint) }
        return .createTable(join.name, columns: columns, primaryKey: [join.firstColumn, join.secondColumn])
    }

    /// An entity table's indexes: `Z_ENT` where several entities share it, and the model's.
    func indexCreation(_ table: StoreSchema.Table) -> [SQLStatement] {
        var statements: [SQLStatement] = []
        if table.entityNumbers.count > 1 {
            statements.append(.createIndex(table.name + "_Z_ENT_INDEX", on: table.name, columns: ["Z_ENT"]))
        }
        for index in table.indexes { statements.append(index.creation()) }
        return statements
    }

    func joinIndexCreation(_ join: StoreSchema.JoinTable) -> SQLStatement {
        .createIndex(join.index.name, on: join.index.table, columns: join.index.columns)
    }

    /// The sequence of a root table's keys.
    func sequenceCreation(_ table: StoreSchema.Table) -> String {
        "CREATE SEQUENCE " + PostgresDialect().quote(sequence(ofRoot: table.rootEntityName))
    }
}
