/// Identifies a timer scheduled on an application, for cancelling it.
public struct TimerID: Hashable, Sendable {
    public let rawValue: Int
}
