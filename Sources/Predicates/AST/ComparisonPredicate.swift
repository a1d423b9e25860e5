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

extension ComparisonPredicate: @unchecked Sendable {}

/// How a comparison treats a collection on its left: `ANY`/`SOME`, `ALL`, `NONE`.
///
/// ```swift
/// try ObjectPredicate(format: "ALL scores > 3").evaluate(with: ["scores": [4, 5]])  // true
/// ```
public enum ComparisonModifier: String, Hashable, Sendable, CaseIterable {
    /// No qualifier: the left value is compared as it is.
    case direct = ""
    /// `ANY` (or `SOME`): some element matches.
    case any = "ANY"
    /// `ALL`: every element matches (an empty collection matches).
    case all = "ALL"
    /// `NONE`: no element matches; the same as `NOT (ANY ...)`.
    case none = "NONE"
}

/// String comparison options: the `[c]`, `[d]` and `[n]` after an operator.
///
/// ```swift
/// let o: ComparisonOptions = [.caseInsensitive, .diacriticInsensitive]
/// o.formatSuffix   // "[cd]"
/// ```
public struct ComparisonOptions: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `[c]`: case-insensitive.
    public static let caseInsensitive = ComparisonOptions(rawValue: 0x01)
    /// `[d]`: diacritic-insensitive.
    public static let diacriticInsensitive = ComparisonOptions(rawValue: 0x02)
    /// `[n]`: both sides are already normalised; other options are ignored.
    public static let normalized = ComparisonOptions(rawValue: 0x04)

    /// The option letters in brackets as the format language writes them, or `""`.
    public var formatSuffix: String {
        var letters = ""
        if contains(.caseInsensitive) { letters += "c" }
        if contains(.diacriticInsensitive) { letters += "d" }
        if contains(.normalized) { letters += "n" }
        return letters.isEmpty ? "" : "[\(letters)]"
    }
}
