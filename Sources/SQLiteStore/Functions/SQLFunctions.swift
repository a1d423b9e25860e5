import CSQLiteText
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
/// - `td_ascii_beginswith`, `td_ascii_endswith`, `td_ascii_contains`, `td_ascii_equal`,
///   `td_ascii_like` (value, constant, caseInsensitive): the same tests on plain ASCII text,
///   in C (`termdata_sqlite_register_ascii_tests`); 0 for NULL, NULL for any value that is
///   not plain ASCII text (the caller then asks `td_test` or `td_like`).
/// - collations `td_caseInsensitiveCompare`, `td_localizedCompare`,
///   `td_localizedCaseInsensitiveCompare`, `td_localizedStandardCompare`: `SortComparison.order`.
enum SQLFunctions {
    static func register(in db: Database) throws {
        for function in [fold, test, like, matches] { function.register(in: db) }
        let code = termdata_sqlite_register_ascii_tests(UnsafeMutableRawPointer(db.sqliteConnection))
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
        for comparison in SortComparison.allCases where comparison != .compare {
            // Names of ASCII letters, digits and spaces are ordered in C where the locale
            // orders them character by character (`LocalizedASCIIOrder`); the rest in Swift.
            if comparison == .localizedCaseInsensitiveCompare, let places = LocalizedASCIIOrder.places {
                let code = termdata_sqlite_register_placed_collation(UnsafeMutableRawPointer(db.sqliteConnection), collationName(comparison),
                                                                     places, localizedCaseInsensitiveOrder)
                guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
                continue
            }
            db.add(collation: DatabaseCollation(collationName(comparison)) { a, b in
                comparison.order(.string(a), .string(b))
            })
        }
    }

    /// The collator's order of two texts the placed collation leaves to it.
    static let localizedCaseInsensitiveOrder: termdata_text_order = { count1, text1, count2, text2 in
        let a = text1.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: Int(count1)), as: UTF8.self) } ?? ""
        let b = text2.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: Int(count2)), as: UTF8.self) } ?? ""
        return Int32(SortComparison.localizedCaseInsensitiveCompare.order(.string(a), .string(b)).rawValue)
    }

    /// The collation name for a sort comparison other than `compare:` (which sorts in SQLite's own order).
    static func collationName(_ comparison: SortComparison) -> String {
        "td_" + comparison.rawValue.dropLast()
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
