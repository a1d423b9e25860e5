/// Identifies a timer scheduled on an application, for cancelling it.
public struct TimerID: Hashable, Sendable {
    /// The timer's number, given by the application when the timer is scheduled.
    public let rawValue: Int
}
