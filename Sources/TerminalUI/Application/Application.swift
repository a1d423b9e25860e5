/// Owns the driver, the stack of windows, focus, timers and the global key map, and runs
/// the event loop.
///
///     let app = Application(driver: CursesDriver())
///     let main = Window(title: "Tasks")
///     main.addSubview(table)
///     app.show(main)
///     try app.run()
///
/// In tests, `runScript` plays keys through the same responder chain without a terminal:
///
///     let app = Application(driver: MemoryDriver(size: Size(width: 40, height: 10)))
///     app.runScript("jj<Enter>")
public final class Application {
    /// The driver that shows the frames and reads the events: a terminal's, or a `MemoryDriver` in tests.
    public let driver: TerminalDriver
    /// The styles every view is drawn in; when none was given (nor set before `run()`), `run()`
    /// picks `Theme.standard` or `Theme.monochrome` to suit the terminal.
    public var theme: Theme {
        // A theme set by the program is the one it keeps.
        didSet { picksTheme = false }
    }
    /// Commands available everywhere (quit, help, palette, menus, pane switching, redraw).
    public var keyMap = KeyMap()
    /// The menu bar on the top row, if any.
    public var menuBar: MenuBar?
    /// The bar on the bottom row with key hints and messages.
    public let statusBar = StatusBar()
    /// Whether the bottom row shows the status bar; when false, the windows get that row too (an
    /// open prompt line still takes it).
    public var showsStatusBar = true
    /// The smallest screen the layout works on; smaller shows a notice instead.
    public var minimumSize = Size(width: 20, height: 5)
    /// Decides what a caught signal does; by default the application quits.
    public var onSignal: ((TerminalSignal) -> EventResult)?
    /// Asked before quitting; return false to stay (for example to confirm unsaved changes).
    public var shouldQuit: (() -> Bool)?

    /// The windows shown, bottom first; the last one is the key window.
    public private(set) var windows: [Window] = []
    /// Whether the application is quitting: set once a quit is accepted (`requestQuit()`) or the
    /// input ends, and the event loop then stops.
    public internal(set) var isQuitting = false
    /// The active prompt line, if any.
    public internal(set) var prompt: PromptLine?

    var timers: [TimerRecord] = []
    /// Work running on other threads, oldest first.
    var runningWork: [BackgroundWork] = []
    var nextWorkID = 0
    let mailbox = WorkMailbox()
    /// Work queued by a handler to run once the current event is done.
    var deferred: [() -> Void] = []
    /// The number the next scheduled timer gets.
    var nextTimerID = 1
    var needsDisplay = true
    let screen: ScreenBuffer

    /// Whether the theme follows the terminal's colours (when none was given or set).
    var picksTheme: Bool

    /// Wraps the work that answers the user (handling a key, drawing a frame), so that a
    /// store query inside it can be stopped from another thread when a signal arrives (the
    /// driver's watchdog); a signal's own handling (the ToDo app's save on hangup) runs
    /// outside it. The applications set it to their coordinator's `interruptibly`.
    public var interruptibleWork: (() -> Void) -> Void = { $0() }

    /// The signal the application quit on (a hangup when the input ended), or nil: a
    /// program exits with 128 and the signal's number after one, as the shell expects.
    public internal(set) var quitSignal: TerminalSignal?

    /// An event read while gathering typed text that is not typing: handled next pass.
    var pending: Event?

    /// An application on a driver; without a theme it picks `Theme.standard` or, on a
    /// monochrome terminal, `Theme.monochrome` once the driver has started.
    public init(driver: TerminalDriver, theme: Theme? = nil) {
        self.driver = driver
        self.picksTheme = theme == nil
        self.theme = theme ?? (driver.colorSupport == .monochrome ? .monochrome : .standard)
        self.screen = ScreenBuffer(size: driver.size)
        installStandardCommands()
    }

    // MARK: Windows

    /// The window that gets keys: the topmost one.
    public var keyWindow: Window? { windows.last }

    /// Show a window on top of the others and give it the keys.
    public func show(_ window: Window) {
        windows.removeAll { $0 === window }
        windows.append(window)
        window.application = self
        if window.focusedView == nil { window.focusNext() }
        updateKeyWindow()
        layoutWindow(window)
        setNeedsDisplay()
    }

    /// Close a window; the one below gets the keys.
    public func close(_ window: Window) {
        guard windows.contains(where: { $0 === window }) else { return }
        windows.removeAll { $0 === window }
        updateKeyWindow()
        setNeedsDisplay()
        window.onClose?()
    }

    private func updateKeyWindow() {
        for window in windows { window.isKey = false }
        windows.last?.isKey = true
    }

    /// Ask for a full redraw at the next turn of the loop.
    public func setNeedsDisplay() { needsDisplay = true }

    // MARK: Prompt

    /// Show a prompt line at the bottom for typed input (search, filter). Enter submits, Esc
    /// cancels, ↑ and ↓ walk `history` (oldest first).
    ///
    ///     app.beginPrompt("/") { text in table.search(text) }
    public func beginPrompt(_ label: String, text: String = "", history: [String] = [],
                            complete: ((String) -> PromptCompletion?)? = nil, onChange: ((String) -> Void)? = nil,
                            onCancel: (() -> Void)? = nil, onSubmit: @escaping (String) -> Void) {
        let line = PromptLine(label: label, text: text)
        line.history = history
        line.complete = complete
        line.onChange = onChange
        line.onSubmit = onSubmit
        line.onCancel = onCancel
        prompt = line
        setNeedsDisplay()
    }

    // MARK: Messages

    /// Show a message in the status bar until the next key.
    public func showMessage(_ text: String, isError: Bool = false) {
        statusBar.message = text
        statusBar.messageIsError = isError
        setNeedsDisplay()
    }
}
