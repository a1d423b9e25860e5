import Foundation

extension ObjectExpression {
    /// The expression with each `$variable` replaced by its value.
    ///
    /// ```swift
    /// try ObjectExpression(format: "$x + 1").substitutingVariables(["x": 2]).expressionFormat   // 2 + 1
    /// ```
    public func substitutingVariables(_ variables: [String: ObjectValue]) throws -> ObjectExpression {
        try substituting(variables, bound: [])
    }

    /// The expression with variables replaced (none when `variables` is nil) and every
    /// constant passed through `constants`.
    func substituting(_ variables: [String: ObjectValue]?, bound: Set<String>,
                      constants: ((ObjectValue) -> ObjectValue)? = nil) throws -> ObjectExpression {
        func sub(_ e: ObjectExpression) throws -> ObjectExpression { try e.substituting(variables, bound: bound, constants: constants) }
        switch self {
        case .constant(let value):
            return constants.map { .constant($0(value)) } ?? self
        case .evaluatedObject, .keyPath:
            return self
        case .variable(let name):
            guard let variables, !bound.contains(name) else { return self }
            guard let v = variables[name] else {
                throw PredicateEvaluationError(.missingVariable, "no value for variable $\(name)", key: name)
            }
            return .constant(v)
        case .member(let base, let path):
            return .member(try sub(base), keyPath: path)
        case .aggregate(let elements):
            return ObjectExpression.aggregateFolding(try elements.map(sub))
        case .function(let name, let args):
            return .function(name, try args.map(sub))
        case .customFunction(let receiver, let selector, let args):
            return .customFunction(receiver: try sub(receiver), selector: selector, arguments: try args.map(sub))
        case .index(let base, let selector):
            if case .expression(let i) = selector { return .index(try sub(base), .expression(try sub(i))) }
            return .index(try sub(base), selector)
        case .subquery(let collection, let variable, let predicate):
            return .subquery(collection: try sub(collection), variable: variable,
                             predicate: try predicate.substituting(variables, bound: bound.union([variable]), constants: constants))
        case .cast(let value, let type):
            return ObjectExpression.castFolding(try sub(value), type: type)
        case .ternary(let condition, let a, let b):
            return .ternary(try condition.substituting(variables, bound: bound, constants: constants), try sub(a), try sub(b))
        case .setOperation(let op, let a, let b):
            return .setOperation(op, try sub(a), try sub(b))
        }
    }
}
