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

    /// The text of a binary operator: engines differ on equality where NULL equals NULL.
    func text(of op: SQLOperator) -> String

    /// How an insert that skips rows already there is written: SQLite's `INSERT OR IGNORE`,
    /// or a clause after the values (`ON CONFLICT DO NOTHING`).
    var ignoresConflicts: IgnoredConflicts { get }

    /// Whether `FROM table NOT INDEXED` is understood (SQLite's hint to scan in order).
    var readsNotIndexed: Bool { get }

    /// Whether NULL sorts before every value in an ascending order without being told (SQLite);
    /// otherwise the renderer says `NULLS FIRST` (ascending) and `NULLS LAST` (descending), as
    /// memory orders a missing value first, and makes index columns `NULLS FIRST` so that an
    /// index still serves such an order in both directions.
    var sortsNullsFirst: Bool { get }

    /// What a query with an offset but no limit writes after `LIMIT` (the tree holds a
    /// negative limit then), or nil where a negative limit means none (SQLite).
    var noLimit: String? { get }
}

/// Where an engine says that an insert skips rows already there.
public enum IgnoredConflicts: Sendable {
    /// `INSERT OR IGNORE INTO ...`
    case orIgnore
    /// `INSERT INTO ... ON CONFLICT DO NOTHING`
    case onConflictDoNothing
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

extension SQLDialect {
    /// An identifier in double quotes, each `"` in it doubled: SQL's quoted name. Names are
    /// quoted for every statement, so the common case (no quote in the name) copies once.
    static func doubleQuoted(_ identifier: String) -> String {
        var hasQuote = false
        for byte in identifier.utf8 {
            precondition(byte != 0, "an SQL identifier cannot hold a NUL character: \(identifier.debugDescription)")
            if byte == UInt8(ascii: "\"") { hasQuote = true }
        }
        guard hasQuote else { return "\"" + identifier + "\"" }
        var quoted = "\""
        for character in identifier.unicodeScalars {
            quoted.unicodeScalars.append(character)
            if character == "\"" { quoted.unicodeScalars.append(character) }
        }
        return quoted + "\""
    }
}
