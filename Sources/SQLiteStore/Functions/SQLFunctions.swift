import Foundation
import GRDB
import GRDBSQLite
import Predicates

/// The SQL functions and collations a store connection registers, so that string
/// comparisons in SQL call the same code as evaluation in memory:
///
/// - `td_fold(value, options)`: the string folded for `[c]`/`[d]` (`ComparisonOptions.fold`).
/// - `td_test(operator, lhs, rhs, options)`: 1 when `ComparisonPredicate.test` holds
///   (BEGINSWITH, ENDSWITH, CONTAINS on strings).
/// - `td_like(value, pattern, options)`: `LikePattern` matching.
/// - `td_matches(value, pattern, options)`: `RegularExpressionMatcher` (MATCHES).
/// - `td_plain(value)`: 1 when the text is plain ASCII (`SQLFunctions.isPlain`), where
///   SQLite's own `LIKE`, `GLOB`, `substr` and `instr` test as the evaluator does.
/// - collations `td_caseInsensitiveCompare`, `td_localizedCompare`,
///   `td_localizedCaseInsensitiveCompare`, `td_localizedStandardCompare`: `SortComparison.order`.
enum SQLFunctions {
    static func register(in db: Database) {
        for function in [fold, test, like, matches] { function.register(in: db) }
        // Called for every row a text test reads: registered on SQLite's C interface, with no
        // value boxing, so that the check costs a scan of the bytes and little more.
        sqlite3_create_function_v2(db.sqliteConnection, "td_plain", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                   nil, plainText, nil, nil, nil)
        for comparison in SortComparison.allCases where comparison != .compare {
            db.add(collation: DatabaseCollation(collationName(comparison)) { a, b in
                comparison.order(.string(a), .string(b))
            })
        }
    }

    /// The collation name for a sort comparison other than `compare:` (which sorts in SQLite's own order).
    static func collationName(_ comparison: SortComparison) -> String {
        "td_" + comparison.rawValue.dropLast()
    }

    /// Whether text is plain ASCII: every byte 0x01–0x7F but CR. For such text a character
    /// is a byte and a grapheme (CR LF, the one ASCII pair Swift takes as one character, is
    /// left out; a NUL, which SQLite's `LIKE` stops at, too), has no diacritics, and folds
    /// case `A`–`Z` to `a`–`z` alone: SQLite's text functions test it as memory does.
    static func isPlain(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for byte in bytes where byte == 0 || byte >= 0x80 || byte == 0x0D { return false }
        return true
    }

    static let fold = WholeTextFunction("td_fold", argumentCount: 2) { args in
        guard let s = String.fromDatabaseValue(args[0]) else { return .null }
        let options = ComparisonOptions(rawValue: Int.fromDatabaseValue(args[1]) ?? 0)
        return .text(options.fold(s))
    }

    static let test = WholeTextFunction("td_test", argumentCount: 4) { args in
        guard let name = String.fromDatabaseValue(args[0]), let op = ComparisonOperator(rawValue: name) else { return .bool(false) }
        let options = ComparisonOptions(rawValue: Int.fromDatabaseValue(args[3]) ?? 0)
        return .bool((try? ComparisonPredicate.test(DatabaseValueCoding.plainValue(args[1]), op,
                                                    DatabaseValueCoding.plainValue(args[2]), options: options)) ?? false)
    }

    static let like = WholeTextFunction("td_like", argumentCount: 3) { args in
        guard let s = String.fromDatabaseValue(args[0]), let pattern = String.fromDatabaseValue(args[1]) else { return .bool(false) }
        let options = ComparisonOptions(rawValue: Int.fromDatabaseValue(args[2]) ?? 0)
        return .bool(PatternCache.shared.like(pattern, options).matches(s))
    }

    static let matches = WholeTextFunction("td_matches", argumentCount: 3) { args in
        guard let s = String.fromDatabaseValue(args[0]), let pattern = String.fromDatabaseValue(args[1]) else { return .bool(false) }
        let options = ComparisonOptions(rawValue: Int.fromDatabaseValue(args[2]) ?? 0)
        return .bool(try RegularExpressionMatcher.matches(s, pattern: pattern, options: options))
    }
}

/// The last LIKE patterns compiled, so a fetch compiles its pattern once, not once per row.
final class PatternCache: @unchecked Sendable {
    static let shared = PatternCache()
    private let lock = NSLock()
    private var patterns: [String: LikePattern] = [:]

    func like(_ pattern: String, _ options: ComparisonOptions) -> LikePattern {
        let key = "\(options.rawValue):\(pattern)"
        lock.lock()
        defer { lock.unlock() }
        if let p = patterns[key] { return p }
        if patterns.count > 64 { patterns.removeAll() }
        let p = LikePattern(pattern, options: options)
        patterns[key] = p
        return p
    }
}

/// `td_plain(value)`: 1 or 0 for text (`SQLFunctions.isPlain`), NULL for NULL.
private func plainText(_ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    guard let value = arguments?[0], sqlite3_value_type(value) != SQLITE_NULL else {
        sqlite3_result_null(context)
        return
    }
    guard let text = sqlite3_value_text(value) else {
        sqlite3_result_null(context)
        return
    }
    let length = Int(sqlite3_value_bytes(value))
    sqlite3_result_int(context, SQLFunctions.isPlain(UnsafeRawBufferPointer(start: text, count: length)) ? 1 : 0)
}
