import Foundation

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
