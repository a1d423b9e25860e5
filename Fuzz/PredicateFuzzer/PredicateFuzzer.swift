import Foundation

// libFuzzer entry point: every input is parsed as a predicate and as an expression; what
// parses is printed, parsed again and evaluated. A crash, a hang or a round trip that
// changes the predicate is a finding.

private let arguments: [ObjectValue] = ["name", 3, 2.5, true, nil, ["a", 1], "x"]
private let sample: ObjectValue = [
    "name": "Ann", "age": 34, "tags": ["a", "b"], "friends": .set([["age": 41], ["age": 29]]),
    "born": .date(Date(timeIntervalSinceReferenceDate: 0)), "nothing": nil,
]

@_cdecl("LLVMFuzzerTestOneInput")
public func predicateFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let p = try? ObjectPredicate(format: input, argumentArray: arguments) {
        let printed = p.predicateFormat
        guard let again = try? ObjectPredicate(format: printed), again == p else {
            fatalError("round trip changed \(input.debugDescription) printed as \(printed.debugDescription)")
        }
        do {
            _ = try p.evaluate(with: sample, variables: ["x": 1])
        } catch is PredicateEvaluationError {
        } catch {
            fatalError("evaluation threw \(type(of: error)): \(error)")
        }
    }
    if let e = try? ObjectExpression(format: input, argumentArray: arguments) {
        _ = e.expressionFormat
        _ = try? e.evaluate(with: sample, variables: ["x": 1])
    }
    return 0
}
