import Foundation

/// Where the event loop reads the time, in seconds; injectable so timer tests do not sleep.
public protocol TimeSource: AnyObject {
    /// The current time, in seconds from a fixed but arbitrary moment: only differences between
    /// readings mean anything.
    var now: Double { get }
}

/// The system's monotonic clock.
public final class SystemClock: TimeSource {
    /// A clock reading the system's monotonic uptime.
    public init() {}
    /// Seconds since the system started (`ProcessInfo.systemUptime`), which changes to the wall
    /// clock do not move.
    public var now: Double { ProcessInfo.processInfo.systemUptime }
}

/// A clock that only moves when told to.
///
///     let clock = VirtualClock()
///     clock.advance(by: 300)   // five minutes pass at once
public final class VirtualClock: TimeSource {
    /// The clock's time in seconds; it changes only through `advance(by:)`.
    public private(set) var now: Double

    /// A clock standing at `now` seconds.
    public init(now: Double = 0) { self.now = now }

    /// Move the clock forward by `seconds` at once; a negative amount is a programming error and traps.
    public func advance(by seconds: Double) {
        precondition(seconds >= 0, "a clock cannot go back (\(seconds) s)")
        now += seconds
    }
}
