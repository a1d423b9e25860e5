extension Application {
    // MARK: Layout and drawing

    /// The area between the menu bar and the status bar.
    public var contentArea: Rect {
        let size = driver.size
        let top = menuBar == nil ? 0 : 1
        let bottom = showsStatusBar ? 1 : 0
        return Rect(x: 0, y: top, width: size.width, height: max(0, size.height - top - bottom))
    }

    func layoutWindow(_ window: Window) {
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
}
