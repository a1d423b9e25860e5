extension Application {
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
}
