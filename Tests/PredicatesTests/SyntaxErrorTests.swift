import Foundation
import Testing
import Predicates
import TestSupport

/// A malformed format string, what the error says was expected, and where.
struct SyntaxErrorCase: Sendable, CustomTestStringConvertible {
    var format: String
    var arguments: [ObjectValue]
    var expected: String
    var line: Int
    var column: Int

    init(_ format: String, _ arguments: [ObjectValue] = [], expected: String, _ line: Int, _ column: Int) {
        self.format = format
        self.arguments = arguments
        self.expected = expected
        self.line = line
        self.column = column
    }

    init(_ format: String, _ arguments: [ObjectValue] = [], expected: String, _ column: Int) {
        self.init(format, arguments, expected: expected, 1, column)
    }

    var testDescription: String { format }
}

@Suite("Syntax errors")
struct SyntaxErrorTests {
    static let cases: [SyntaxErrorCase] = [
        .init("name LIKE[c]", expected: "a value after LIKE", 13),
        .init("name ==", expected: "a value after ==", 8),
        .init("name == 'Bob' AND", expected: "a value or a key", 18),
        .init("name", expected: "a comparison operator after name", 5),
        .init("", expected: "a value or a key", 1),
        .init("name == 'Bob", expected: "a closing '", 13),
        .init("name == \"Bob", expected: "a closing \"", 13),
        .init("(name == 'a'", expected: "')'", 13),
        .init("name == 'a')", expected: "the end of input", 12),
        .init("a == 1 b == 2", expected: "AND or OR", 8),
        .init("a === 1", expected: "a value or a key", 5),
        .init("a == %@", expected: "an argument for %@", 6),
        .init("a == %@ AND b == %@", [.int(1)], expected: "an argument for %@ (only 1 given)", 18),
        .init("%K == 1", [.int(3)], expected: "a key path string for %K", 1),
        .init("a == %d", [.string("x")], expected: "an integer for %d", 6),
        .init("a == %k", [.string("x")], expected: "a conversion such as %@", 6),
        .init("a == %", expected: "a conversion such as %@", 6),
        .init("a == %@*", [.string("x")], expected: "a value or a key", 9),
        .init("a ==[x] 1", expected: "options c, d or n", 6),
        .init("a ==[c 1", expected: "']' after the options", 8),
        .init("a == $", expected: "a variable name after '$'", 7),
        .init("a.#1 == 1", expected: "a key name after '#'", 4),
        .init("a == 12abc", expected: "an operator or separator after the number 12", 8),
        .init("a == 0x", expected: "digits after '0x'", 8),
        .init("a == 0xFFFFFFFFFFFFFFFFFF", expected: "a number that fits in 64 bits", 6),
        .init("a == 'x\\u12'", expected: "4 digits in a \\uhhhh escape", 10),
        .init("a == ?", expected: "a key, a value or an operator", 6),
        .init("a == {1, 2", expected: "'}' or ','", 11),
        .init("a == nosuch(1)", expected: "a function name", 6),
        .init("a == sqrt(1, 2)", expected: "1 argument for sqrt:", 6),
        .init("a == now(1)", expected: "0 arguments for now", 6),
        .init("a == SUBQUERY(items, x, x > 1)", expected: "a variable such as $x", 22),
        .init("a == CAST(1, 'NSWidget')", expected: "a type name", 14),
        .init("a == FUNCTION(SELF, 1)", expected: "a selector string", 21),
        .init("a == b[1", expected: "']' to close the index", 9),
        .init("ANY == 1", expected: "a value or a key", 5),
        .init("a == 1\nAND b ==", expected: "a value after ==", 2, 9),
        .init("a == 1 AND\n  b LIKE[c]", expected: "a value after LIKE", 2, 12),
        .init("a.and == 1 AND .b == 2", expected: "a value or a key", 16),
        .init("foo: == 1", expected: "'(' after the function name foo:", 6),
    ]

