import Foundation
import CICURegex

/// `MATCHES`: whether a whole string matches an ICU regular expression.
///
/// `[c]` matches case-insensitively; `[d]` strips diacritics from both the string and the
/// pattern first. `^` and `$` also match at line breaks, and `.` matches a line break. Compiled expressions are cached,
/// so a store can register this as a SQL function and call it per row.
///
/// ```swift
/// try RegularExpressionMatcher.matches("abc123", pattern: "[a-z]+\\d+")   // true
/// ```
public enum RegularExpressionMatcher {
    private struct Key: Hashable {
        var pattern: String
        var caseInsensitive: Bool
    }

    /// A compiled expression of ICU's C interface: unlike `NSRegularExpression`, it says
    /// when it gave up (its time or backtracking limit), which must never read as "no match".
    private final class Compiled {
        let regex: OpaquePointer
        init(_ regex: OpaquePointer) { self.regex = regex }
        deinit { termdata_regex_free(regex) }
    }

    /// `@unchecked Sendable`: the expressions, which ICU does not let two threads use at
    /// once, are reached and run only under `lock`.
    private final class Cache: @unchecked Sendable {
        let lock = NSLock()
        var expressions: [Key: Result<Compiled, PredicateEvaluationError>] = [:]
    }

    private static let cache = Cache()
    private static let cacheLimit = 256

    /// Whether the whole of `string` matches `pattern`.
    ///
    /// - Throws: `PredicateEvaluationError` with reason `.invalidRegularExpression` for a
    ///   pattern that does not compile, or one the engine gives up on for this string (too
    ///   much backtracking, or over two seconds or so): an answer it cannot give is not "no".
    public static func matches(_ string: String, pattern: String, options: ComparisonOptions = []) throws -> Bool {
        var text = string
        var source = pattern
        if options.contains(.diacriticInsensitive), !options.contains(.normalized) {
            text = ComparisonOptions.diacriticInsensitive.fold(text)
            source = ComparisonOptions.diacriticInsensitive.fold(source)
        }
        let caseless = options.contains(.caseInsensitive) && !options.contains(.normalized)
        let key = Key(pattern: source, caseInsensitive: caseless)
        cache.lock.lock()
        defer { cache.lock.unlock() }
        let compiled = try expression(key)
        // A terminating zero, so that an empty text still has an address to give.
        let units = Array(text.utf16) + [0]
        let outcome = units.withUnsafeBufferPointer { termdata_regex_matches(compiled.regex, $0.baseAddress, Int32($0.count - 1)) }
        switch outcome {
        case 1: return true
        case 0: return false
        case -1:
            throw PredicateEvaluationError(
                .invalidRegularExpression,
                "MATCHES pattern \"\(pattern)\" gave up on \"\(string.prefix(40))\(string.count > 40 ? "…" : "")\" "
                    + "(too much backtracking); write the pattern so that it tries fewer ways to match",
                key: pattern)
        default:
            throw PredicateEvaluationError(.invalidRegularExpression, "MATCHES pattern \"\(pattern)\" could not be run", key: pattern)
        }
    }

    /// The compiled expression of a key; call with the cache locked.
    private static func expression(_ key: Key) throws -> Compiled {
        if let cached = cache.expressions[key] { return try cached.get() }
        var flags = UInt32(TERMDATA_REGEX_MULTILINE) | UInt32(TERMDATA_REGEX_DOTALL)
        if key.caseInsensitive { flags |= UInt32(TERMDATA_REGEX_CASE_INSENSITIVE) }
        // Terminated: ICU takes an empty pattern only as a zero-terminated one (length -1).
        let units = Array(key.pattern.utf16) + [0]
        let outcome: Result<Compiled, PredicateEvaluationError>
        if let regex = units.withUnsafeBufferPointer({ termdata_regex_compile($0.baseAddress, $0.count == 1 ? -1 : Int32($0.count - 1), flags) }) {
            outcome = .success(Compiled(regex))
        } else {
            // Invalid patterns are remembered too: compiling one again costs as much.
            outcome = .failure(PredicateEvaluationError(
                .invalidRegularExpression,
                "MATCHES pattern \"\(key.pattern)\" is not a valid regular expression",
                key: key.pattern))
        }
        if cache.expressions.count >= cacheLimit { cache.expressions.removeAll() }
        cache.expressions[key] = outcome
        return try outcome.get()
    }
}
