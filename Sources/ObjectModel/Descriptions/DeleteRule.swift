/// What happens to a relationship's destinations when its source object is deleted.
///
/// ```swift
/// DeleteRule(xcodeName: "No Action")   // .noAction
/// ```
public enum DeleteRule: String, CaseIterable, Sendable, Hashable, Codable {
    /// Remove the deleted object from each destination's inverse; the destinations survive.
    case nullify = "Nullify"
    /// Delete the destinations too, applying their own rules in turn.
    case cascade = "Cascade"
    /// Refuse the deletion at save while the relationship is not empty.
    case deny = "Deny"
    /// Do nothing; the destinations keep a reference to a deleted object.
    case noAction = "No Action"

    /// The rule named by a `deletionRule` value in a model file, or `nil` if unknown.
    public init?(xcodeName: String) { self.init(rawValue: xcodeName) }

    /// The spelling used in model files.
    public var xcodeName: String { rawValue }
}
