/// The only thing that talks to a terminal: shows frames and reads events.
///
/// `CursesDriver` (in TerminalUICurses) drives a real terminal; `MemoryDriver` keeps frames in
/// memory and plays a script of events for tests.
public protocol TerminalDriver: AnyObject {
    /// The terminal's current size in cells.
    var size: Size { get }
    /// What the terminal can show in colour.
    var colorSupport: ColorSupport { get }
    /// The clock the event loop uses for timers.
    var clock: TimeSource { get }

    /// Take over the terminal. Throws `TerminalError` when there is none.
    func start() throws
    /// Give the terminal back as it was.
    func stop()
    /// Show a frame, writing only what changed since the last one.
    func draw(_ screen: ScreenBuffer)
    /// Forget what is on screen so the next `draw` writes every cell (Ctrl-L).
    func invalidate()
    /// The next event, or nil when `timeout` seconds pass first; nil timeout waits for ever.
    func nextEvent(timeout: Double?) -> Event?
    /// Ring the bell.
    func bell()
    /// Flash the screen, or ring the bell where that is impossible.
    func flash()
    /// Give the terminal back and stop the process (Ctrl-Z); returns after it resumes.
    func suspend()
    /// Give the terminal back while `body` runs (another program on it: an editor), then
    /// take it again and draw the whole screen.
    func runOutside(_ body: () -> Void)
}

extension TerminalDriver {
    /// A driver with no terminal to give back runs `body` as it is.
    public func runOutside(_ body: () -> Void) { body() }
}
