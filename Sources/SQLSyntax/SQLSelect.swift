import Foundation

/// A SELECT statement as a tree: result columns, a source with its joins, a filter,
/// grouping, ordering and a limit.
///
/// ```swift
/// var select = SQLSelect(columns: [.column("Z_PK", of: "t0")], from: .table("ZITEM", as: "t0"))
/// select.filter = .column("ZDONE", of: "t0") == .value(.integer(0))
/// SQLiteDialect().render(select).sql   // SELECT t0.Z_PK FROM ZITEM t0 WHERE t0.ZDONE = ?
/// ```
public struct SQLSelect: Hashable, Sendable {
    public var distinct = false
    public var columns: [SQLExpression]
    public var from: SQLSource?
    public var joins: [SQLJoin] = []
    /// The WHERE clause.
    public var filter: SQLExpression?
    public var groupBy: [SQLExpression] = []
    public var having: SQLExpression?
    public var orderBy: [SQLOrdering] = []
    public var limit: SQLExpression?
    public var offset: SQLExpression?

    public init(columns: [SQLExpression], from: SQLSource? = nil, joins: [SQLJoin] = [], filter: SQLExpression? = nil) {
        self.columns = columns
        self.from = from
        self.joins = joins
        self.filter = filter
    }
}

/// What a SELECT reads from: a table under an alias, or a subquery.
public indirect enum SQLSource: Hashable, Sendable {
    /// `name alias`, with `NOT INDEXED` when the table is to be read in order.
    case table(String, alias: String?, notIndexed: Bool)
    /// `(SELECT ...)`
    case subquery(SQLSelect)

    public static func table(_ name: String, as alias: String? = nil) -> SQLSource {
        .table(name, alias: alias, notIndexed: false)
    }
}

/// `LEFT JOIN table alias ON condition`, or an inner `JOIN`.
public struct SQLJoin: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        case inner = "JOIN"
        case left = "LEFT JOIN"
    }

    public var kind: Kind
    public var table: String
    public var alias: String
    public var condition: SQLExpression

    public init(_ kind: Kind, _ table: String, as alias: String, on condition: SQLExpression) {
        self.kind = kind
        self.table = table
        self.alias = alias
        self.condition = condition
    }
}

/// One term of ORDER BY.
public struct SQLOrdering: Hashable, Sendable {
    public var expression: SQLExpression
    public var ascending: Bool

    public init(_ expression: SQLExpression, ascending: Bool = true) {
        self.expression = expression
        self.ascending = ascending
    }
}
