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
    public let driver: TerminalDriver
    public var theme: Theme
    /// Commands available everywhere (quit, help, palette, menus, pane switching, redraw).
    public var keyMap = KeyMap()
    /// The menu bar on the top row, if any.
    public var menuBar: MenuBar?
    /// The bar on the bottom row with key hints and messages.
    public let statusBar = StatusBar()
    public var showsStatusBar = true
    /// The smallest screen the layout works on; smaller shows a notice instead.
    public var minimumSize = Size(width: 20, height: 5)
    /// Decides what a caught signal does; by default the application quits.
    public var onSignal: ((TerminalSignal) -> EventResult)?
    /// Asked before quitting; return false to stay (for example to confirm unsaved changes).
    public var shouldQuit: (() -> Bool)?

    public private(set) var windows: [Window] = []
    public private(set) var isQuitting = false
    /// The active prompt line, if any.
    public private(set) var prompt: PromptLine?

    var timers: [TimerRecord] = []
    /// Work running on other threads, oldest first.
    var runningWork: [BackgroundWork] = []
    var nextWorkID = 0
    let mailbox = WorkMailbox()
    /// Work queued by a handler to run once the current event is done.
    var deferred: [() -> Void] = []
    private var nextTimerID = 1
    var needsDisplay = true
    private let screen: ScreenBuffer

    /// Whether the theme follows the terminal's colours (set when none was given).
    private let picksTheme: Bool

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

    /// Show a prompt line at the bottom for typed input (search, filter). Enter submits, Esc cancels.
    ///
    ///     app.beginPrompt("/") { text in table.search(text) }
    public func beginPrompt(_ label: String, text: String = "", onChange: ((String) -> Void)? = nil,
                            onCancel: (() -> Void)? = nil, onSubmit: @escaping (String) -> Void) {
        let line = PromptLine(label: label, text: text)
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

    // MARK: Commands

    /// The commands that apply now: those of the focused view and its ancestors, then the
    /// global ones (unless a modal window is on top). The help overlay and palette list these.
    public var liveCommands: [Command] { commands(reachableByKey: false) }

    /// The live commands as the hints and the help offer them: while an editor takes typed
    /// characters, `q` or `?` type themselves, so commands bound only to characters
    /// elsewhere are left out (the menu still runs them).
    public var offeredCommands: [Command] { commands(reachableByKey: true) }

    private func commands(reachableByKey: Bool) -> [Command] {
        var result: [Command] = []
        var seen = Set<String>()
        // A key is taken by the first command that binds it, the nearest view's: an open
        // editor's Tab stores the edit, so the window's Tab (next pane) is not offered.
        var taken = Set<Key>()
        let typing = reachableByKey && keyWindow?.focusedView?.capturesTyping == true
        func offer(_ command: Command, from view: View?) {
            guard !seen.contains(command.name) else { return }
            seen.insert(command.name)
            guard reachableByKey else { return result.append(command) }
            var reachable = command
            reachable.keys.removeAll { key in
                if taken.contains(key) { return true }
                if typing, view !== keyWindow?.focusedView, case .character = key { return true }
                return false
            }
            taken.formUnion(command.keys)
            if reachable.keys.isEmpty && !command.keys.isEmpty { return }
            result.append(reachable)
        }
        if let window = keyWindow {
            for view in window.responderChain {
                for command in view.commands { offer(command, from: view) }
            }
            if window.isModal { return result }
        }
        for command in keyMap.commands { offer(command, from: nil) }
        return result
    }

    /// Run a live command by name, as a key or menu would.
    @discardableResult
    public func perform(_ name: String) -> EventResult {
        guard let command = liveCommands.first(where: { $0.name == name }) else {
            showMessage("Not available here: \(name)", isError: true)
            return .needsRedraw
        }
        let result = command.action()
        apply(result, to: keyWindow)
        return result
    }

    // MARK: Events

    /// Send one event through the responder chain and act on the result.
    @discardableResult
    public func handle(_ event: Event) -> EventResult {
        var result: EventResult = .ignored
        switch event {
        case .signal, .inputClosed:
            // What a signal does (the ToDo app's save on hangup) is never interrupted.
            result = dispatch(event)
        default:
            interruptibleWork { result = dispatch(event) }
        }
        while !deferred.isEmpty {
            deferred.removeFirst()()
        }
        return result
    }

    private func dispatch(_ event: Event) -> EventResult {
        switch event {
        case let .key(key):
            if statusBar.message != nil { statusBar.message = nil; needsDisplay = true }
            return handleKey(key)
        case let .mouse(mouse):
            return handleMouse(mouse)
        case .resize:
            driver.invalidate()
            relayout()
            return .redraw
        case let .timer(id):
            return fireTimer(id)
        case let .signal(signal):
            let result = onSignal?(signal) ?? .quit
            if result.contains(.quit) { quitSignal = signal }
            apply(result, to: nil)
            return result
        case let .paste(text):
            return paste(text)
        case .inputClosed:
            // The terminal is gone, as after a hangup whose signal has not arrived (or never
            // will): the application gets its say, as for SIGHUP, then the loop ends.
            let result = onSignal?(.hangup) ?? .quit
            quitSignal = .hangup
            apply(result, to: nil)
            isQuitting = true
            return result.union(.handled)
        }
    }

    /// Pasted text goes into the prompt or the open editor, at once as one edit (a date or
    /// choice editor takes it key by key), with line breaks and tabs as spaces and other
    /// control characters dropped; with nowhere to type it, it is refused rather than run as
    /// keys (a `d` in it would delete).
    private func paste(_ text: String) -> EventResult {
        guard prompt != nil || keyWindow?.focusedView?.capturesTyping == true else {
            showMessage("Paste into a cell or field being edited (Enter edits it)", isError: true)
            return .redraw
        }
        var typed = ""
        for character in text {
            if character.isNewline || character == "\t" {
                typed.append(" ")
            } else if let scalar = character.unicodeScalars.first, scalar.value >= 0x20, scalar.value != 0x7F {
                typed.append(character)
            }
        }
        needsDisplay = true
        if let prompt { return prompt.insert(typed).union(.handled) }
        if let result = keyWindow?.focusedView?.insertPastedText(typed) { return result.union(.handled) }
        var result: EventResult = .handled
        for character in typed { result = result.union(handleKey(.character(character))) }
        return result
    }

    private func handleKey(_ key: Key) -> EventResult {
        // While the screen is too small to show the application, keys would act on what
        // cannot be seen: only the quit keys work.
        if !driver.size.contains(minimumSize), key != .control("q"), key != .control("c"), key != .function(10) {
            return .handled
        }
        if let prompt {
            let result = prompt.handleKey(key)
            if result.contains(.closeScreen) { self.prompt = nil }
            needsDisplay = true
            return result.union(.handled)
        }
        if let menuBar, menuBar.isOpen {
            let result = menuBar.handleKey(key)
            if let name = menuBar.takeChosenCommand() { perform(name) }
            needsDisplay = true
            return result
        }
        // Esc stops work in progress, unless an editor or a dialog takes it.
        if key == .escape, isWorking, keyWindow?.focusedView?.capturesTyping != true, keyWindow?.isModal != true,
           keyWindow?.isFloating != true {
            cancelWork()
            return .redraw
        }
        if let window = keyWindow {
            for view in window.responderChain {
                let result = view.handle(.key(key))
                if result.contains(.handled) {
                    apply(result, to: window)
                    return result
                }
                if let command = view.commands.first(where: { $0.keys.contains(key) }) {
                    let result = command.action()
                    apply(result, to: window)
                    return result.union(.handled)
                }
            }
            if window.isModal { return .ignored }
        }
        if let command = keyMap.command(for: key) {
            let result = command.action()
            apply(result, to: keyWindow)
            return result.union(.handled)
        }
        return .ignored
    }

    private func handleMouse(_ mouse: MouseEvent) -> EventResult {
        if let menuBar {
            if menuBar.isOpen || mouse.position.y == 0 {
                let result = menuBar.handleMouse(mouse)
                if let name = menuBar.takeChosenCommand() { perform(name) }
                if result.contains(.handled) { needsDisplay = true; return result }
            }
        }
        guard let index = windows.lastIndex(where: { !$0.isHidden && $0.frame.contains(mouse.position) }) else {
            return .ignored
        }
        let window = windows[index]
        if let top = windows.last, top.isModal, top !== window { return .ignored }
        if window !== windows.last, mouse.kind != .wheelUp, mouse.kind != .wheelDown {
            show(window)
        }
        let local = Point(x: mouse.position.x - window.frame.x, y: mouse.position.y - window.frame.y)
        var target = window.hitTest(local)
        if mouse.kind == .click || mouse.kind == .press || mouse.kind == .doubleClick {
            var candidate = target
            while let view = candidate, !view.canFocus { candidate = view.superview }
            if let view = candidate, view !== window { window.focusedView = view }
        }
        while let view = target {
            let origin = view.absoluteFrame.origin
            let event = MouseEvent(mouse.kind, at: Point(x: mouse.position.x - origin.x, y: mouse.position.y - origin.y))
            let result = view.handle(.mouse(event))
            if result.contains(.handled) {
                apply(result, to: window)
                return result
            }
            target = view.superview
        }
        setNeedsDisplay()
        return .needsRedraw
    }

    /// Act on what a handler returned: close its window, quit, redraw.
    func apply(_ result: EventResult, to window: Window?) {
        if result.contains(.needsRedraw) { needsDisplay = true }
        if result.contains(.closeScreen), let window { close(window) }
        if result.contains(.quit) { requestQuit() }
    }

    /// Stop the loop, unless `shouldQuit` says no.
    public func requestQuit() {
        if let shouldQuit, !shouldQuit() { return }
        isQuitting = true
    }

    // MARK: Layout and drawing

    /// The area between the menu bar and the status bar.
    public var contentArea: Rect {
        let size = driver.size
        let top = menuBar == nil ? 0 : 1
        let bottom = showsStatusBar ? 1 : 0
        return Rect(x: 0, y: top, width: size.width, height: max(0, size.height - top - bottom))
    }

    private func layoutWindow(_ window: Window) {
        let area = contentArea
        var frame = window.placement?(area) ?? area
        frame = frame.intersection(Rect(origin: .zero, size: driver.size))
        window.frame = frame
        window.layoutSubviews()
    }

    /// Place every window again for the current screen size.
    public func relayout() {
        for window in windows { layoutWindow(window) }
        needsDisplay = true
    }

    /// Draw the whole screen into a buffer.
    @discardableResult
    public func render() -> ScreenBuffer {
        let size = driver.size
        if screen.size != size { screen.resize(to: size) }
        screen.clear(style: theme.normal)
        let canvas = Canvas(screen, theme: theme)
        guard size.contains(minimumSize) else {
            drawTooSmall(in: canvas)
            return screen
        }
        for window in windows where !window.isHidden {
            if window.frame.size == .zero || window.frame.maxX > size.width || window.frame.maxY > size.height {
                layoutWindow(window)
            }
            window.draw(in: canvas.subcanvas(window.frame))
            // On top of the window's own views, under the windows above it (help, dialogs).
            screen.drawOverlays()
        }
        if let menuBar {
            menuBar.draw(in: canvas.subcanvas(Rect(x: 0, y: 0, width: size.width, height: 1)))
        }
        let bottom = Rect(x: 0, y: size.height - 1, width: size.width, height: 1)
        if let prompt {
            prompt.draw(in: canvas.subcanvas(bottom))
        } else if showsStatusBar {
            statusBar.hints = offeredCommands.filter(\.isHint)
            statusBar.activity = workActivity
            statusBar.draw(in: canvas.subcanvas(bottom))
        }
        if let menuBar, menuBar.isOpen {
            let live = liveCommands
            menuBar.keyLabel = { name in
                guard let keys = live.first(where: { $0.name == name })?.keys, !keys.isEmpty else { return nil }
                return keys.prefix(2).map(\.description).joined(separator: ", ")
            }
            menuBar.drawDropdown(in: canvas)
        }
        return screen
    }

    private func drawTooSmall(in canvas: Canvas) {
        // Only the quit keys work at this size: say which.
        let lines = ["Terminal too small", "\(canvas.size.width)×\(canvas.size.height), need \(minimumSize)", "Ctrl-Q quits"]
        for (i, line) in lines.enumerated() where i < canvas.size.height {
            let x = max(0, (canvas.size.width - line.displayWidth) / 2)
            canvas.write(line, x: x, y: max(0, canvas.size.height / 2 - 1) + i, style: theme.error)
        }
    }

    /// Draw and show the screen now.
    public func redraw() {
        var screen: ScreenBuffer?
        interruptibleWork { screen = render() }
        driver.draw(screen!)
        needsDisplay = false
    }

    /// Wraps the work that answers the user (handling a key, drawing a frame), so that a
    /// store query inside it can be stopped from another thread when a signal arrives (the
    /// driver's watchdog); a signal's own handling (the ToDo app's save on hangup) runs
    /// outside it. The applications set it to their coordinator's `interruptibly`.
    public var interruptibleWork: (() -> Void) -> Void = { $0() }

    /// The signal the application quit on (a hangup when the input ended), or nil: a
    /// program exits with 128 and the signal's number after one, as the shell expects.
    public private(set) var quitSignal: TerminalSignal?

    // MARK: Running

    /// Take over the terminal, run until quit, and give the terminal back.
    public func run() throws {
        try driver.start()
        defer { driver.stop() }
        if picksTheme { theme = driver.colorSupport == .monochrome ? .monochrome : .standard }
        relayout()
        runLoop { false }
        // Work still running is of no use once the application has gone.
        if isWorking { cancelWork() }
    }

    /// The most waiting characters typed between two frames.
    static let burstLimit = 256
    /// An event read while gathering typed text that is not typing: handled next pass.
    private var pending: Event?

    private static func isTyping(_ event: Event) -> Bool {
        if case .key(.character) = event { return true }
        return false
    }

    /// Process events until `condition` holds or the application quits; the driver must be started.
    public func runLoop(until condition: () -> Bool) {
        while !isQuitting, pending != nil || !condition() {
            fireDueTimers()
            deliverFinishedWork()
            if isQuitting { break }
            // While work runs, its time in the status bar moves on.
            if isWorking { needsDisplay = true }
            if needsDisplay { redraw() }
            var timeout = nextTimerDeadline.map { max(0, $0 - driver.clock.now) }
            // Results of work are looked for between keys, at least every 50 ms.
            if isWorking { timeout = min(timeout ?? 0.05, 0.05) }
            let next = pending ?? driver.nextEvent(timeout: timeout)
            pending = nil
            guard let event = next else { continue }
            handle(event)
            // Text already waiting for an open editor (a paste) is typed before the next
            // frame: one draw per burst rather than per character. Only typing is gathered,
            // since other keys may act on what the last frame laid out: the first other
            // event waits for the next pass, after a redraw. The bound keeps a long paste
            // visible as it goes.
            var burst = 0
            while burst < Self.burstLimit, !isQuitting, Self.isTyping(event), keyWindow?.focusedView?.capturesTyping == true,
                  let more = driver.nextEvent(timeout: 0) {
                guard Self.isTyping(more) else {
                    pending = more
                    break
                }
                handle(more)
                burst += 1
            }
        }
        fireDueTimers()
        if needsDisplay, !isQuitting { redraw() }
    }

    /// Play keys in script notation (`"jj<Enter>"`) through a `MemoryDriver` and return the
    /// screen: by default once the work the keys began has ended and its results are shown;
    /// with `waitingForWork: false` as soon as the keys are handled, the work still running.
    @discardableResult
    public func runScript(_ script: String, waitingForWork: Bool = true) -> [String] {
        guard let memory = driver as? MemoryDriver else {
            preconditionFailure("runScript needs a MemoryDriver, not \(type(of: driver))")
        }
        memory.type(script)
        if windows.contains(where: { $0.frame.size == .zero }) { relayout() }
        runLoop { memory.isIdle }
        if waitingForWork, isWorking {
            waitForWork()
            runLoop { memory.isIdle }
        }
        return memory.screenLines
    }

    private func installStandardCommands() {
        keyMap.add(Command("app.quit", title: "Quit", keys: [.character("q"), .control("q")], hint: "Quit") { [weak self] in
            self?.requestQuit()
            return .handled
        })
        keyMap.add(Command(StatusBar.helpCommandName, title: "Help: list keys", keys: [.character("?"), .function(1)], hint: "Help") { [weak self] in
            self?.showHelp()
            return .redraw
        })
        keyMap.add(Command("app.palette", title: "Command palette", keys: [.character(":"), .control("p")]) { [weak self] in
            self?.showCommandPalette()
            return .redraw
        })
        keyMap.add(Command("app.menu", title: "Open the menu bar", keys: [.function(9), .function(10)], hint: "Menu") { [weak self] in
            guard let self, let menuBar = self.menuBar else { return .ignored }
            menuBar.open(0)
            return .redraw
        })
        keyMap.add(Command("app.nextPane", title: "Next pane", keys: [.tab]) { [weak self] in
            self?.keyWindow?.focusNext(forward: true)
            return .redraw
        })
        keyMap.add(Command("app.previousPane", title: "Previous pane", keys: [.backTab]) { [weak self] in
            self?.keyWindow?.focusNext(forward: false)
            return .redraw
        })
        keyMap.add(Command("app.suspend", title: "Suspend to the shell (fg returns)", keys: [.control("z")]) { [weak self] in
            self?.driver.suspend()
            self?.driver.invalidate()
            return .redraw
        })
        keyMap.add(Command("app.redraw", title: "Redraw the screen", keys: [.control("l")]) { [weak self] in
            self?.driver.invalidate()
            return .redraw
        })
    }
}
