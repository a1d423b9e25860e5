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
///
/// `@unchecked Sendable` as `NSPredicate` is: no stored property of its own, so as immutable
/// as it.
open class NSComparisonPredicate: NSPredicate, @unchecked Sendable {
    /// `ANY` and `ALL` over a collection on the left; Core Data writes `NONE` as `NOT ANY`.
    public enum Modifier: UInt, Sendable {
        /// No qualifier: the left value is compared as it is.
        case direct = 0
        /// `ALL`: every element of the left collection matches (an empty collection matches).
        case all = 1
        /// `ANY` (or `SOME`): some element of the left collection matches.
        case any = 2
    }

    /// The operator; the raw values are Core Data's.
    public enum Operator: UInt, Sendable {
        /// `<`: the left value is less than the right.
        case lessThan = 0
        /// `<=` (or `=<`): the left value is less than or equal to the right.
        case lessThanOrEqualTo = 1
        /// `>`: the left value is greater than the right.
        case greaterThan = 2
        /// `>=` (or `=>`): the left value is greater than or equal to the right.
        case greaterThanOrEqualTo = 3
        /// `==` or `=`: equal, with no coercion between strings and numbers.
        case equalTo = 4
        /// `!=` (or `<>`): the two values are not equal.
        case notEqualTo = 5
        /// `MATCHES`: the whole string matches an ICU regular expression.
        case matches = 6
        /// `LIKE`: the whole string matches a pattern with `*` and `?` wildcards.
        case like = 7
        /// `BEGINSWITH`: the left string starts with the right one.
        case beginsWith = 8
        /// `ENDSWITH`: the left string ends with the right one.
        case endsWith = 9
        /// `IN`: the right side (a collection, a dictionary's values, or a string) contains
        /// the left.
        case `in` = 10
        /// A method of the left value called with the right one: needs the Objective-C
        /// runtime, so no predicate here has it.
        case customSelector = 11
        /// `CONTAINS`: the left side (a collection or a string) contains the right.
        case contains = 99
        /// `BETWEEN`: the left value lies within a two-element `{low, high}` on the right,
        /// both included.
        case between = 100
    }

    /// `[c]`, `[d]` and `[n]`.
    public struct Options: OptionSet, Hashable, Sendable {
        /// The option bits, with Core Data's numbers (`[c]` 1, `[d]` 2, `[n]` 4).
        public let rawValue: UInt
        /// Options from their bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// `[c]`: case-insensitive.
        public static let caseInsensitive = Options(rawValue: 1)
        /// `[d]`: diacritic-insensitive.
        public static let diacriticInsensitive = Options(rawValue: 2)
        /// `[n]`: both sides are already normalised; other options are ignored.
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
