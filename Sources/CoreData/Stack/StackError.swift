/// A failure of Core Data's API itself rather than of a store or the model: a container
/// whose model cannot be found, a context used before it was given a coordinator.
public struct StackError: Error, CustomStringConvertible, Sendable {
    public let description: String
}
