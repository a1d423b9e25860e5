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
    var creationStatements: [String] {
        let dialect = PostgresDialect()
        var statements: [SQLStatement] = []
        let bookkeeping = [SQLColumnDefinition("Z_PK", .bigint, primaryKey: true),
                           SQLColumnDefinition("Z_ENT", .bigint), SQLColumnDefinition("Z_OPT", .bigint)]
        for table in layout.tables {
            let columns = columnTypes[table.name]!.map { SQLColumnDefinition($0.name, $0.type) }
            statements.append(.createTable(table.name, columns: bookkeeping + columns))
        }
        for join in layout.joinTables {
            let columns = ([join.firstColumn, join.secondColumn] + join.orderColumns).map { SQLColumnDefinition($0, .bigint) }
            statements.append(.createTable(join.name, columns: columns, primaryKey: [join.firstColumn, join.secondColumn]))
        }
        for table in layout.tables {
            if table.entityNumbers.count > 1 {
                statements.append(.createIndex(table.name + "_Z_ENT_INDEX", on: table.name, columns: ["Z_ENT"]))
            }
            for index in table.indexes {
                statements.append(.createIndex(index.name, on: index.table, columns: index.columns))
            }
        }
        for join in layout.joinTables {
            statements.append(.createIndex(join.index.name, on: join.index.table, columns: join.index.columns))
        }
        statements.append(.createTable("Z_PRIMARYKEY", columns: [
            SQLColumnDefinition("Z_ENT", .bigint, primaryKey: true), SQLColumnDefinition("Z_NAME", .textByCodePoint),
            SQLColumnDefinition("Z_SUPER", .bigint), SQLColumnDefinition("Z_MAX", .bigint),
        ]))
        statements.append(.createTable("Z_METADATA", columns: [
            SQLColumnDefinition("Z_VERSION", .bigint, primaryKey: true), SQLColumnDefinition("Z_UUID", .textByCodePoint),
            SQLColumnDefinition("Z_PLIST", .bytea),
        ]))
        var text = statements.map { dialect.render($0).sql }
        for table in layout.tables {
            text.append("CREATE SEQUENCE " + dialect.quote(sequence(ofRoot: table.rootEntityName)))
        }
        return text
    }
}