    @Test("names what was expected and where", arguments: cases)
    func errors(_ c: SyntaxErrorCase) {
        assertSyntaxError(c.format, c.arguments, expected: c.expected, at: (c.line, c.column))
    }

    @Test("renders the input line with a caret under the position")
    func caretRendering() throws {
        let error = #expect(throws: PredicateSyntaxError.self) {
            try ObjectPredicate(format: "name LIKE[c]")
        }
        #expect(error?.description == """
            expected a value after LIKE at 1:13
              name LIKE[c]
                          ^
            """)
        #expect(error?.found == "end of input")
        #expect(error?.offset == 12)
    }

    @Test("a terminal's cell widths keep the caret under the position after wide characters")
    func caretAfterWideCharacters() throws {
        let error = #expect(throws: PredicateSyntaxError.self) {
            try ObjectPredicate(format: "名前 ==\t")
        }
        let wide: (Character) -> Int = { $0.unicodeScalars.first!.value >= 0x1100 ? 2 : 1 }
        #expect(error?.description(cellWidth: wide) == """
            expected a value after == at 1:7
              名前 ==\t
                     \t^
            """)
        #expect(error?.description.hasSuffix("\n       \t^") == true, "one cell per character by default")
    }

    @Test("shows only the line the error is on")
    func multilineRendering() throws {
        let error = #expect(throws: PredicateSyntaxError.self) {
            try ObjectPredicate(format: "a == 1 AND\n  b == 'x' OR\n  c ! 3")
        }
        #expect(error?.description == """
            expected a comparison operator after c at 3:5
                c ! 3
                  ^
            """)
    }

    @Test("names the token it found")
    func foundToken() throws {
        let error = #expect(throws: PredicateSyntaxError.self) {
            try ObjectPredicate(format: "a == 1 'extra'")
        }
        #expect(error?.found == "string \"extra\"")
        #expect(error?.message == "expected an operator such as AND or OR, or the end of input at 1:8, found string \"extra\"")
    }

    @Test("refuses nesting deeper than the parser allows, without crashing")
    func deepNesting() {
        let deep = String(repeating: "(", count: 10_000) + "a == 1" + String(repeating: ")", count: 10_000)
        #expect(throws: PredicateSyntaxError.self) { try ObjectPredicate(format: deep) }
        let nots = String(repeating: "NOT ", count: 10_000) + "a == 1"
        #expect(throws: PredicateSyntaxError.self) { try ObjectPredicate(format: nots) }
        let minus = String(repeating: "-", count: 10_000) + "a == 1"
        #expect(throws: PredicateSyntaxError.self) { try ObjectPredicate(format: minus) }
        let reasonable = String(repeating: "(", count: 50) + "a == 1" + String(repeating: ")", count: 50)
        #expect(throws: Never.self) { try ObjectPredicate(format: reasonable) }
    }

    @Test("refuses operator chains longer than the nesting allows, each operator counting as a level", arguments: [
        "+", "-", "*", "/", "**", "&", "|", "^", "<<", ">>",
    ])
    func longChains(_ op: String) throws {
        let terms = Array(repeating: "1", count: 10_000)
        let error = #expect(throws: PredicateSyntaxError.self) {
            try ObjectPredicate(format: "a == " + terms.joined(separator: " \(op) "))
        }
        #expect(error?.expected == "at most 200 levels of nesting")
        let indexes = "a" + String(repeating: "[0]", count: 10_000) + " == 1"
        #expect(throws: PredicateSyntaxError.self) { try ObjectPredicate(format: indexes) }
        // A chain within the limit parses and evaluates.
        let fine = try ObjectPredicate(format: "a == " + terms.prefix(150).joined(separator: " \(op) "))
        _ = try? fine.evaluate(with: ["a": 1])
        #expect(fine.description.count > 150)
    }

    @Test("refuses a tree made tall by chains whose first operands are chains in parentheses")
    func chainsOfChains() throws {
        let chain = Array(repeating: "1", count: 150).joined(separator: " + ")
        var expression = "1"
        for _ in 0..<40 { expression = "(\(expression) + \(chain))" }
        let error = #expect(throws: PredicateSyntaxError.self) { try ObjectPredicate(format: "a == " + expression) }
        #expect(error?.line == 1 && error?.column == 1)
        let two = "((1 + \(chain)) + \(chain))"
        let fine = try ObjectPredicate(format: "a == \(two)")
        #expect(try fine.evaluate(with: ["a": 301]))
    }

    @Test("parentheses that open both predicates and expressions are read in polynomial time")
    func backtrackingIsBounded() {
        let nested = String(repeating: "(TERNARY(", count: 60)
        #expect(throws: PredicateSyntaxError.self) { try ObjectPredicate(format: nested) }
        let valid = String(repeating: "TERNARY((a == 1), ", count: 30) + "1" + String(repeating: ", 2)", count: 30) + " == 1"
        #expect(throws: Never.self) { try ObjectPredicate(format: valid) }
    }

    @Test("an expression format must be one whole expression")
    func expressionErrors() {
        #expect(throws: PredicateSyntaxError.self) { try ObjectExpression(format: "a == 1") }
        #expect(throws: PredicateSyntaxError.self) { try ObjectExpression(format: "$source.") }
        #expect(throws: PredicateSyntaxError.self) { try ObjectExpression(format: "FUNCTION($m") }
    }
}

@Suite("Arguments that do not fit the placeholders")
struct ArgumentCountTests {
    @Test("with usingAll, an argument no placeholder takes is an error; every one taken is fine", arguments: [
        ("name == %@", [ObjectValue.string("Ada"), .int(3)], 1), ("%K == %@", [.string("name"), .string("Ada"), .string("x")], 2),
        ("age > %d AND name BEGINSWITH %@", [.int(3), .string("A"), .int(9)], 2), ("TRUEPREDICATE", [.int(1)], 0),
    ])
    func unused(_ format: String, _ arguments: [ObjectValue], _ taken: Int) throws {
        let given = arguments.count
        #expect(throws: PredicateArgumentError.unusedArguments(given: given, taken: taken)) {
            try ObjectPredicate(format: format, usingAll: arguments)
        }
        #expect(throws: Never.self) { try ObjectPredicate(format: format, usingAll: Array(arguments.prefix(taken))) }
        #expect(throws: Never.self) { try ObjectPredicate(format: format, argumentArray: arguments) }
    }
}

@Suite("MATCHES that the engine gives up on")
struct RegularExpressionLimitTests {
    @Test("a pattern that backtracks without end on a value is an error that names it, never a silent no", arguments: [
        ("(a+)+b", String(repeating: "a", count: 40)),
        ("(x|x|xx)*y", String(repeating: "x", count: 60)),
    ])
    func givesUp(_ pattern: String, _ text: String) throws {
        let started = Date()
        let error = try #require(throws: PredicateEvaluationError.self) {
            try RegularExpressionMatcher.matches(text, pattern: pattern)
        }
        #expect(error.reason == .invalidRegularExpression)
        #expect(error.message.contains("gave up"), "\(error.message)")
        #expect(Date().timeIntervalSince(started) < 30)
        // The same kind of pattern answers at once where it can.
        #expect(try RegularExpressionMatcher.matches("aab", pattern: "(a+)+b"))
        #expect(try !RegularExpressionMatcher.matches("aac", pattern: "(a+)+b"))
    }

    @Test("an empty pattern matches only the empty string; an empty value matches what allows it")
    func empties() throws {
        #expect(try RegularExpressionMatcher.matches("", pattern: ""))
        #expect(try !RegularExpressionMatcher.matches("a", pattern: ""))
        #expect(try RegularExpressionMatcher.matches("", pattern: "a*"))
        #expect(throws: PredicateEvaluationError.self) { try RegularExpressionMatcher.matches("a", pattern: "(") }
    }
}
