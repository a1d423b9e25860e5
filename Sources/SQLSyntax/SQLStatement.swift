import Foundation

/// A whole statement: a query, a change to rows, or a change to the schema. Every name in
/// it is an identifier the dialect quotes; every value is bound.
///
/// ```swift
/// let s = SQLStatement.update("ZITEM", set: [("ZNAME", .value(.text("x")))],
///                             where: .column("Z_PK") == .value(.integer(3)))
/// SQLiteDialect().render(s).sql   // UPDATE ZITEM SET ZNAME = ? WHERE Z_PK = ?
/// ```
public struct SQLStatement: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        case select(SQLSelect)
        case insert(table: String, columns: [String], values: [SQLExpression], orIgnore: Bool)
        case insertSelect(table: String, columns: [String], select: SQLSelect)
        case update(table: String, assignments: [Assignment], filter: SQLExpression?)
        case delete(table: String, filter: SQLExpression?)
        case createTable(String, columns: [SQLColumnDefinition], primaryKey: [String], padded: Bool)
        case createIndex(String, table: String, columns: [String], ifNotExists: Bool, unique: Bool)
        case createKeyIndex(String, table: String, keys: [SQLIndexKey], ifNotExists: Bool, unique: Bool)
        case dropIndex(String, ifExists: Bool)
        case addColumn(table: String, SQLColumnDefinition)
        case dropColumn(table: String, column: String)
        case renameColumn(table: String, from: String, to: String)
        case createTrigger(String, event: SQLTriggerEvent, table: String, when: SQLExpression?, body: [SQLStatement])
        case dropTrigger(String, ifExists: Bool)
    }

    struct Assignment: Hashable, Sendable {
        var column: String
        var value: SQLExpression
    }

    let kind: Kind

    public static func select(_ select: SQLSelect) -> SQLStatement { SQLStatement(kind: .select(select)) }

    /// `INSERT [OR IGNORE] INTO table (columns) VALUES (values)`
    public static func insert(into table: String, columns: [String], values: [SQLExpression], orIgnore: Bool = false) -> SQLStatement {
        precondition(columns.count == values.count, "INSERT INTO \(table): \(columns.count) columns and \(values.count) values")
        return SQLStatement(kind: .insert(table: table, columns: columns, values: values, orIgnore: orIgnore))
    }

    /// `INSERT INTO table (columns) SELECT ...`: the rows the query gives.
    public static func insert(into table: String, columns: [String], select: SQLSelect) -> SQLStatement {
        precondition(columns.count == select.columns.count, "INSERT INTO \(table): \(columns.count) columns and \(select.columns.count) selected")
        return SQLStatement(kind: .insertSelect(table: table, columns: columns, select: select))
    }

    /// `UPDATE table SET column = value, ... [WHERE filter]`
    public static func update(_ table: String, set assignments: [(String, SQLExpression)], where filter: SQLExpression? = nil) -> SQLStatement {
        SQLStatement(kind: .update(table: table, assignments: assignments.map { Assignment(column: $0.0, value: $0.1) }, filter: filter))
    }

    /// `DELETE FROM table [WHERE filter]`
    public static func delete(from table: String, where filter: SQLExpression? = nil) -> SQLStatement {
        SQLStatement(kind: .delete(table: table, filter: filter))
    }

    /// `CREATE TABLE name (columns, PRIMARY KEY (...))`; the key clause only when given.
    /// `padded` writes `( columns )`, as Core Data writes its entity and join tables.
    public static func createTable(_ name: String, columns: [SQLColumnDefinition], primaryKey: [String] = [],
                                   padded: Bool = false) -> SQLStatement {
        SQLStatement(kind: .createTable(name, columns: columns, primaryKey: primaryKey, padded: padded))
    }

    public static func createIndex(_ name: String, on table: String, columns: [String], ifNotExists: Bool = false) -> SQLStatement {
        SQLStatement(kind: .createIndex(name, table: table, columns: columns, ifNotExists: ifNotExists, unique: false))
    }

    /// An index as Core Data writes one for a fetch index or a uniqueness constraint: each
    /// column with its direction and (in SQLite) `COLLATE BINARY`, unique or not.
    ///
    /// ```swift
    /// SQLiteDialect().render(.createIndex("Z_Car_byMaker", on: "ZCAR", keys: [SQLIndexKey("ZMAKER")])).sql
    /// // CREATE INDEX Z_Car_byMaker ON ZCAR (ZMAKER COLLATE BINARY ASC)
    /// ```
    public static func createIndex(_ name: String, on table: String, keys: [SQLIndexKey], unique: Bool = false,
                                   ifNotExists: Bool = false) -> SQLStatement {
        SQLStatement(kind: .createKeyIndex(name, table: table, keys: keys, ifNotExists: ifNotExists, unique: unique))
    }

    /// `CREATE UNIQUE INDEX`: no two rows share the columns' values.
    public static func createUniqueIndex(_ name: String, on table: String, columns: [String]) -> SQLStatement {
        SQLStatement(kind: .createIndex(name, table: table, columns: columns, ifNotExists: false, unique: true))
    }

    public static func dropIndex(_ name: String, ifExists: Bool = false) -> SQLStatement {
        SQLStatement(kind: .dropIndex(name, ifExists: ifExists))
    }

    public static func addColumn(to table: String, _ column: SQLColumnDefinition) -> SQLStatement {
        SQLStatement(kind: .addColumn(table: table, column))
    }

    public static func dropColumn(_ column: String, from table: String) -> SQLStatement {
        SQLStatement(kind: .dropColumn(table: table, column: column))
    }

    /// `CREATE TRIGGER name AFTER event ON table [WHEN condition] BEGIN body; END`. In the
    /// condition and the body, `.column(name, of: "NEW")` and `of: "OLD"` name the row's
    /// values after and before the change.
    public static func createTrigger(_ name: String, after event: SQLTriggerEvent, on table: String,
                                     when condition: SQLExpression? = nil, body: [SQLStatement]) -> SQLStatement {
        precondition(!body.isEmpty, "a trigger runs at least one statement")
        return SQLStatement(kind: .createTrigger(name, event: event, table: table, when: condition, body: body))
    }

    public static func dropTrigger(_ name: String, ifExists: Bool = false) -> SQLStatement {
        SQLStatement(kind: .dropTrigger(name, ifExists: ifExists))
    }

    public static func renameColumn(_ from: String, to: String, in table: String) -> SQLStatement {
        SQLStatement(kind: .renameColumn(table: table, from: from, to: to))
    }
}

