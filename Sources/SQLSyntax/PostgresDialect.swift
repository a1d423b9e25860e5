import Foundation

/// PostgreSQL's SQL: `$1`, `$2`… placeholders, `TRUE` and `FALSE`, and every identifier in
/// double quotes, since PostgreSQL folds unquoted names to lower case and Core Data's are
/// upper case.
///
/// ```swift
/// PostgresDialect().quote("ZNAME")       // "ZNAME"
/// PostgresDialect().render(.column("ZNAME") == .value(.text("a"))).sql   // "ZNAME" = $1
/// ```
public struct PostgresDialect: SQLDialect {
    public init() {}

    public func quote(_ identifier: String) -> String {
        return Self.doubleQuoted(identifier)
    }

    public func placeholder(_ index: Int, for value: SQLValue) -> (text: String, value: SQLValue) {
        ("$\(index)", value)
    }

    public func boolean(_ value: Bool) -> String { value ? "TRUE" : "FALSE" }

    /// `IS` and `IS NOT` compare any two values in PostgreSQL only as `IS [NOT] DISTINCT FROM`.
    public func text(of op: SQLOperator) -> String {
        switch op {
        case .is: return "IS NOT DISTINCT FROM"
        case .isNot: return "IS DISTINCT FROM"
        default: return op.rawValue
        }
    }

    public var ignoresConflicts: IgnoredConflicts { .onConflictDoNothing }

    public var readsNotIndexed: Bool { false }

    public var sortsNullsFirst: Bool { false }

    public var noLimit: String? { "ALL" }
}
