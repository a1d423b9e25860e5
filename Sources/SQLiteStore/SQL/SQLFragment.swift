import Foundation
import GRDB

/// A piece of SQL with the values bound to its `?` placeholders, in order.
///
/// Values never enter the SQL text: every constant of a predicate becomes an argument.
///
/// ```swift
/// let f = SQLFragment("t0.ZNAME = ?", [.string("Home")])
/// ```
struct SQLFragment: Equatable {
    var sql: String
    var arguments: [DatabaseValue]

    init(_ sql: String, _ arguments: [DatabaseValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    static let alwaysTrue = SQLFragment("1")
    static let alwaysFalse = SQLFragment("0")

    /// Fragments joined by a separator, their arguments concatenated.
    static func joined(_ parts: [SQLFragment], separator: String) -> SQLFragment {
        SQLFragment(parts.map(\.sql).joined(separator: separator), parts.flatMap(\.arguments))
    }

    /// The fragment in parentheses.
    var parenthesized: SQLFragment { SQLFragment("(\(sql))", arguments) }

    var statementArguments: StatementArguments { StatementArguments(arguments) }
}