/// What a trigger follows: rows inserted, deleted, or updated (in any column, or in the
/// columns listed).
public enum SQLTriggerEvent: Hashable, Sendable {
    case insert
    case delete
    case update(of: [String])
}

/// A column of CREATE TABLE or ADD COLUMN: its name and declared type.
public struct SQLColumnDefinition: Hashable, Sendable {
    public var name: String
    public var type: SQLColumnType
    public var isPrimaryKey: Bool

    public init(_ name: String, _ type: SQLColumnType, primaryKey: Bool = false) {
        self.name = name
        self.type = type
        self.isPrimaryKey = primaryKey
    }
}

/// A declared column type. The set is closed: a type name never comes from a model file.
public struct SQLColumnType: Hashable, Sendable, CustomStringConvertible {
    public let description: String

    private init(_ name: String) { description = name }

    public static let integer = SQLColumnType("INTEGER")
    public static let float = SQLColumnType("FLOAT")
    public static let decimal = SQLColumnType("DECIMAL")
    public static let varchar = SQLColumnType("VARCHAR")
    public static let varchar255 = SQLColumnType("VARCHAR(255)")
    public static let timestamp = SQLColumnType("TIMESTAMP")
    public static let blob = SQLColumnType("BLOB")

    // PostgreSQL's own types.
    public static let bigint = SQLColumnType("BIGINT")
    public static let doublePrecision = SQLColumnType("DOUBLE PRECISION")
    public static let numeric = SQLColumnType("NUMERIC")
    /// Text ordered by code point, as memory orders strings.
    public static let textByCodePoint = SQLColumnType("TEXT COLLATE \"C\"")
    public static let timestamptz = SQLColumnType("TIMESTAMPTZ")
    public static let bytea = SQLColumnType("BYTEA")
    public static let uuid = SQLColumnType("UUID")
}

/// A column of an index with its direction, as a fetch index's element gives it.
public struct SQLIndexKey: Hashable, Sendable {
    /// The column.
    public var column: String
    /// Whether the index orders the column's values up (`ASC`) or down (`DESC`).
    public var ascending: Bool

    /// A column of an index, ascending unless told.
    public init(_ column: String, ascending: Bool = true) {
        self.column = column
        self.ascending = ascending
    }
}
