import Foundation
import Testing
import Predicates

@Suite("Matching helpers shared with stores")
struct MatchingTests {
    static let foldings: [(String, ComparisonOptions, String)] = [
        ("Crème", .caseInsensitive, "crème"),
        ("Crème", .diacriticInsensitive, "Creme"),
        ("Crème", [.caseInsensitive, .diacriticInsensitive], "creme"),
        ("Crème", [.normalized, .caseInsensitive], "Crème"),
        ("Crème", [], "Crème"),
        ("ABC", .caseInsensitive, "abc"),
        ("ÅNGSTRÖM", [.caseInsensitive, .diacriticInsensitive], "angstrom"),
    ]

    @Test("folding follows the options", arguments: foldings)
    func folding(_ input: String, _ options: ComparisonOptions, _ folded: String) {
        #expect(options.fold(input) == folded)
    }

    @Test("LIKE patterns match whole strings", arguments: [
        ("a*", "abc", true), ("a*", "a", true), ("a*", "a\nb", true), ("a?b", "axb", true),
        ("a?b", "ab", false), ("a?b", "axxb", false), ("*", "", true), ("?", "", false),
        ("a\\*b", "a*b", true), ("a\\*b", "axb", false), ("a\\?", "a?", true), ("a\\?", "ab", false),
        ("a\\\\b", "a\\b", true), ("*a*b*c*", "xxaxxbxxcxx", true), ("*a*b*c*", "xxaxxcxxbxx", false),
        ("**", "anything", true), ("é?", "éa", true), ("w*t", "well I'd like to see you again if you permit it", true),
    ])
    func like(_ pattern: String, _ string: String, _ expected: Bool) {
        #expect(LikePattern(pattern).matches(string) == expected)
    }

    @Test("a long LIKE pattern with many stars stays fast")
    func likeIsNotExponential() {
        let text = String(repeating: "a", count: 5_000)
        let pattern = String(repeating: "*a", count: 30) + "b"
        let start = Date()
        #expect(!LikePattern(pattern).matches(text))
        #expect(Date().timeIntervalSince(start) < 5)
    }

    @Test("MATCHES is a whole-string ICU match, cached across calls")
    func regex() throws {
        #expect(try RegularExpressionMatcher.matches("abc123", pattern: "[a-z]+\\d+"))
        #expect(try !RegularExpressionMatcher.matches("abc123x", pattern: "[a-z]+\\d+"))
        #expect(try RegularExpressionMatcher.matches("ab", pattern: "a|ab"))
        #expect(try RegularExpressionMatcher.matches("ABC", pattern: "abc", options: .caseInsensitive))
        #expect(try RegularExpressionMatcher.matches("café", pattern: "cafe", options: .diacriticInsensitive))
        #expect(try RegularExpressionMatcher.matches("a\nb", pattern: "a$\\nb"))
        #expect(try RegularExpressionMatcher.matches("a\nb", pattern: "a\\n^b"))
        #expect(try !RegularExpressionMatcher.matches("a\nb", pattern: "^b$"))
        #expect(throws: PredicateEvaluationError.self) { try RegularExpressionMatcher.matches("x", pattern: "a)(b") }
    }

    static let orderings: [(ObjectValue, ObjectValue, ComparisonResult?)] = [
        (.int(1), .double(1.5), .orderedAscending),
        (.decimal(2), .int(2), .orderedSame),
        (.bool(true), .int(0), .orderedDescending),
        (.string("a"), .string("b"), .orderedAscending),
        (.date(Date(timeIntervalSinceReferenceDate: 1)), .date(Date(timeIntervalSinceReferenceDate: 0)), .orderedDescending),
        (.int(1), .string("1"), nil),
        (.null, .int(1), nil),
        (.null, .null, nil),
        (.int(Int.max), .int(Int.max - 1), .orderedDescending),
    ]

    @Test("values order across numeric kinds, and not across unrelated kinds", arguments: orderings)
    func ordering(_ a: ObjectValue, _ b: ObjectValue, _ expected: ComparisonResult?) {
        #expect(ObjectValue.compare(a, b) == expected)
    }
}
