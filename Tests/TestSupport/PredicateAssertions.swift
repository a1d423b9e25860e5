import Foundation
import Testing
import Predicates

/// Parses `format` and checks the canonical format it prints (the input itself when
/// `printed` is nil) and that parsing the printed form gives the same predicate back.
@discardableResult
public func assertParses(
    _ format: String,
    _ arguments: [ObjectValue] = [],
    printed: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) -> ObjectPredicate? {
    do {
        let p = try ObjectPredicate(format: format, argumentArray: arguments)
        #expect(p.predicateFormat == (printed ?? format), sourceLocation: sourceLocation)
        let again = try ObjectPredicate(format: p.predicateFormat)
        #expect(again == p, "parse(format(p)) differs for \(p.predicateFormat)", sourceLocation: sourceLocation)
        return p
    } catch {
        Issue.record("\(format) did not parse: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Checks that `format` fails to parse with a `PredicateSyntaxError` whose `expected`
/// contains `expected`, at `line:column` when given.
public func assertSyntaxError(
    _ format: String,
    _ arguments: [ObjectValue] = [],
    expected: String,
    at position: (line: Int, column: Int)? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        let p = try ObjectPredicate(format: format, argumentArray: arguments)
        Issue.record("\(format) parsed as \(p.predicateFormat)", sourceLocation: sourceLocation)
    } catch let error as PredicateSyntaxError {
        #expect(error.expected.contains(expected), "\(error.message)", sourceLocation: sourceLocation)
        if let position {
            #expect(error.line == position.line && error.column == position.column,
                    "\(error.message)", sourceLocation: sourceLocation)
        }
    } catch {
        Issue.record("\(format) threw \(type(of: error)), not a syntax error: \(error)", sourceLocation: sourceLocation)
    }
}

/// Evaluates `format` with `arguments` against `object` and checks the answer.
public func assertEvaluates(
    _ format: String,
    _ arguments: [ObjectValue] = [],
    on object: ObjectValue,
    variables: [String: ObjectValue] = [:],
    to expected: Bool,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        let p = try ObjectPredicate(format: format, argumentArray: arguments)
        let answer = try p.evaluate(with: object, variables: variables)
        #expect(answer == expected, "\(format) gave \(answer)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("\(format) failed: \(error)", sourceLocation: sourceLocation)
    }
}
