import Foundation
import Testing
import Predicates

@Suite("Substituting variables")
struct SubstitutionTests {
    @Test("replaces each variable with a constant")
    func replaces() throws {
        let template = try ObjectPredicate(format: "age BETWEEN {$LOWER, $UPPER} AND name == $NAME")
        let p = try template.substitutingVariables(["LOWER": 30, "UPPER": 40, "NAME": "Ann"])
        #expect(p.predicateFormat == "age BETWEEN {30, 40} AND name == \"Ann\"")
        #expect(p == (try ObjectPredicate(format: "age BETWEEN {30, 40} AND name == 'Ann'")))
        #expect(try p.evaluate(with: Samples.ann))
    }

    @Test("a missing variable is an error naming it")
    func missing() throws {
        let template = try ObjectPredicate(format: "a == $A OR b == $B")
        #expect(throws: PredicateEvaluationError.self) { try template.substitutingVariables(["A": 1]) }
        do {
            _ = try template.substitutingVariables(["A": 1])
        } catch let e as PredicateEvaluationError {
            #expect(e.key == "B")
            #expect(e.reason == .missingVariable)
        }
    }

    @Test("nil is substituted with .null and prints as nil")
    func nilValue() throws {
        let p = try ObjectPredicate(format: "date == $DATE").substitutingVariables(["DATE": .null])
        #expect(p.predicateFormat == "date == nil")
        #expect(try p.evaluate(with: ["date": nil]))
    }

    @Test("a SUBQUERY's own variable is left for the subquery")
    func subqueryVariable() throws {
        let template = try ObjectPredicate(format: "SUBQUERY(friends, $f, $f.age > $MIN).@count > 0")
        let p = try template.substitutingVariables(["MIN": 40])
        #expect(p.predicateFormat == "SUBQUERY(friends, $f, $f.age > 40).@count > 0")
        #expect(try p.evaluate(with: Samples.ann))
    }

    @Test("dates, arrays and key paths inside functions and casts are substituted")
    func nested() throws {
        let e = try ObjectExpression(format: "TERNARY($x > 1, uppercase($s), CAST($n, 'NSDate'))")
        let bound = try e.substitutingVariables(["x": 2, "s": "a", "n": 5])
        #expect(bound.expressionFormat == "TERNARY(2 > 1, uppercase:(\"a\"), CAST(5, \"NSDate\"))")
        #expect(try bound.evaluate(with: .null) == "A")
    }
}
