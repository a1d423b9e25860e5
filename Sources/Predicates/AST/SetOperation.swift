import Foundation

/// The set operators between collections.
public enum SetOperation: String, Hashable, Sendable {
    /// `UNION`
    case union = "UNION"
    /// `INTERSECT`
    case intersect = "INTERSECT"
    /// `MINUS`
    case minus = "MINUS"
}
