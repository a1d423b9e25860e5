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
        return Self.plainASCII(column, exact: exact, fast: ASCIIText.test(op, column, value, options))
    }

    func patternTest(_ op: ComparisonOperator, _ column: SQLExpression, _ pattern: String, options: ComparisonOptions) throws -> SQLExpression {
        let exact = SQLExpression.function(op == .like ? "td_like" : "td_matches", [column, .value(.text(pattern)), Self.options(options)])
        return op == .like ? Self.plainASCII(column, exact: exact, fast: ASCIIText.like(column, pattern, options)) : exact
    }

    func foldedEquality(_ column: SQLExpression, _ value: String, options: ComparisonOptions) -> SQLExpression? {
        let exact = SQLExpression.binary(.function("td_fold", [column, Self.options(options)]), .equal, .value(.text(options.fold(value))))
        guard let fast = ASCIIText.equal(column, value, options) else { return nil }
        return Self.plainASCII(column, exact: exact, fast: fast)
    }

    /// `fast` (SQLite's own text functions) for plain ASCII text, `exact` (the evaluator's code,
    /// called back) for any other; never NULL. `td_plain` (`SQLFunctions.isPlain`) tells which.
    private static func plainASCII(_ column: SQLExpression, exact: SQLExpression, fast: SQLExpression?) -> SQLExpression {
        guard let fast else { return exact }
        // A NULL value is neither: 0, so that NOT and != hold for it as they do in memory.
        return .coalesce(.function("iif", [.function("td_plain", [column]), fast, exact]), .literal(0))
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

/// SQLite's own forms of the text tests, exact where both the value and the constant are
/// plain ASCII (see `SQLFunctions.isPlain`). `LIKE` folds ASCII case, as `[c]`
/// folds it there; `GLOB`, `substr` and `instr` compare exactly, as no options or `[d]` do.
enum ASCIIText {
    static func isPrintable(_ text: String) -> Bool {
        text.utf8.allSatisfy { (0x20...0x7E).contains($0) }
    }

    /// `[n]` compares as written and takes no fast form; other options do.
    static func foldsAlike(_ options: ComparisonOptions) -> Bool { !options.contains(.normalized) }

    /// BEGINSWITH, ENDSWITH, CONTAINS with a non-empty constant (empty is never a match,
    /// which the exact test keeps).
    static func test(_ op: ComparisonOperator, _ column: SQLExpression, _ value: String, _ options: ComparisonOptions) -> SQLExpression? {
        guard !value.isEmpty, isPrintable(value), foldsAlike(options), [.beginsWith, .endsWith, .contains].contains(op) else { return nil }
        if options.contains(.caseInsensitive) {
            let literal = likeLiteral(value)
            let pattern = op == .beginsWith ? literal + "%" : op == .endsWith ? "%" + literal : "%" + literal + "%"
            return like(pattern, column)
        }
        let length = SQLExpression.value(.integer(Int64(value.utf8.count)))
        switch op {
        case .beginsWith:
            return .binary(.function("substr", [column, .value(.integer(1)), length]), .equal, .value(.text(value)))
        case .endsWith:
            return .binary(.function("substr", [column, .value(.integer(-Int64(value.utf8.count)))]), .equal, .value(.text(value)))
        default:
            return .binary(.function("instr", [column, .value(.text(value))]), .greater, .value(.integer(0)))
        }
    }

    /// `==` under `[c]`, `[d]` or `[cd]`.
    static func equal(_ column: SQLExpression, _ value: String, _ options: ComparisonOptions) -> SQLExpression? {
        guard isPrintable(value), foldsAlike(options) else { return nil }
        return options.contains(.caseInsensitive) ? like(likeLiteral(value), column) : .binary(column, .equal, .value(.text(value)))
    }

    /// A `LIKE` pattern (`*`, `?`, `\` escapes) as SQLite's `LIKE` (case folded) or `GLOB`.
    static func like(_ column: SQLExpression, _ pattern: String, _ options: ComparisonOptions) -> SQLExpression? {
        guard isPrintable(pattern), foldsAlike(options) else { return nil }
        let folding = options.contains(.caseInsensitive)
        var out = ""
        var escaped = false
        for c in pattern {
            if escaped {
                out += folding ? likeLiteral(String(c)) : globLiteral(c)
                escaped = false
                continue
            }
            switch c {
            case "\\": escaped = true
            case "*": out += folding ? "%" : "*"
            case "?": out += folding ? "_" : "?"
            default: out += folding ? likeLiteral(String(c)) : globLiteral(c)
            }
        }
        if escaped { out += folding ? likeLiteral("\\") : "\\" }
        return folding ? like(out, column) : .function("glob", [.value(.text(out)), column])
    }

    private static func like(_ pattern: String, _ column: SQLExpression) -> SQLExpression {
        .function("like", [.value(.text(pattern)), column, .value(.text("\\"))])
    }

    /// Text `LIKE … ESCAPE '\'` matches literally.
    private static func likeLiteral(_ text: String) -> String {
        var out = ""
        for c in text {
            if c == "%" || c == "_" || c == "\\" { out.append("\\") }
            out.append(c)
        }
        return out
    }

    /// A character `GLOB` matches literally.
    private static func globLiteral(_ c: Character) -> String {
        c == "*" || c == "?" || c == "[" ? "[\(c)]" : String(c)
    }
}
