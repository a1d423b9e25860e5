import Foundation
import TerminalUI
@preconcurrency import CNcursesw

/// The driver for a real terminal through ncursesw.
///
/// `start` sets the locale, opens the terminal (failing with `TerminalError.noTerminal` when
/// standard input or output is not a terminal or `TERM` is unset or unknown), sets a 25 ms ESC
/// delay, picks colours (256, 8, or none when `NO_COLOR` is set) and enables the mouse.
/// SIGINT, SIGTERM and SIGHUP become `.signal` events; the terminal is restored by `stop`, at
/// exit and on fatal signals; ncurses restores and redraws around Ctrl-Z.
///
///     let app = Application(driver: CursesDriver())
///     do { try app.run() } catch { print("termdata: \(error)"); exit(1) }
public final class CursesDriver: TerminalDriver {
    /// The colours the terminal shows, found at `start()`: 256, 8, or none (also with `NO_COLOR`).
    public private(set) var colorSupport: ColorSupport = .monochrome
    /// The system's clock.
    public let clock: TimeSource = SystemClock()
    /// Whether mouse clicks and the wheel are reported (this turns off the terminal's own selection).
    public var mouseEnabled: Bool

    private(set) var isActive = false
    var previousFrame: ScreenBuffer?
    var colorPairs: [ColorPairKey: Int16] = [:]
    var quickErrors = 0
    var lastClick: (point: Point, time: Double)?

    /// Called on a thread of its own, every 50 ms while a signal waits for the event loop:
    /// a loop stuck in a long store query does not read signals, so this stops the query
    /// (the applications pass their coordinator's `interruptWork`). Set before `start`.
    public var onPendingSignal: (@Sendable () -> Void)?
    private var watchdog: SignalWatchdog?
    /// Called on a thread of its own when Esc is pressed while the event loop has been busy
    /// with one event for a while: the applications stop their store query (their
    /// coordinator's `interruptWork`), returning whether one ran. Set before `start`.
    public var onEscapeWhileBusy: (@Sendable () -> Bool)?
    var escapeWatch: EscapeWatch?

    /// A driver for the terminal the process runs in, taken over at `start()`.
    ///
    /// With `mouse` false, clicks and the wheel are left to the terminal, whose own text selection then works.
    public init(mouse: Bool = true) {
        self.mouseEnabled = mouse
    }

    /// The terminal's size in cells; 80×24 while the driver is not started.
    public var size: Size {
        guard isActive, let screen = shim_stdscr() else { return Size(width: 80, height: 24) }
        return Size(width: Int(getmaxx(screen)), height: Int(getmaxy(screen)))
    }

    /// Check that there is a terminal to run on, without touching it.
    public static func checkTerminal(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard let term = environment["TERM"], !term.isEmpty else {
            throw TerminalError.noTerminal("TERM is not set")
        }
        guard isatty(STDIN_FILENO) == 1 else { throw TerminalError.noTerminal("standard input is not a terminal") }
        guard isatty(STDOUT_FILENO) == 1 else { throw TerminalError.noTerminal("standard output is not a terminal") }
    }

    /// Takes over the terminal through ncurses, as the type's description says; does nothing
    /// when already started.
    public func start() throws {
        guard !isActive else { return }
        let environment = ProcessInfo.processInfo.environment
        try Self.checkTerminal(environment: environment)
        setlocale(LC_ALL, "")
        if environment["ESCDELAY"] == nil { setenv("ESCDELAY", "25", 1) }
        guard let terminal = shim_newterm() else {
            throw TerminalError.noTerminal("unknown terminal type “\(environment["TERM"] ?? "")”")
        }
        guard shim_can_address_cursor() != 0 else {
            endwin()
            delscreen(terminal)
            throw TerminalError.noTerminal("the terminal type “\(environment["TERM"] ?? "")” cannot place the cursor; set TERM to your terminal's type, such as xterm-256color")
        }
        isActive = true
        let screen = shim_stdscr()
        cbreak()
        noecho()
        nonl()
        keypad(screen, true)
        intrflush(screen, false)
        Self.disableFlowControl()
        meta(screen, true)
        set_escdelay(25)
        curs_set(0)
        colorSupport = .monochrome
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        if !noColor, has_colors() {
            start_color()
            use_default_colors()
            colorSupport = shim_colors() >= 256 ? .palette256 : .basic
        }
        if mouseEnabled {
            mousemask(shim_mouse_events(), nil)
            mouseinterval(0)
        }
        colorPairs = [:]
        previousFrame = nil
        SignalTrap.install()
        Self.setBracketedPaste(true)
        if let onPendingSignal { watchdog = SignalWatchdog(onPendingSignal) }
        if let onEscapeWhileBusy { escapeWatch = EscapeWatch(onEscape: onEscapeWhileBusy) }
    }

