import Foundation

/// What differs between SQL engines in how a tree becomes text: how identifiers are
/// quoted, how placeholders and booleans are written, and how a value is bound.
///
/// ```swift
/// let (sql, arguments) = SQLiteDialect().render(.select(select))
/// ```
public protocol SQLDialect: Sendable {
    /// The identifier as the engine reads it back unchanged: every table, column, index and
    /// alias name passes through here and nowhere else.
    func quote(_ identifier: String) -> String

    /// The placeholder of the bound value at `index` (from 1), and the value to bind there.
    func placeholder(_ index: Int, for value: SQLValue) -> (text: String, value: SQLValue)

    /// `TRUE` or `FALSE` as the engine writes a boolean constant.
    func boolean(_ value: Bool) -> String
}

extension SQLDialect {
    /// The text and the bound values of a statement.
    public func render(_ statement: SQLStatement) -> RenderedSQL {
        var renderer = SQLRenderer(dialect: self)
        renderer.write(statement)
        return renderer.result
    }

    /// The text and the bound values of a query.
    public func render(_ select: SQLSelect) -> RenderedSQL { render(.select(select)) }

    /// The text and the bound values of an expression on its own.
    public func render(_ expression: SQLExpression) -> RenderedSQL {
        var renderer = SQLRenderer(dialect: self)
        renderer.write(expression.node, needing: .lowest)
        return renderer.result
    }
}

/// A statement as text with the values for its placeholders, in order.
public struct RenderedSQL: Hashable, Sendable {
    public var sql: String
    public var arguments: [SQLValue]

    public init(sql: String, arguments: [SQLValue]) {
        self.sql = sql
        self.arguments = arguments
    }
}
