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

    func substituting(_ variables: [String: ObjectValue], bound: Set<String>) throws -> ObjectPredicate {
        switch self {
        case .true, .false: return self
        case .and(let ps): return .and(try ps.map { try $0.substituting(variables, bound: bound) })
        case .or(let ps): return .or(try ps.map { try $0.substituting(variables, bound: bound) })
        case .not(let p): return .not(try p.substituting(variables, bound: bound))
        case .comparison(var c):
            c.lhs = try c.lhs.substituting(variables, bound: bound)
            c.rhs = try c.rhs.substituting(variables, bound: bound)
            return .comparison(c)
        }
    }
}
