/// What handling an event did, so callers know whether to stop passing it on and redraw.
///
///     return [.handled, .needsRedraw]
public struct EventResult: OptionSet, Sendable, Hashable {
    /// The options as bits.
    public let rawValue: Int
    /// The options whose bits are set in `rawValue`.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Someone acted on the event; the responder chain stops.
    public static let handled = EventResult(rawValue: 1 << 0)
    /// The screen should be drawn again.
    public static let needsRedraw = EventResult(rawValue: 1 << 1)
    /// The topmost window (dialog, overlay, panel) should close.
    public static let closeScreen = EventResult(rawValue: 1 << 2)
    /// The application should stop its loop.
    public static let quit = EventResult(rawValue: 1 << 3)

    /// Nobody took the event.
    public static let ignored: EventResult = []
    /// Handled and the screen should be redrawn.
    public static let redraw: EventResult = [.handled, .needsRedraw]
}
