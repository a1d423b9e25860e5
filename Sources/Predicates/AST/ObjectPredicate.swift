import Foundation

/// A predicate: a condition an object either satisfies or not.
///
/// This is the abstract syntax tree of the `NSPredicate` format language. Parsing,
/// evaluation, formatting and substitution are separate files, each a `switch` over
/// these cases; other targets (a store's SQL compiler) switch over them too.
///
/// ```swift
/// let p = try ObjectPredicate(format: "name BEGINSWITH[c] %@ AND age >= 18", "jo")
/// try p.evaluate(with: ["name": "John", "age": 34])   // true
/// p.predicateFormat   // name BEGINSWITH[c] "jo" AND age >= 18
/// ```
public indirect enum ObjectPredicate {
    /// `TRUEPREDICATE`: every object matches.
    case `true`
    /// `FALSEPREDICATE`: no object matches.
    case `false`
    /// `a AND b AND ...` (also `&&`): every subpredicate matches; an empty list matches.
    case and([ObjectPredicate])
    /// `a OR b OR ...` (also `||`): some subpredicate matches; an empty list does not.
    case or([ObjectPredicate])
    /// `NOT a` (also `!a`): the subpredicate does not match.
    case not(ObjectPredicate)
    /// `lhs op[options] rhs`, optionally qualified: `ANY tags.name ==[c] "x"`.
    case comparison(ComparisonPredicate)
}

extension ObjectPredicate: Equatable, Hashable {}

extension ObjectPredicate: Sendable {}

extension ObjectPredicate {
    /// A comparison of the value at `keyPath` with a constant.
    ///
    /// ```swift
    /// let p = ObjectPredicate.comparison("name", .beginsWith, "Jo", options: .caseInsensitive)
    /// p.predicateFormat   // name BEGINSWITH[c] "Jo"
    /// ```
    public static func comparison(
        _ keyPath: String,
        _ op: ComparisonOperator,
        _ value: any ObjectValueConvertible,
        options: ComparisonOptions = [],
        modifier: ComparisonModifier = .direct
    ) -> ObjectPredicate {
        .comparison(ComparisonPredicate(
            .keyPath(keyPath), op, .constant(value.objectValue),
            modifier: modifier, options: options))
    }

    /// Equality predicates `key == value`, one per entry, joined by AND or by OR; keys are
    /// taken in sorted order so the result does not depend on dictionary order.
    ///
    /// ```swift
    /// let p = ObjectPredicate.matching(["publisher": "BookCo", "salesRank": 482769], usingOR: true)
    /// p.predicateFormat   // publisher == "BookCo" OR salesRank == 482769
    /// ```
    public static func matching(
        _ keysAndValues: [String: any ObjectValueConvertible], usingOR: Bool = false
    ) -> ObjectPredicate {
        let parts = keysAndValues.keys.sorted().map { key in
            comparison(key, .equalTo, keysAndValues[key]!)
        }
        if parts.count == 1 { return parts[0] }
        return usingOR ? .or(parts) : .and(parts)
    }

    /// The subpredicates of a compound predicate (the operand of NOT), else empty.
    public var subpredicates: [ObjectPredicate] {
        switch self {
        case .and(let ps), .or(let ps): return ps
        case .not(let p): return [p]
        default: return []
        }
    }
}
