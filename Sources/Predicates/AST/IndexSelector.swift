import Foundation

/// What an index expression selects: `[expr]`, `[FIRST]`, `[LAST]` or `[SIZE]`.
public indirect enum IndexSelector: Hashable, Sendable {
    /// `[n]` on an array, `["key"]` on a dictionary.
    case expression(ObjectExpression)
    /// `[FIRST]`: the first element.
    case first
    /// `[LAST]`: the last element.
    case last
    /// `[SIZE]`: the number of elements.
    case size
}
