import Foundation

/// Where the event loop reads the time, in seconds; injectable so timer tests do not sleep.
public protocol TimeSource: AnyObject {
    var now: Double { get }
}

/// The system's monotonic clock.
public final class SystemClock: TimeSource {
    public init() {}
    public var now: Double { ProcessInfo.processInfo.systemUptime }
}

/// A clock that only moves when told to.
///
///     let clock = VirtualClock()
///     clock.advance(by: 300)   // five minutes pass at once
public final class VirtualClock: TimeSource {
    public private(set) var now: Double

    public init(now: Double = 0) { self.now = now }

    public func advance(by seconds: Double) {
        precondition(seconds >= 0, "a clock cannot go back (\(seconds) s)")
        now += seconds
    }
}
