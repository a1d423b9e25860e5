import Foundation
import Testing
import Predicates

@Suite("Equality of predicates and expressions")
struct EqualityTests {
    private func parse(_ format: String) throws -> ObjectPredicate { try ObjectPredicate(format: format) }

    @Test("expressions describing the same thing are equal and hash alike")
    func expressions() throws {
        let pairs: [(ObjectExpression, ObjectExpression)] = [
            (.keyPath("name"), try ObjectExpression(format: "name")),
            (.constant("x"), try ObjectExpression(format: "'x'")),
            (.variable("v"), try ObjectExpression(format: "$v")),
            (.function("sum:", [.keyPath("name")]), try ObjectExpression(format: "sum(name)")),
            (.evaluatedObject, try ObjectExpression(format: "SELF")),
            (.constant(1), .constant(1.0)),
        ]
        for (a, b) in pairs {
            #expect(a == b)
            #expect(a.hashValue == b.hashValue)
        }
        #expect(ObjectExpression.keyPath("name") != .keyPath("other"))
        #expect(ObjectExpression.keyPath("name") != .constant("name"))
        #expect(ObjectExpression.constant("x") != .constant("y"))
        #expect([ObjectExpression.keyPath("name")].contains(.keyPath("name")))
    }

    @Test("predicates of the same shape are equal; operator, options, constant or compound type tell them apart")
    func predicates() throws {
        #expect(try parse("name == 'x'") == parse("name = \"x\""))
        #expect(try parse("name == 'x'").hashValue == parse("name == 'x'").hashValue)
        #expect(try parse("name == 'x'") != parse("name == 'y'"))
        #expect(try parse("name == 'x'") != parse("name ==[c] 'x'"))
        #expect(try parse("name == 'x'") != parse("name CONTAINS 'x'"))
        #expect(try parse("ANY name == 'x'") != parse("ALL name == 'x'"))
        #expect(try parse("a == 1 AND b == 2") == parse("a == 1 && b == 2"))
        #expect(try parse("a == 1 AND b == 2").hashValue == parse("a == 1 && b == 2").hashValue)
        #expect(try parse("a == 1 AND b == 2") != parse("a == 1 OR b == 2"))
        #expect(try parse("a == 1 AND b == 2") != parse("a == 1"))
        #expect(ObjectPredicate.true == .true)
        #expect(ObjectPredicate.true != .false)
        #expect(Set([try parse("a == 1"), try parse("a = 1"), try parse("a == 2")]).count == 2)
    }

    @Test("a printed predicate means what the predicate means")
    func printedMeaning() throws {
        let p = try ObjectPredicate(format: "%@ > %@", 1, 1)
        #expect(try !p.evaluate(with: .null))
        #expect(try !ObjectPredicate(format: p.predicateFormat).evaluate(with: .null))
    }

    @Test("%@*%@ multiplies the two values, which fails for strings; %@* does not parse")
    func multiplicationOfArguments() throws {
        let p = try ObjectPredicate(format: "name LIKE %@*%@", "prefix", "suffix")
        #expect(p.predicateFormat == "name LIKE \"prefix\" * \"suffix\"")
        #expect(throws: PredicateEvaluationError.self) { try p.evaluate(with: ["name": "prefix-suffix"]) }
        #expect(throws: PredicateSyntaxError.self) { try ObjectPredicate(format: "name LIKE %@*", "prefix") }
        let right = try ObjectPredicate(format: "name LIKE %@", "prefix*suffix")
        #expect(try right.evaluate(with: ["name": "prefix-suffix"]))
    }
}
