import Foundation

/// What an expression is evaluated against: the object (`SELF`) and the variables.
struct EvaluationContext {
    var object: ObjectValue
    var variables: [String: ObjectValue]

    func binding(_ name: String, to value: ObjectValue) -> EvaluationContext {
        var copy = self
        copy.variables[name] = value
        return copy
    }
}