    /// Asks the terminal to mark pasted text (`ESC [200~` … `ESC [201~`), so that a paste is
    /// typed into the editor and never run as keys; terminals that do not know it ignore it.
    static func setBracketedPaste(_ on: Bool) {
        fputs(on ? "\u{1B}[?2004h" : "\u{1B}[?2004l", stdout)
        fflush(stdout)
    }

    /// Turns off XON/XOFF flow control, which `cbreak` leaves on, so that Ctrl-S (save) and
    /// Ctrl-Q reach the program instead of stopping and resuming the terminal's output;
    /// the signal keys (Ctrl-C, Ctrl-Z) stay. ncurses is told the mode is its own, so that
    /// it comes back after a suspend; `endwin` restores the shell's.
    private static func disableFlowControl() {
        var modes = termios()
        guard tcgetattr(STDIN_FILENO, &modes) == 0 else { return }
        modes.c_iflag &= ~tcflag_t(IXON | IXOFF)
        guard tcsetattr(STDIN_FILENO, TCSANOW, &modes) == 0 else { return }
        def_prog_mode()
    }

    /// Gives the terminal back: mouse reporting and bracketed paste off, the cursor shown,
    /// ncurses ended and the signal handlers removed.
    public func stop() {
        guard isActive else { return }
        if mouseEnabled { mousemask(0, nil) }
        curs_set(1)
        Self.setBracketedPaste(false)
        watchdog?.stop()
        watchdog = nil
        escapeWatch?.stop()
        escapeWatch = nil
        endwin()
        SignalTrap.remove()
        isActive = false
        previousFrame = nil
    }

    /// Forgets the last frame and has ncurses clear the screen, so the next frame writes every cell.
    public func invalidate() {
        previousFrame = nil
        if isActive { clearok(shim_stdscr(), true) }
    }

    /// Rings the terminal's bell (ncurses `beep`).
    public func bell() { if isActive { beep() } }

    /// Writes the OSC 52 sequence that puts the text on the terminal's clipboard.
    public func copyToClipboard(_ text: String) {
        guard isActive else { return }
        fputs(Self.clipboardSequence(text), stdout)
        fflush(stdout)
    }
    /// Flashes the screen (ncurses `flash`, which rings the bell where it cannot).
    public func flash() { if isActive { CNcursesw.flash() } }

    /// Leaves ncurses while `body` runs on the terminal, then takes it back and draws every cell.
    public func runOutside(_ body: () -> Void) {
        guard isActive else { return body() }
        if mouseEnabled { mousemask(0, nil) }
        Self.setBracketedPaste(false)
        curs_set(1)
        endwin()
        body()
        // Back: ncurses restores its modes on the next refresh; every cell is drawn again.
        if mouseEnabled { mousemask(shim_mouse_events(), nil) }
        curs_set(0)
        invalidate()
        wrefresh(shim_stdscr())
        Self.setBracketedPaste(true)
    }

    /// Leaves ncurses and stops the process (`SIGTSTP`); once resumed, draws every cell again.
    public func suspend() {
        guard isActive else { return }
        Self.setBracketedPaste(false)
        endwin()
        raise(SIGTSTP)
        // Resumed: ncurses restores its modes on the next refresh.
        invalidate()
        wrefresh(shim_stdscr())
        Self.setBracketedPaste(true)
    }
}
