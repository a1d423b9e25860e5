/// Why the browser cannot open.
public enum BrowserError: Error, Equatable, Sendable, CustomStringConvertible {
    /// There is nothing to browse: the model has no entities.
    case modelHasNoEntities

    public var description: String {
        switch self {
        case .modelHasNoEntities: return "the model has no entities"
        }
    }
}
