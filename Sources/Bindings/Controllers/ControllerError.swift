import Foundation

/// What a controller was asked that it cannot do now.
///
/// ```swift
/// do { try controller.add() } catch ControllerError.notEditable { ... }
/// ```
public enum ControllerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Lazy fetching reads a detail's objects through the detail's to-one inverse, and
    /// `entity.key` has none.
    case lazyFetchingNeedsToOneInverse(entity: String, key: String)
    /// Adding needs an entity and, for a detail, a master object.
    case cannotAdd
    /// The controller's `isEditable` is off.
    case notEditable
    /// The action works on the selection, and nothing is selected.
    case nothingSelected
    /// Sections follow the first sort key, which must be the section key path.
    case firstSortMustBeSectionKey(String)

    public var description: String {
        switch self {
        case .lazyFetchingNeedsToOneInverse(let entity, let key): return "lazy fetching of \(entity).\(key) needs a to-one inverse"
        case .cannotAdd: return "this controller cannot add objects now"
        case .notEditable: return "this controller is not editable"
        case .nothingSelected: return "nothing is selected"
        case .firstSortMustBeSectionKey(let key): return "the first sort descriptor must sort by the section key path '\(key)'"
        }
    }
}
