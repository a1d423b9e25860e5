import Foundation
import Predicates

/// One comparison of two expressions, under Core Data's name: what `name BEGINSWITH[c] "a"`
/// or `ANY tags.name == "x"` reads as.
///
/// ```swift
/// NSComparisonPredicate(leftExpression: NSExpression(forKeyPath: "name"),
///                       rightExpression: NSExpression(forConstantValue: "wat"),
///                       modifier: .direct, type: .beginsWith, options: [.caseInsensitive])
/// ```
// `@unchecked` as `NSPredicate` is: no stored property of its own, so as immutable as it.
open class NSComparisonPredicate: NSPredicate, @unchecked Sendable {
    /// `ANY` and `ALL` over a collection on the left; Core Data writes `NONE` as `NOT ANY`.
    public enum Modifier: UInt, Sendable {
        case direct = 0
        case all = 1
        case any = 2
    }

    /// The operator; the raw values are Core Data's.
    public enum Operator: UInt, Sendable {
        case lessThan = 0
        case lessThanOrEqualTo = 1
        case greaterThan = 2
        case greaterThanOrEqualTo = 3
        case equalTo = 4
        case notEqualTo = 5
        case matches = 6
        case like = 7
        case beginsWith = 8
        case endsWith = 9
        case `in` = 10
        /// A method of the left value called with the right one: needs the Objective-C
        /// runtime, so no predicate here has it.
        case customSelector = 11
        case contains = 99
        case between = 100
    }

    /// `[c]`, `[d]` and `[n]`.
    public struct Options: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let caseInsensitive = Options(rawValue: 1)
        public static let diacriticInsensitive = Options(rawValue: 2)
        public static let normalized = Options(rawValue: 4)
    }

    /// A comparison of two expressions.
    public convenience init(leftExpression lhs: NSExpression, rightExpression rhs: NSExpression,
                            modifier: Modifier, type: Operator, options: Options = []) {
        var engineOptions: ComparisonOptions = []
        for pair in Self.optionPairs where options.contains(pair.apple) { engineOptions.insert(pair.engine) }
        let modifier: ComparisonModifier = switch modifier {
        case .direct: .direct
        case .all: .all
        case .any: .any
        }
        self.init(.comparison(ComparisonPredicate(lhs.objectExpression, Self.engineOperator(type), rhs.objectExpression,
                                                  modifier: modifier, options: engineOptions)))
    }

    /// A comparison predicate for a comparison built in the engine's terms.
    public override init(_ predicate: ObjectPredicate) {
        guard case .comparison = predicate else {
            preconditionFailure("an NSComparisonPredicate holds one comparison, not \(predicate.predicateFormat)")
        }
        super.init(predicate)
    }

    private var comparison: ComparisonPredicate {
        guard case .comparison(let comparison) = objectPredicate else {
            preconditionFailure("\(predicateFormat) is not a comparison")
        }
        return comparison
    }

    /// The expression on the left: with a modifier, the collection ranged over.
    open var leftExpression: NSExpression { NSExpression(comparison.lhs) }

    /// The expression on the right.
    open var rightExpression: NSExpression { NSExpression(comparison.rhs) }

    /// `ANY`, `ALL`, or neither (`NONE` reads as `.any`, under a NOT).
    open var comparisonPredicateModifier: Modifier {
        switch comparison.modifier {
        case .direct: return .direct
        case .all: return .all
        case .any, .none: return .any
        }
    }

    /// The operator.
    open var predicateOperatorType: Operator {
        Self.operators.first { $0.engine == comparison.op }!.apple
    }

    /// `[c]`, `[d]`, `[n]`.
    open var options: Options {
        var options: Options = []
        for pair in Self.optionPairs where comparison.options.contains(pair.engine) { options.insert(pair.apple) }
        return options
    }

    /// Each of Core Data's operators and the engine's.
    private static let operators: [(apple: Operator, engine: ComparisonOperator)] = [
        (.lessThan, .lessThan), (.lessThanOrEqualTo, .lessThanOrEqualTo), (.greaterThan, .greaterThan),
        (.greaterThanOrEqualTo, .greaterThanOrEqualTo), (.equalTo, .equalTo), (.notEqualTo, .notEqualTo),
        (.matches, .matches), (.like, .like), (.beginsWith, .beginsWith), (.endsWith, .endsWith), (.in, .in),
        (.contains, .contains), (.between, .between),
    ]

    private static func engineOperator(_ type: Operator) -> ComparisonOperator {
        guard let pair = operators.first(where: { $0.apple == type }) else {
            preconditionFailure("NSComparisonPredicate.Operator.customSelector calls a method by its selector, which needs the Objective-C runtime; write the test in the format language")
        }
        return pair.engine
    }

    /// Each of Core Data's options and the engine's.
    private static let optionPairs: [(apple: Options, engine: ComparisonOptions)] = [
        (.caseInsensitive, .caseInsensitive), (.diacriticInsensitive, .diacriticInsensitive), (.normalized, .normalized),
    ]
}
