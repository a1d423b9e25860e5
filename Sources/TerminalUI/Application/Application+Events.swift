extension Application {
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
}
