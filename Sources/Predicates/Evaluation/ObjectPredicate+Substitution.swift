import Foundation

extension ObjectPredicate {
    /// The predicate with each `$variable` replaced by its value; variables bound by a
    /// `SUBQUERY` inside are left alone.
    ///
    /// ```swift
    /// let template = try ObjectPredicate(format: "date BETWEEN {$FROM, $TO}")
    /// let p = try template.substitutingVariables(["FROM": .date(start), "TO": .date(end)])
    /// ```
    ///
    /// - Throws: `PredicateEvaluationError` with reason `.missingVariable` for a variable
    ///   the dictionary does not hold (pass `.null` to compare with nil).
    public func substitutingVariables(_ variables: [String: ObjectValue]) throws -> ObjectPredicate {
        try substituting(variables, bound: [])
    }

    /// The predicate with every constant value passed through `transform` (collections
    /// whole: map their elements inside it), variables left as they are.
    ///
    /// ```swift
    /// // Objects named by their IDs, for a context on another queue.
    /// let portable = predicate.mappingConstants { value in
    ///     if case .object(let o as ManagedObject) = value { return .object(o.objectID) }
    ///     return value
    /// }
    /// ```
    public func mappingConstants(_ transform: (ObjectValue) -> ObjectValue) -> ObjectPredicate {
        withoutActuallyEscaping(transform) { transform in
            // Without variables to replace, nothing throws.
            (try? substituting(nil, bound: [], constants: transform)) ?? self
        }
    }

    func substituting(_ variables: [String: ObjectValue]?, bound: Set<String>,
                      constants: ((ObjectValue) -> ObjectValue)? = nil) throws -> ObjectPredicate {
        switch self {
        case .true, .false: return self
        case .and(let ps): return .and(try ps.map { try $0.substituting(variables, bound: bound, constants: constants) })
        case .or(let ps): return .or(try ps.map { try $0.substituting(variables, bound: bound, constants: constants) })
        case .not(let p): return .not(try p.substituting(variables, bound: bound, constants: constants))
        case .comparison(var c):
            c.lhs = try c.lhs.substituting(variables, bound: bound, constants: constants)
            c.rhs = try c.rhs.substituting(variables, bound: bound, constants: constants)
            return .comparison(c)
        }
    }
}
