import Foundation

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
    /// Put text on the user's clipboard through the terminal: OSC 52, which reaches the
    /// clipboard of the machine the terminal runs on, over SSH too (tmux passes it on with its
    /// `set-clipboard` option). Whether the terminal takes it cannot be known.
    func copyToClipboard(_ text: String)
}

extension TerminalDriver {
    /// A driver with no terminal to give back runs `body` as it is.
    public func runOutside(_ body: () -> Void) { body() }

    /// A driver without a terminal has no clipboard.
    public func copyToClipboard(_ text: String) {}

    /// The OSC 52 sequence that sets the clipboard to `text`: its UTF-8 bytes in base 64,
    /// ended by BEL (which more terminals take than ST).
    public static func clipboardSequence(_ text: String) -> String {
        "\u{1B}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{07}"
    }
}
