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
        if arguments.contains(where: Self.hasNUL) { bindWholeText() }
    }

    /// Whether a value is text with a NUL character in it.
    private static func hasNUL(_ value: DatabaseValue) -> Bool {
        if case .string(let s) = value.storage { return s.utf8.contains(0) }
        return false
    }

    /// GRDB binds text as a C string, which ends at the first NUL. Text with a NUL is bound
    /// as its UTF-8 bytes instead, and its placeholder becomes `CAST(? AS TEXT)`, which
    /// reads those bytes back as the whole text.
    private mutating func bindWholeText() {
        var result = ""
        var index = 0
        var quoted = false
        for character in sql {
            if character == "'" { quoted.toggle() }
            guard character == "?", !quoted else { result.append(character); continue }
            if index < arguments.count, case .string(let s) = arguments[index].storage, s.utf8.contains(0) {
                result += "CAST(? AS TEXT)"
                arguments[index] = Data(s.utf8).databaseValue
            } else {
                result.append(character)
            }
            index += 1
        }
        sql = result
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
