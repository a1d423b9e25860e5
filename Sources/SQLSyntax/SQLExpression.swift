import Foundation

/// An SQL expression as a tree: columns, bound values, operators, functions and
/// subqueries. A `SQLDialect` renders it; identifiers go through the dialect's one quoting
/// function and values become placeholders, so neither a model's names nor a predicate's
/// constants can change the statement's meaning.
///
/// ```swift
/// let e = SQLExpression.column("ZSALARY", of: "t0") > .value(.integer(60_000))
/// SQLiteDialect().render(e).sql        // t0.ZSALARY > ?
/// ```
public struct SQLExpression: Hashable, Sendable {
    indirect enum Node: Hashable, Sendable {
        /// `table.name`, or `name` alone.
        case column(table: String?, name: String)
        /// `?`: a bound value.
        case value(SQLValue)
        /// `?`: a placeholder whose value is bound each time a prepared statement runs.
        case parameter
        /// A literal integer in the text (never a value from outside the program).
        case integer(Int64)
        /// A literal name in the text, quoted: a column's or a table's, which the program made.
        case name(String)
        case null
        case boolean(Bool)
        /// `a AND b AND ...`
        case and([Node])
        /// `a OR b OR ...`
        case or([Node])
        /// `NOT a`
        case not(Node)
        /// `a op b`
        case binary(Node, SQLOperator, Node)
        /// `a IS NULL`, `a IS NOT NULL`
        case isNull(Node, negated: Bool)
        /// `a BETWEEN low AND high`
        case between(Node, Node, Node)
        /// `a IN (b, c, ...)`
        case `in`(Node, [Node])
        /// `name(arguments)`: a built-in or a function the store registers.
        case function(String, [Node])
        /// `COUNT(*)`
        case countAll
        /// `EXISTS (SELECT ...)`
        case exists(SQLSelect)
        /// `(SELECT ...)`: a scalar subquery.
        case subquery(SQLSelect)
        /// `a COLLATE name`
        case collate(Node, String)
        /// `a IN (SELECT ...)`
        case inSelect(Node, SQLSelect)
        /// `CASE WHEN condition THEN a ELSE b END`
        case caseWhen(Node, Node, Node)
    }

    let node: Node

    init(_ node: Node) { self.node = node }

    // MARK: Leaves

    /// A column, qualified by a table or alias when one is given.
    public static func column(_ name: String, of table: String? = nil) -> SQLExpression {
        SQLExpression(.column(table: table, name: name))
    }

    /// A value bound to a placeholder.
    public static func value(_ value: SQLValue) -> SQLExpression { SQLExpression(.value(value)) }

    /// A placeholder whose value the caller binds each time the prepared statement runs,
    /// in the order the placeholders appear. A statement holds either these or `value`s.
    public static let parameter = SQLExpression(.parameter)

    /// An integer written into the statement: for constants of the program, never for data.
    public static func literal(_ n: Int64) -> SQLExpression { SQLExpression(.integer(n)) }
    /// `'name'`: a name the program made (a column's, a table's) as a string in the text, for
    /// statements kept in the schema (a trigger's), which take no bound values.
    public static func literal(name: String) -> SQLExpression { SQLExpression(.name(name)) }

    public static let null = SQLExpression(.null)
    public static let `true` = SQLExpression(.boolean(true))
    public static let `false` = SQLExpression(.boolean(false))
    /// `COUNT(*)`
    public static let countAll = SQLExpression(.countAll)

    // MARK: Logic

    /// All of the conditions: `true` for none, the condition itself for one.
    public static func and(_ parts: [SQLExpression]) -> SQLExpression {
        switch parts.count {
        case 0: return .true
        case 1: return parts[0]
        default: return SQLExpression(.and(parts.map(\.node)))
        }
    }

    /// Any of the conditions: `false` for none, the condition itself for one.
    public static func or(_ parts: [SQLExpression]) -> SQLExpression {
        switch parts.count {
        case 0: return .false
        case 1: return parts[0]
        default: return SQLExpression(.or(parts.map(\.node)))
        }
    }

    public static func not(_ e: SQLExpression) -> SQLExpression { SQLExpression(.not(e.node)) }

    // MARK: Comparisons

    public static func binary(_ lhs: SQLExpression, _ op: SQLOperator, _ rhs: SQLExpression) -> SQLExpression {
        SQLExpression(.binary(lhs.node, op, rhs.node))
    }

    public static func == (lhs: SQLExpression, rhs: SQLExpression) -> SQLExpression { binary(lhs, .equal, rhs) }
    public static func < (lhs: SQLExpression, rhs: SQLExpression) -> SQLExpression { binary(lhs, .less, rhs) }
    public static func > (lhs: SQLExpression, rhs: SQLExpression) -> SQLExpression { binary(lhs, .greater, rhs) }

    /// `IS NULL`, or `IS NOT NULL` when negated.
    public func isNull(negated: Bool = false) -> SQLExpression { SQLExpression(.isNull(node, negated: negated)) }

    public func between(_ low: SQLExpression, and high: SQLExpression) -> SQLExpression {
        SQLExpression(.between(node, low.node, high.node))
    }

    /// `IN (SELECT ...)`: one of the values the query gives.
    public func isIn(_ select: SQLSelect) -> SQLExpression { SQLExpression(.inSelect(node, select)) }

    /// `IN (...)`; an empty list is no match.
    public func isIn(_ list: [SQLExpression]) -> SQLExpression {
        list.isEmpty ? .false : SQLExpression(.in(node, list.map(\.node)))
    }

    // MARK: Functions and subqueries

    public static func function(_ name: String, _ arguments: [SQLExpression]) -> SQLExpression {
        SQLExpression(.function(name, arguments.map(\.node)))
    }

    /// `COALESCE(e, fallback)`
    public static func coalesce(_ e: SQLExpression, _ fallback: SQLExpression) -> SQLExpression {
        function("COALESCE", [e, fallback])
    }

    public static func exists(_ select: SQLSelect) -> SQLExpression { SQLExpression(.exists(select)) }

    /// `CASE WHEN condition THEN a ELSE b END`
    public static func caseWhen(_ condition: SQLExpression, then a: SQLExpression, else b: SQLExpression) -> SQLExpression {
        SQLExpression(.caseWhen(condition.node, a.node, b.node))
    }

    public static func subquery(_ select: SQLSelect) -> SQLExpression { SQLExpression(.subquery(select)) }

    public func collated(_ collation: String) -> SQLExpression { SQLExpression(.collate(node, collation)) }
}

/// A binary operator of SQL.
public enum SQLOperator: String, Hashable, Sendable {
    case equal = "="
    case notEqual = "<>"
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    /// `IS`: equal, where NULL equals NULL.
    case `is` = "IS"
    /// `IS NOT`: not equal, where NULL equals NULL.
    case isNot = "IS NOT"
    case plus = "+"
    case minus = "-"
    case times = "*"
    case divide = "/"
    /// Bitwise or of two integers.
    case bitOr = "|"
    case remainder = "%"
    /// `LIKE`, with `%`, `_` and `\` (the escape) as the engine reads them: not SQLite's,
    /// whose LIKE ignores ASCII case.
    case like = "LIKE"
    /// PostgreSQL's regular-expression match, and its case-insensitive form.
    case matchesRegex = "~"
    case matchesRegexIgnoringCase = "~*"
}

extension SQLExpression {
    /// The column this expression is, with its table or alias; nil for any other expression.
    package var columnReference: (table: String?, name: String)? {
        if case .column(let table, let name) = node { return (table, name) }
        return nil
    }
}
