import Foundation

extension ObjectPredicate {
    /// Whether the object satisfies the predicate, with `$variables` bound.
    ///
    /// ```swift
    /// let p = try ObjectPredicate(format: "name LIKE[c] 'j*' AND age > $min")
    /// try p.evaluate(with: ["name": "John", "age": 34], variables: ["min": 18])   // true
    /// ```
    ///
    /// - Throws: `PredicateEvaluationError` naming the key and type that failed.
    public func evaluate(with object: ObjectValue, variables: [String: ObjectValue] = [:]) throws -> Bool {
        try matches(EvaluationContext(object: object, variables: variables))
    }

    /// Whether a key-value source (a managed object, a dictionary) satisfies the predicate.
    public func evaluate(with object: some KeyValueCoding, variables: [String: ObjectValue] = [:]) throws -> Bool {
        try evaluate(with: ObjectValue(keyValueSource: object), variables: variables)
    }

    func matches(_ context: EvaluationContext) throws -> Bool {
        switch self {
        case .true: return true
        case .false: return false
        case .and(let ps):
            for p in ps where !(try p.matches(context)) { return false }
            return true
        case .or(let ps):
            for p in ps where try p.matches(context) { return true }
            return false
        case .not(let p):
            return !(try p.matches(context))
        case .comparison(let c):
            return try c.matches(context)
        }
    }
}
