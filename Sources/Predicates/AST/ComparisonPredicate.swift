import Foundation

/// A comparison of two expressions: `lhs op[options] rhs`, possibly qualified by
/// `ANY`, `ALL` or `NONE`.
///
/// ```swift
/// let c = ComparisonPredicate(.keyPath("name"), .like, .constant("J*"), options: .caseInsensitive)
/// ObjectPredicate.comparison(c).predicateFormat   // name LIKE[c] "J*"
/// ```
public struct ComparisonPredicate: Hashable {
    /// The left-hand expression; with a modifier, the collection ranged over.
    public var lhs: ObjectExpression
    /// The operator.
    public var op: ComparisonOperator
    /// The right-hand expression.
    public var rhs: ObjectExpression
    /// `ANY`, `ALL`, `NONE`, or none.
    public var modifier: ComparisonModifier
    /// `[c]`, `[d]`, `[n]`.
    public var options: ComparisonOptions

    /// A comparison; options and modifier default to none.
    public init(
        _ lhs: ObjectExpression,
        _ op: ComparisonOperator,
        _ rhs: ObjectExpression,
        modifier: ComparisonModifier = .direct,
        options: ComparisonOptions = []
    ) {
        self.lhs = lhs
        self.op = op
        self.rhs = rhs
        self.modifier = modifier
        self.options = options
    }
}

extension ComparisonPredicate: Sendable {}
