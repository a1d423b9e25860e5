import Foundation
import Testing
import Predicates
import TestSupport

@Suite("Robustness against arbitrary input")
struct RobustnessTests {
    static let seeds = [
        "name == 'Bob'", "age <= 21", "name == %@ OR name == %@", "%K == %@", "name LIKE[cd] %@",
        "ANY friends.age > 40 AND NOT (name BEGINSWITH[c] 'a' || score BETWEEN {1, 10})",
        "SUBQUERY(friends, $f, $f.age > age).@count == 1", "sum(scores) / count(scores) > 2.5e1",
        "FUNCTION($m, 'x:', 1) == TERNARY(a > 1, 0x1F, -0b101)", "CAST(0, 'NSDate') < born",
        "tags[FIRST] ==[n] \"x\\\"y\" AND #size IN {1, 2, 3}", "a UNION b CONTAINS $x",
        "scores[SIZE] =< 3 && @sum.items.price < 1000", "uppercase:(name) MATCHES '[A-Z]+'",
        "TRUEPREDICATE OR FALSEPREDICATE", "add:to:(1, 2) ** 2 != -(3)", "%d > %f AND %s == %ld",
    ]

    static let fragments = [
        "(", ")", "{", "}", "[", "]", ",", ".", "'", "\"", "\\", "%", "%@", "%K", "%d", "$", "#", "@",
        "==", "=", "!=", "<>", "<", ">", "<=", "=>", "&&", "||", "!", "+", "-", "*", "/", "**", ":", ":=",
        "AND", "OR", "NOT", "ANY", "ALL", "NONE", "SOME", "IN", "LIKE", "MATCHES", "CONTAINS", "BETWEEN",
        "BEGINSWITH", "ENDSWITH", "[c]", "[cd]", "[n]", "SELF", "nil", "TRUE", "NO", "FIRST", "LAST", "SIZE",
        "SUBQUERY", "CAST", "FUNCTION", "TERNARY", "UNION", "sum", "now", "0x", "0b1", "1e", "1.5", "-7",
        "9999999999999999999999", "name", "age", "é", "\n", " ", "\t", "\u{0}", "🙂", "TRUEPREDICATE",
    ]

    static let arguments: [ObjectValue] = ["name", 3, 2.5, true, nil, ["a", 1], "x"]

    /// Parses, and when it parses, prints, re-parses and evaluates; every failure must be
    /// one of the two documented error types.
    @discardableResult
    private func exercise(_ input: String) -> Bool {
        let p: ObjectPredicate
        do {
            p = try ObjectPredicate(format: input, argumentArray: Self.arguments)
        } catch is PredicateSyntaxError {
            return false
        } catch {
            Issue.record("\(input.debugDescription) threw \(error)")
            return false
        }
        do {
            let again = try ObjectPredicate(format: p.predicateFormat)
            #expect(again == p, "\(input.debugDescription) printed as \(p.predicateFormat.debugDescription)")
        } catch {
            Issue.record("\(input.debugDescription) printed as \(p.predicateFormat.debugDescription), which fails: \(error)")
        }
        do {
            _ = try p.evaluate(with: Samples.ann, variables: ["x": 1, "m": .null, "f": 2])
        } catch is PredicateEvaluationError {
        } catch {
            Issue.record("\(input.debugDescription) evaluation threw \(error)")
        }
        return true
    }

    @Test("random token soups never crash and fail only with syntax errors")
    func randomInputs() {
        var rng = SeededGenerator(seed: 0x5EED)
        var parsed = 0
        for _ in 0..<4_000 {
            let count = Int.random(in: 1...12, using: &rng)
            let input = (0..<count).map { _ in Self.fragments.randomElement(using: &rng)! }
                .joined(separator: Bool.random(using: &rng) ? " " : "")
            if exercise(input) { parsed += 1 }
        }
        #expect(parsed > 10, "only \(parsed) random inputs parsed")
    }

    @Test("mutated valid predicates never crash and fail only with syntax errors")
    func mutatedInputs() {
        var rng = SeededGenerator(seed: 42)
        var parsed = 0
        for _ in 0..<4_000 {
            var chars = Array(Self.seeds.randomElement(using: &rng)!)
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let position = chars.isEmpty ? 0 : Int.random(in: 0..<chars.count, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0 where !chars.isEmpty: chars.remove(at: position)
                case 1: chars.insert(contentsOf: Self.fragments.randomElement(using: &rng)!, at: position)
                case 2 where !chars.isEmpty: chars[position] = Character(Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &rng)))
                default:
                    let cut = Int.random(in: 0...chars.count, using: &rng)
                    chars = Array(chars[..<cut])
                }
            }
            if exercise(String(chars)) { parsed += 1 }
        }
        // Enough mutants still parse for the print-and-reparse check to mean something.
        #expect(parsed > 400)
    }

    @Test("combining marks after quotes and escapes survive printing and reading back", arguments: [
        "m='\t\u{9B}\r\n\u{07EE}\u{FFFD}'",
        "name == %@",
        "a == '\u{301}'",
        "a\u{301} == 'x'",
    ])
    func combiningMarks(_ format: String) throws {
        let p = try ObjectPredicate(format: format, "\u{301}x\n\u{301}\"\u{301}")
        #expect(try ObjectPredicate(format: p.predicateFormat) == p, "\(p.predicateFormat.debugDescription)")
    }

    @Test("random bytes never crash the parser")
    func randomBytes() {
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0...40, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            exercise(String(decoding: bytes, as: UTF8.self))
        }
    }
}
