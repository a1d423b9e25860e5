import Foundation
import Testing
import Predicates
import TestSupport

/// Behaviour that public test suites run against Apple's Foundation record, evaluated
/// with no object (`evaluateWithObject: nil`).
@Suite("Behaviour recorded on Apple's platform")
struct AppleBehaviourTests {
    static let literals: [EvaluationCase] = [
        .init("1 == 1", true), .init("1 = 1", true), .init("2 >= 1", true), .init("2 => 1", true),
        .init("1 <= 2", true), .init("1 =< 2", true), .init("2 > 1", true), .init("1 < 2", true),
        .init("2 != 1", true), .init("1 <> 2", true),
        .init("1 << 3 > 1", true), .init("1 << 3 == 8", true), .init("8 >> 2 == 2", true), .init("8 >> 1 == 4", true),
        .init("1 & 0 == 0", true), .init("2 & 1 == 0", true), .init("1 | 0 == 1", true), .init("2 | 1 == 3", true),
        .init("1 ^ 0 == 1", true), .init("1 ^ 1 == 0", true), .init("2 ^ 1 == 3", true),
        .init("(1 < 0) || (1 > 0)", true), .init("(1 < 0) OR (1 > 0)", true),
        .init("(1 < 0) && (1 > 0)", false), .init("(1 < 0) AND (1 > 0)", false),
        .init("!(1 < 0)", true), .init("NOT(1 < 0)", true),
        .init("TRUEPREDICATE", true), .init("FALSEPREDICATE", false),
        .init("(1 < 0) || TRUEPREDICATE", true), .init("(1 < 0) || FALSEPREDICATE", false),
        .init("'hello' BEGINSWITH 'he'", true), .init("'Hello' BEGINSWITH 'he'", false),
        .init("'Hello' BEGINSWITH[cd] 'he'", true), .init("'hello' ENDSWITH 'llo'", true),
        .init("'HELLO' ENDSWITH 'llo'", false), .init("'HELLO' ENDSWITH[cd] 'llo'", true),
        .init("'hello' CONTAINS 'll'", true), .init("'hello' CONTAINS 'LL'", false),
        .init("'HELLO' CONTAINS[cd] 'll'", true), .init("'hello' LIKE 'hello'", true),
        .init("'HELLO' LIKE 'hello'", false), .init("'HELLO' LIKE[cd] 'hello'", true),
        .init("'hello' LIKE 'hel*o'", true), .init("'heo' LIKE 'hel*o'", false), .init("'helllo' LIKE 'hel*o'", true),
        .init("'helo' LIKE 'hel?o'", false), .init("'hello' LIKE 'hel?o'", true), .init("'helllo' LIKE 'hel?o'", false),
        .init("'hello' MATCHES 'hel{2}o'", true), .init("'heo' MATCHES 'he[l]*o'", true),
        .init("'hello' == 'hello'", true), .init("'helllo' == 'hello'", false), .init("'helllo' == 'hel*o'", false),
        .init("'helo' == 'hel?o'", false), .init("'hello' == 'hel?o'", false), .init("'helllo' == 'hel?o'", false),
        .init("'helllo' != 'hello'", true), .init("'helllo' != 'hel*o'", true),
        .init("'hello' = 'hello'", true), .init("'helllo' = 'hello'", false),
        .init("%@ CONTAINS %@", ["AABBBAA", "BBB"], true), .init("%@ IN %@", ["BBB", "AABBBAA"], true),
        .init("%@ > %@", [1, 1], false),
    ]

    @Test("comparisons of literals", arguments: literals)
    func literalComparisons(_ c: EvaluationCase) {
        assertEvaluates(c.format, c.arguments, on: .null, to: c.expected)
    }

    @Test("a value alone is not a predicate", arguments: ["1", "0 || 1", "TRUE", "FALSE", "name"])
    func valueIsNotAPredicate(_ format: String) {
        #expect(throws: PredicateSyntaxError.self) { try ObjectPredicate(format: format) }
    }

    @Test("variables bind at evaluation or by substitution")
    func variables() throws {
        let p = try ObjectPredicate(format: "$a == 1")
        #expect(p.predicateFormat == "$a == 1")
        #expect(try !p.evaluate(with: .null, variables: ["a": 2]))
        #expect(try p.evaluate(with: .null, variables: ["a": 1]))
        let bound = try p.substitutingVariables(["a": "a"])
        #expect(bound.predicateFormat == "\"a\" == 1")
        #expect(try !bound.evaluate(with: ["a": 1], variables: ["a": "a"]))
    }

    static let variableCases: [(String, [String: ObjectValue], Bool)] = [
        ("$a > 1", ["a": 1], false),
        ("$a > 1", ["a": 2], true),
        ("$a[0] > 1", ["a": [1]], false),
        ("$a[0] > 1", ["a": [2]], true),
        ("$a[$b] > 1", ["a": [2], "b": 0], true),
        ("$a[$b] == 'ABC'", ["a": ["a": "ABC"], "b": "a"], true),
        ("$a.$b == 'ABC'", ["a": ["a": "ABC"], "b": "a"], true),
        ("$a + 1  > 1", ["a": 1], true),
        ("$a - 1  < 1", ["a": 1], true),
        ("$a / 2.5 > 1", ["a": 5], true),
        ("$a / 2.5 == 2", ["a": 5], true),
        ("$a / 2.5 == 2.0", ["a": 5], true),
        ("$a * 3 == 6.0", ["a": 2], true),
        ("$a ** 3 == 8.0", ["a": 2], true),
        ("($a + 1) ** 3 == 8.0", ["a": 1], true),
        ("$a[$b].firstName == 'Lily'", ["a": ["a": .object(Person(id: 9, ["firstName": "Lily"]))], "b": "a"], true),
        ("$a.$b == 'Lily'", ["a": .object(Person(id: 9, ["firstName": "Lily"])), "b": "firstName"], true),
    ]

    @Test("variables index arrays, dictionaries and objects, and take part in arithmetic", arguments: variableCases)
    func variableExpressions(_ format: String, _ variables: [String: ObjectValue], _ expected: Bool) {
        assertEvaluates(format, on: .null, variables: variables, to: expected)
    }

    @Test("key-value coding reaches through objects, counts and string lengths")
    func keyValueCoding() throws {
        let lee = Person(id: 1, ["isMale": true, "firstName": "Lee"])
        let binding: ObjectValue = ["a": .object(lee), "list": [1, 2, 3]]
        #expect(try ObjectPredicate(format: "list.@count == 3").evaluate(with: binding))
        #expect(try ObjectPredicate(format: "a.isMale == YES").evaluate(with: binding))
        #expect(try ObjectPredicate(format: "a.firstName == 'Lee'").evaluate(with: binding))
        #expect(try ObjectPredicate(format: "a.firstName.length == 3").evaluate(with: binding))
        #expect(try ObjectPredicate(format: "description == 'Do'").evaluate(with: "Do"))
    }

    @Test("IN on SELF's collection, found by a search text")
    func inSelfCollection() throws {
        let names: [ObjectValue] = [["patterns": ["abc", "c"]], ["patterns": ["bc", "d"]]]
        for (text, count) in [("bc", 1), ("c", 1), ("e", 0)] {
            let p = try ObjectPredicate(format: "%@ IN self.patterns", text)
            #expect(try names.filter { try p.evaluate(with: $0) }.count == count, "\(text)")
        }
    }
}
