import Foundation

/// SQLite's SQL: `?` placeholders, `1` and `0` for booleans, and identifiers in double
/// quotes unless they are plain words that are not keywords.
///
/// ```swift
/// SQLiteDialect().quote("ZNAME")        // ZNAME
/// SQLiteDialect().quote("ORDER")        // "ORDER"
/// SQLiteDialect().quote("a\"b c")       // "a""b c"
/// ```
public struct SQLiteDialect: SQLDialect {
    public init() {}

    public func quote(_ identifier: String) -> String {
        precondition(!identifier.utf8.contains(0), "an SQL identifier cannot hold a NUL character: \(identifier.debugDescription)")
        if Self.isPlainWord(identifier), !Self.keywords.contains(identifier.uppercased()) { return identifier }
        return Self.doubleQuoted(identifier)
    }

    /// Text with a NUL character is bound as its UTF-8 bytes and read back as text:
    /// SQLite's C interface takes bound text up to its first NUL otherwise.
    public func placeholder(_ index: Int, for value: SQLValue) -> (text: String, value: SQLValue) {
        if case .text(let s) = value, s.utf8.contains(0) { return ("CAST(? AS TEXT)", .blob(Data(s.utf8))) }
        return ("?", value)
    }

    public func boolean(_ value: Bool) -> String { value ? "1" : "0" }

    public func text(of op: SQLOperator) -> String { op.rawValue }

    public var ignoresConflicts: IgnoredConflicts { .orIgnore }

    public var readsNotIndexed: Bool { true }

    public var sortsNullsFirst: Bool { true }

    public var noLimit: String? { nil }

    /// ASCII letters, digits and underscores, not starting with a digit.
    static func isPlainWord(_ s: String) -> Bool {
        guard let first = s.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return s.utf8.allSatisfy { c in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(c)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) || c == UInt8(ascii: "_")
        }
    }

    /// SQLite's keywords (https://sqlite.org/lang_keywords.html), which a bare name may not be.
    static let keywords: Set<String> = [
        "ABORT", "ACTION", "ADD", "AFTER", "ALL", "ALTER", "ALWAYS", "ANALYZE", "AND", "AS", "ASC", "ATTACH",
        "AUTOINCREMENT", "BEFORE", "BEGIN", "BETWEEN", "BY", "CASCADE", "CASE", "CAST", "CHECK", "COLLATE",
        "COLUMN", "COMMIT", "CONFLICT", "CONSTRAINT", "CREATE", "CROSS", "CURRENT", "CURRENT_DATE",
        "CURRENT_TIME", "CURRENT_TIMESTAMP", "DATABASE", "DEFAULT", "DEFERRABLE", "DEFERRED", "DELETE",
        "DESC", "DETACH", "DISTINCT", "DO", "DROP", "EACH", "ELSE", "END", "ESCAPE", "EXCEPT", "EXCLUDE",
        "EXCLUSIVE", "EXISTS", "EXPLAIN", "FAIL", "FILTER", "FIRST", "FOLLOWING", "FOR", "FOREIGN", "FROM",
        "FULL", "GENERATED", "GLOB", "GROUP", "GROUPS", "HAVING", "IF", "IGNORE", "IMMEDIATE", "IN", "INDEX",
        "INDEXED", "INITIALLY", "INNER", "INSERT", "INSTEAD", "INTERSECT", "INTO", "IS", "ISNULL", "JOIN",
        "KEY", "LAST", "LEFT", "LIKE", "LIMIT", "MATCH", "MATERIALIZED", "NATURAL", "NO", "NOT", "NOTHING",
        "NOTNULL", "NULL", "NULLS", "OF", "OFFSET", "ON", "OR", "ORDER", "OTHERS", "OUTER", "OVER",
        "PARTITION", "PLAN", "PRAGMA", "PRECEDING", "PRIMARY", "QUERY", "RAISE", "RANGE", "RECURSIVE",
        "REFERENCES", "REGEXP", "REINDEX", "RELEASE", "RENAME", "REPLACE", "RESTRICT", "RETURNING", "RIGHT",
        "ROLLBACK", "ROW", "ROWS", "SAVEPOINT", "SELECT", "SET", "TABLE", "TEMP", "TEMPORARY", "THEN", "TIES",
        "TO", "TRANSACTION", "TRIGGER", "UNBOUNDED", "UNION", "UNIQUE", "UPDATE", "USING", "VACUUM", "VALUES",
        "VIEW", "VIRTUAL", "WHEN", "WHERE", "WINDOW", "WITH", "WITHOUT",
        // Names SQLite gives a meaning in expressions.
        "TRUE", "FALSE", "ROWID", "OID", "_ROWID_",
    ]
}
