import Foundation
import ObjectGraph
import ObjectModel
import Predicates
import SQLSyntax

/// PostgreSQL's part of a fetch's translation.
///
/// Values bind in PostgreSQL's own types (dates as `timestamptz`, decimals as `numeric`,
/// UUIDs as `uuid`). Text compared with `[c]`, `[d]` or `[cd]` is compared in its folded
/// copies, which the store writes beside each string column with the same Swift code that
/// folds text in memory (`ComparisonOptions.fold`): so SQL and memory agree for every text,
/// and the copies can be indexed. Text columns sort by code point (`COLLATE "C"`), as memory
/// orders strings.
struct PostgresFetchFlavor: FetchFlavor {
    /// The collation under which MATCHES runs, so that `\w`, `\d` and `[c]` know Unicode
    /// as ICU does (`und-x-icu`); nil where the server was built without ICU.
    var regexCollation: String?

    var engine: String { "PostgreSQL" }

    /// PostgreSQL has no small limit; past a few dozen joins its planner only searches longer.
    var maximumJoins: Int { 200 }

    func sqlValue(_ value: ObjectValue) -> SQLValue { PostgresValueCoding.sqlValue(value) }

    func folded(_ column: SQLExpression, options: ComparisonOptions) throws -> SQLExpression {
        guard let (table, name) = column.columnReference, let fold = FoldedColumns.fold(for: options) else {
            throw unsupported("a [c] or [d] comparison of a computed value; compare an attribute")
        }
        // NULL in the copy: the folded text is the text itself.
        return .coalesce(.column(FoldedColumns.name(of: name, fold), of: table), column)
    }

    func textTest(_ op: ComparisonOperator, _ column: SQLExpression, _ value: String, options: ComparisonOptions) throws -> SQLExpression {
        let needle = options.fold(value)
        guard !needle.isEmpty else { return .false }   // memory: nothing begins with, ends with or holds ""
        let subject = try textSubject(column, options: options)
        let escaped = Self.escapedForLike(needle)
        let pattern: String
        switch op {
        case .beginsWith: pattern = escaped + "%"
        case .endsWith: pattern = "%" + escaped
        default: pattern = "%" + escaped + "%"       // CONTAINS, and a string IN a string
        }
        return .binary(subject, .like, .value(.text(pattern)))
    }

    func patternTest(_ op: ComparisonOperator, _ column: SQLExpression, _ pattern: String, options: ComparisonOptions) throws -> SQLExpression {
        guard op == .like else { return try regexTest(column, pattern, options: options) }
        let subject = try textSubject(column, options: options)
        return .binary(subject, .like, .value(.text(Self.likePattern(options.fold(pattern)))))
    }

    /// MATCHES as memory runs it: `[d]` folds the text and the pattern, `[c]` matches
    /// ignoring case, and the whole text must match.
    private func regexTest(_ column: SQLExpression, _ pattern: String, options: ComparisonOptions) throws -> SQLExpression {
        // A pattern ICU refuses is refused with memory's message.
        _ = try RegularExpressionMatcher.matches("", pattern: pattern)
        let folding = options.contains(.diacriticInsensitive) && !options.contains(.normalized)
        let caseless = options.contains(.caseInsensitive) && !options.contains(.normalized)
        let source = folding ? ComparisonOptions.diacriticInsensitive.fold(pattern) : pattern
        let translated: String
        do { translated = try PostgresRegex.translate(source) } catch let error as PostgresRegex.Untranslatable {
            throw unsupported("the MATCHES pattern “\(pattern)” uses \(error.construct), which PostgreSQL's regular expressions do not read as ICU does")
        }
        guard let regexCollation else {
            throw unsupported("MATCHES on a PostgreSQL server built without ICU, whose regular expressions know only ASCII letters and digits")
        }
        var subject = folding ? try folded(column, options: .diacriticInsensitive) : column
        subject = subject.collated(regexCollation)
        return .binary(subject, caseless ? .matchesRegexIgnoringCase : .matchesRegex, .value(.text(translated)))
    }

    /// Integers in arithmetic as `numeric`: `bigint` arithmetic that overflows is an error
    /// here, where memory (and SQLite) go on in floating point.
    func integerOperand(_ operand: SQLExpression) -> SQLExpression {
        // `numeric` is a keyword, not a function: adding a numeric 0 makes the operand one.
        .binary(operand, .plus, .value(.decimal(0)))
    }

    func collated(_ column: SQLExpression, _ comparison: SortComparison) throws -> SQLExpression {
        switch comparison {
        case .compare:
            return column
        case .caseInsensitiveCompare:
            return try folded(column, options: .caseInsensitive)
        default:
            throw unsupported("sorting with \(comparison.rawValue) on a PostgreSQL store; sort with compare: or caseInsensitiveCompare:")
        }
    }

    func unsupported(_ what: String) -> any Error { PostgresStoreError.unsupportedInSQL(what) }

    func unknownKey(entity: String, key: String) -> any Error { PostgresStoreError.unknownKey(entity: entity, key: key) }

    /// The text a test reads: the column, or its folded copy.
    private func textSubject(_ column: SQLExpression, options: ComparisonOptions) throws -> SQLExpression {
        options.isEmpty || options.contains(.normalized) ? column : try folded(column, options: options)
    }

    /// Text for LIKE that matches itself alone: `%`, `_` and `\` escaped.
    static func escapedForLike(_ text: String) -> String {
        var out = ""
        for c in text {
            if c == "%" || c == "_" || c == "\\" { out.append("\\") }
            out.append(c)
        }
        return out
    }

    /// A Core Data LIKE pattern (already folded) as PostgreSQL's: `*` any text, `?` one
    /// character, `\` escapes the next character.
    static func likePattern(_ pattern: String) -> String {
        var out = ""
        var escaped = false
        for c in pattern {
            if escaped {
                out += escapedForLike(String(c))
                escaped = false
                continue
            }
            switch c {
            case "\\": escaped = true
            case "*": out += "%"
            case "?": out += "_"
            default: out += escapedForLike(String(c))
            }
        }
        if escaped { out += "\\\\" }
        return out
    }
}

/// The folded copies of a string column that the store keeps for `[c]`, `[d]` and `[cd]`:
/// `Z_FC_<NAME>`, `Z_FD_<NAME>` and `Z_FCD_<NAME>` beside `Z<NAME>`. A copy is NULL where the
/// folded text is the text itself (most text has no diacritics), so it costs little.
enum FoldedColumns {
    enum Fold: String, CaseIterable, Sendable {
        case c = "FC", d = "FD", cd = "FCD"

        var options: ComparisonOptions {
            switch self {
            case .c: return .caseInsensitive
            case .d: return .diacriticInsensitive
            case .cd: return [.caseInsensitive, .diacriticInsensitive]
            }
        }
    }

    static func fold(for options: ComparisonOptions) -> Fold? {
        switch (options.contains(.caseInsensitive), options.contains(.diacriticInsensitive)) {
        case (true, true): return .cd
        case (true, false): return .c
        case (false, true): return .d
        default: return nil
        }
    }

    /// The copy's column name: `ZNAME` becomes `Z_FC_NAME`.
    static func name(of column: String, _ fold: Fold) -> String {
        "Z_\(fold.rawValue)_" + column.dropFirst()
    }

    /// The copy's value: nil where folding leaves the text as it is.
    static func value(of text: String, _ fold: Fold) -> String? {
        let folded = fold.options.fold(text)
        return folded.utf8.elementsEqual(text.utf8) ? nil : folded
    }
}
