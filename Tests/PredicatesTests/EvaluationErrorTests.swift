import Foundation
import Testing
import Predicates

@Suite("Evaluation errors")
struct EvaluationErrorTests {
    private func failure(_ format: String, _ arguments: [ObjectValue] = [], on object: ObjectValue = Samples.ann,
                         variables: [String: ObjectValue] = [:]) -> PredicateEvaluationError? {
        do {
            _ = try ObjectPredicate(format: format, argumentArray: arguments).evaluate(with: object, variables: variables)
            return nil
        } catch let e as PredicateEvaluationError {
            return e
        } catch {
            return nil
        }
    }

    @Test("an unknown key names the key and the entity")
    func unknownKey() {
        let person = ObjectValue.object(Person(id: 1, ["name": "Ann"]))
        let e = failure("nickname == 'x'", on: person)
        #expect(e?.reason == .unknownKey)
        #expect(e?.key == "nickname")
        #expect(e?.typeName == "Person")
        #expect(e?.description == "Person has no key 'nickname'")
    }

    @Test("a key read from a string names the key and the type")
    func keyOnString() {
        let e = failure("name.first == 'x'")
        #expect(e?.key == "first")
        #expect(e?.typeName == "String")
    }

    @Test("a missing variable is an error, not nil")
    func missingVariable() {
        let e = failure("age > $limit")
        #expect(e?.reason == .missingVariable)
        #expect(e?.key == "limit")
        #expect(e?.description == "no value for variable $limit")
    }

    @Test("a string operator on a number names the key and the type")
    func stringOperatorOnNumber() {
        let e = failure("age BEGINSWITH '3'")
        #expect(e?.reason == .typeMismatch)
        #expect(e?.key == "age")
        #expect(e?.description == "BEGINSWITH needs strings, got Integer for key 'age' of Dictionary")
    }

    @Test("ANY needs a collection")
    func anyOnScalar() {
        let e = failure("ANY name == 'x'")
        #expect(e?.reason == .typeMismatch)
        #expect(e?.key == "name")
    }

    @Test("IN needs a collection or a string", arguments: ["age IN 3", "age IN name", "3 CONTAINS 1", "age BETWEEN 3"])
    func membership(_ format: String) {
        #expect(failure(format)?.reason == .typeMismatch)
    }

    @Test("an invalid regular expression is an error")
    func badRegex() {
        let e = failure("name MATCHES '(['")
        #expect(e?.reason == .invalidRegularExpression)
    }

    @Test("FUNCTION on something that cannot perform it names the selector")
    func unsupportedFunction() {
        let e = failure("FUNCTION(name, 'reverse') == 'x'")
        #expect(e?.reason == .unsupportedFunction)
        #expect(e?.key == "reverse")
        #expect(e?.typeName == "String")
    }

    @Test("arithmetic on a string is an error", arguments: ["name + 1 == 2", "sqrt(name) == 1", "sum(tags) == 1", "abs('x') == 1"])
    func arithmeticOnString(_ format: String) {
        #expect(failure(format)?.reason == .invalidArgument)
    }

    @Test("a function built in code with the wrong number of arguments is an error, not a crash")
    func builtFunctionArity() {
        let e = ObjectExpression.function("add:to:", [.constant(1)])
        #expect(throws: PredicateEvaluationError.self) { try e.evaluate(with: .null) }
        #expect(throws: PredicateEvaluationError.self) {
            try ObjectExpression.function("nosuch:", []).evaluate(with: .null)
        }
    }

    @Test("an index outside the array is an error")
    func indexOutOfRange() {
        #expect(failure("scores[3] == 1")?.reason == .indexOutOfRange)
        #expect(failure("scores[-1] == 1")?.reason == .indexOutOfRange)
        #expect(failure("scores['x'] == 1")?.reason == .typeMismatch)
    }

    @Test("CAST of something it cannot convert is an error")
    func badCast() {
        #expect(failure("CAST(tags, 'NSNumber') == 1")?.reason == .typeMismatch)
        #expect(failure("CAST('abc', 'NSNumber') == 1")?.reason == .typeMismatch)
    }
}
