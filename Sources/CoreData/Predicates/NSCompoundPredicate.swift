import Foundation
import Predicates

/// Predicates joined by AND or OR, or one negated, under Core Data's name.
///
/// ```swift
/// let open = NSCompoundPredicate(andPredicateWithSubpredicates: [
///     NSPredicate(format: "completed == NO"), NSPredicate(format: "category.name == %@", "Home"),
/// ])
/// ```
///
/// `@unchecked Sendable` as `NSPredicate` is: no stored property of its own, so as immutable
/// as it.
open class NSCompoundPredicate: NSPredicate, @unchecked Sendable {
    /// How the subpredicates are joined; the raw values are Core Data's.
    public enum LogicalType: UInt, Sendable {
        /// `NOT`: the one subpredicate does not hold.
        case not = 0
        /// `AND`: every subpredicate holds (true for none).
        case and = 1
        /// `OR`: at least one subpredicate holds (false for none).
        case or = 2
    }

    /// A compound predicate for one built in the engine's terms.
    public override init(_ predicate: ObjectPredicate) {
        switch predicate {
        case .and, .or, .not: super.init(predicate)
        default: preconditionFailure("an NSCompoundPredicate joins or negates predicates, and \(predicate.predicateFormat) does neither")
        }
    }

    /// Subpredicates joined as `type` says (`.not` takes exactly one). Block predicates among
    /// them make the compound one too: it is evaluated in memory, each part as itself.
    public convenience init(type: LogicalType, subpredicates: [NSPredicate]) {
        let parts = subpredicates.map(\.objectPredicate)
        let joined: ObjectPredicate
        switch type {
        case .and: joined = .and(parts)
        case .or: joined = .or(parts)
        case .not:
            precondition(parts.count == 1, "NSCompoundPredicate(type: .not) negates one predicate, not \(parts.count)")
            joined = .not(parts[0])
        }
        guard subpredicates.contains(where: \.isEvaluatedInMemoryOnly) else {
            self.init(joined)
            return
        }
        self.init(joined, evaluator: { object, bindings in
            switch type {
            case .and: subpredicates.allSatisfy { $0.evaluate(with: object, substitutionVariables: bindings) }
            case .or: subpredicates.contains { $0.evaluate(with: object, substitutionVariables: bindings) }
            case .not: !subpredicates[0].evaluate(with: object, substitutionVariables: bindings)
            }
        })
    }

    /// A compound predicate evaluated by a closure (it holds block predicates).
    override init(_ predicate: ObjectPredicate, evaluator: @escaping (Any?, [String: Any]?) -> Bool) {
        super.init(predicate, evaluator: evaluator)
    }

    /// All of the subpredicates hold (`TRUEPREDICATE` for none).
    public convenience init(andPredicateWithSubpredicates subpredicates: [NSPredicate]) {
        self.init(type: .and, subpredicates: subpredicates)
    }

    /// Any of the subpredicates holds (`FALSEPREDICATE` for none).
    public convenience init(orPredicateWithSubpredicates subpredicates: [NSPredicate]) {
        self.init(type: .or, subpredicates: subpredicates)
    }

    /// The subpredicate does not hold.
    public convenience init(notPredicateWithSubpredicate predicate: NSPredicate) {
        self.init(type: .not, subpredicates: [predicate])
    }

    /// How the subpredicates are joined.
    open var compoundPredicateType: LogicalType {
        switch objectPredicate {
        case .or: return .or
        case .not: return .not
        default: return .and
        }
    }

    /// The predicates joined, each of Core Data's class for its kind.
    open var subpredicates: [Any] {
        switch objectPredicate {
        case .and(let parts), .or(let parts): return parts.map(NSPredicate.wrapping)
        case .not(let part): return [NSPredicate.wrapping(part)]
        default: return []
        }
    }
}
