import Foundation

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

    private final class Cache: @unchecked Sendable {
        let lock = NSLock()
        var expressions: [Key: Result<NSRegularExpression, PredicateEvaluationError>] = [:]
    }

    private static let cache = Cache()
    private static let cacheLimit = 256

    /// Whether the whole of `string` matches `pattern`.
    ///
    /// - Throws: `PredicateEvaluationError` with reason `.invalidRegularExpression` for a
    ///   pattern that does not compile.
    public static func matches(_ string: String, pattern: String, options: ComparisonOptions = []) throws -> Bool {
        var text = string
        var source = pattern
        if options.contains(.diacriticInsensitive), !options.contains(.normalized) {
            text = ComparisonOptions.diacriticInsensitive.fold(text)
            source = ComparisonOptions.diacriticInsensitive.fold(source)
        }
        let caseless = options.contains(.caseInsensitive) && !options.contains(.normalized)
        let regex = try expression(Key(pattern: source, caseInsensitive: caseless))
        let range = NSRange(text.startIndex..., in: text)
        return regex.firstMatch(in: text, options: [.anchored, .withoutAnchoringBounds], range: range).map {
            $0.range == range
        } ?? false
    }

    private static func expression(_ key: Key) throws -> NSRegularExpression {
        cache.lock.lock()
        defer { cache.lock.unlock() }
        if let cached = cache.expressions[key] { return try cached.get() }
        var options: NSRegularExpression.Options = [.anchorsMatchLines, .dotMatchesLineSeparators]
        if key.caseInsensitive { options.insert(.caseInsensitive) }
        let outcome: Result<NSRegularExpression, PredicateEvaluationError>
        do {
            // The pattern must stand alone, so the wrapping below cannot change its meaning.
            _ = try NSRegularExpression(pattern: key.pattern, options: options)
            // Anchored at both ends: the whole string must match.
            outcome = .success(try NSRegularExpression(pattern: "(?:\(key.pattern))\\z", options: options))
        } catch {
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
