import Foundation

/// The operator of a comparison predicate.
///
/// Raw values are the canonical spelling `predicateFormat` prints; the parser also
/// accepts the synonyms `=`, `<>`, `=<` and `=>`.
///
/// ```swift
/// ComparisonOperator(rawValue: "BEGINSWITH")   // .beginsWith
/// ```
public enum ComparisonOperator: String, Hashable, Sendable, CaseIterable {
    /// `<`
    case lessThan = "<"
    /// `<=` or `=<`
    case lessThanOrEqualTo = "<="
    /// `>`
    case greaterThan = ">"
    /// `>=` or `=>`
    case greaterThanOrEqualTo = ">="
    /// `==` or `=`: `isEqual:`, no coercion between strings and numbers.
    case equalTo = "=="
    /// `!=` or `<>`
    case notEqualTo = "!="
    /// `MATCHES`: the whole string matches an ICU regular expression.
    case matches = "MATCHES"
    /// `LIKE`: the whole string matches a pattern with `*` and `?` wildcards.
    case like = "LIKE"
    /// `BEGINSWITH`
    case beginsWith = "BEGINSWITH"
    /// `ENDSWITH`
    case endsWith = "ENDSWITH"
    /// `IN`: the right side (collection, dictionary values, or string) contains the left.
    case `in` = "IN"
    /// `CONTAINS`: the left side (collection or string) contains the right.
    case contains = "CONTAINS"
    /// `BETWEEN`: the right side is a two-element collection `{low, high}`, inclusive.
    case between = "BETWEEN"

    /// Whether the operator is written as a word (and so may take `[cd]` options).
    public var isWord: Bool {
        rawValue.first!.isLetter
    }
}
