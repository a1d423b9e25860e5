import Foundation
import ObjectGraph
import ObjectModel
import Predicates
import SQLSyntax

/// SQLite's part of a fetch's translation: values as Core Data stores them, and text tests
/// through the functions and collations each connection registers (`SQLFunctions`), which
/// call the evaluator's own code.
struct SQLiteFetchFlavor: FetchFlavor {
    var engine: String { "SQLite" }

    /// SQLite joins at most 64 tables in one query, the root among them.
    var maximumJoins: Int { 63 }

    func sqlValue(_ value: ObjectValue) -> SQLValue { DatabaseValueCoding.sqlValue(value) }

    func folded(_ column: SQLExpression, options: ComparisonOptions) throws -> SQLExpression {
        .function("td_fold", [column, Self.options(options)])
    }

    func textTest(_ op: ComparisonOperator, _ column: SQLExpression, _ value: String, options: ComparisonOptions) throws -> SQLExpression {
        let exact = SQLExpression.function("td_test", [.value(.text(op.rawValue)), column, .value(.text(value)), Self.options(options)])
        return Self.plainASCII(exact: exact, fast: ASCIIText.test(op, column, value, options))
    }

    func patternTest(_ op: ComparisonOperator, _ column: SQLExpression, _ pattern: String, options: ComparisonOptions) throws -> SQLExpression {
        let exact = SQLExpression.function(op == .like ? "td_like" : "td_matches", [column, .value(.text(pattern)), Self.options(options)])
        return op == .like ? Self.plainASCII(exact: exact, fast: ASCIIText.like(column, pattern, options)) : exact
    }

    func foldedEquality(_ column: SQLExpression, _ value: String, options: ComparisonOptions) -> SQLExpression? {
        let exact = SQLExpression.binary(.function("td_fold", [column, Self.options(options)]), .equal, .value(.text(options.fold(value))))
        guard let fast = ASCIIText.equal(column, value, options) else { return nil }
        return Self.plainASCII(exact: exact, fast: fast)
    }

    /// `fast` (`ASCIIText`, NULL where the text is not plain ASCII) or else `exact` (the
    /// evaluator's code, called back); never NULL, so that NOT and != hold for a nil value
    /// as they do in memory.
    private static func plainASCII(exact: SQLExpression, fast: SQLExpression?) -> SQLExpression {
        guard let fast else { return exact }
        return .function("COALESCE", [fast, exact, .literal(0)])
    }

    func collated(_ column: SQLExpression, _ comparison: SortComparison) throws -> SQLExpression {
        column.collated(SQLFunctions.collationName(comparison))
    }

    func unsupported(_ what: String) -> any Error { SQLiteStoreError.unsupportedInSQL(what) }

    func unknownKey(entity: String, key: String) -> any Error { SQLiteStoreError.unknownKey(entity: entity, key: key) }

    private static func options(_ options: ComparisonOptions) -> SQLExpression {
        .value(.integer(Int64(options.rawValue)))
    }
}

extension SQLiteStore {
    /// How fetches over this store become SQL.
    static let flavor = SQLiteFetchFlavor()
}

/// The text tests' forms for plain ASCII text (`termdata_sqlite_register_ascii_tests`, in
/// C): where the constant is printable ASCII and the options fold alike, a row whose text is
/// plain ASCII is tested in C, without a call into Swift, and any other row gives NULL and
/// takes the evaluator's function.
enum ASCIIText {
    static func isPrintable(_ text: String) -> Bool {
        text.utf8.allSatisfy { (0x20...0x7E).contains($0) }
    }

    /// `[n]` compares as written and takes no fast form; other options do.
    static func foldsAlike(_ options: ComparisonOptions) -> Bool { !options.contains(.normalized) }

    /// BEGINSWITH, ENDSWITH, CONTAINS with a non-empty constant (empty is never a match,
    /// which the exact test keeps).
    static func test(_ op: ComparisonOperator, _ column: SQLExpression, _ value: String, _ options: ComparisonOptions) -> SQLExpression? {
        guard !value.isEmpty else { return nil }
        switch op {
        case .beginsWith: return call("td_ascii_beginswith", column, value, options)
        case .endsWith: return call("td_ascii_endswith", column, value, options)
        case .contains: return call("td_ascii_contains", column, value, options)
        default: return nil
        }
    }

    /// `==` under `[c]`, `[d]` or `[cd]`.
    static func equal(_ column: SQLExpression, _ value: String, _ options: ComparisonOptions) -> SQLExpression? {
        call("td_ascii_equal", column, value, options)
    }

    /// LIKE, with the predicate's own pattern (`*`, `?`, `\` escapes).
    static func like(_ column: SQLExpression, _ pattern: String, _ options: ComparisonOptions) -> SQLExpression? {
        call("td_ascii_like", column, pattern, options)
    }

    private static func call(_ function: String, _ column: SQLExpression, _ constant: String, _ options: ComparisonOptions) -> SQLExpression? {
        guard isPrintable(constant), foldsAlike(options) else { return nil }
        let caseless: Int64 = options.contains(.caseInsensitive) ? 1 : 0
        return .function(function, [column, .value(.text(constant)), .value(.integer(caseless))])
    }
}
