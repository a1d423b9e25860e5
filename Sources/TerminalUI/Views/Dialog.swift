/// A modal window with a message and a row of buttons.
///
/// ←/→ or Tab choose a button, Enter presses it, Esc cancels (reported as nil).
///
///     let dialog = Dialog(title: "Quit", message: "Discard 3 unsaved changes?", buttons: ["Discard", "Cancel"])
///     dialog.onChoice = { index in if index == 0 { app.requestQuit() } }
///     app.show(dialog)
public final class Dialog: Window {
    /// The text, wrapped to the dialog's width; its line breaks and each line's indentation are kept.
    public var message: String
    /// The button titles, left to right; `onChoice` receives their indices.
    public var buttons: [String]
    /// The index of the highlighted button, which Enter presses.
    public private(set) var selectedButton: Int
    /// Called with the pressed button's index, or nil for Esc.
    public var onChoice: ((Int?) -> Void)?

    /// A dialog titled `title` showing `message`, with `defaultButton` highlighted at first.
    ///
    /// - Precondition: `buttons` is not empty.
    public init(title: String, message: String, buttons: [String] = ["OK"], defaultButton: Int = 0) {
        precondition(!buttons.isEmpty, "a dialog needs at least one button")
        self.message = message
        self.buttons = buttons
        self.selectedButton = min(defaultButton, buttons.count - 1)
        super.init(title: title, border: true, floating: true, modal: true)
        placement = { [unowned self] area in area.centered(self.preferredSize(in: area)) }
    }

    /// An alert: a message with one OK button.
    public static func alert(title: String, message: String) -> Dialog {
        Dialog(title: title, message: message, buttons: ["OK"])
    }

    private var buttonRowWidth: Int { buttons.reduce(0) { $0 + $1.displayWidth + 4 } + 2 * (buttons.count - 1) }

    private func wrappedLines(width: Int) -> [String] {
        var lines: [String] = []
        for paragraph in message.split(separator: "\n", omittingEmptySubsequences: false) {
            // A line's indentation is kept (a caret under an error's column must stay there).
            let indent = String(paragraph.prefix { $0 == " " })
            var line = indent
            for word in paragraph.split(separator: " ") {
                let candidate = line == indent ? line + word : line + " " + word
                if candidate.displayWidth > width, line != indent {
                    lines.append(line)
                    line = String(word)
                } else {
                    line = candidate
                }
            }
            lines.append(line)
        }
        return lines
    }

    func preferredSize(in area: Rect) -> Size {
        let maxText = max(10, min(60, area.width - 6))
        let lines = wrappedLines(width: maxText)
        let textWidth = lines.map(\.displayWidth).max() ?? 0
        // The title and the close marker both fit on the top edge: "┌─ Title ─[x]─┐".
        let width = min(area.width, max(textWidth + 4, buttonRowWidth + 4, title.displayWidth + 10))
        return Size(width: width, height: lines.count + 4)
    }

    private func buttonColumns(width: Int) -> [Int] {
        var x = max(1, (width - buttonRowWidth) / 2)
        return buttons.map { title in
            defer { x += title.displayWidth + 6 }
            return x
        }
    }

    /// Draws the frame, the wrapped message and the row of buttons, the highlighted one in brackets.
    public override func draw(in canvas: Canvas) {
        super.draw(in: canvas)
        let theme = canvas.theme
        let lines = wrappedLines(width: max(1, canvas.size.width - 4))
        for (i, line) in lines.enumerated() where i + 1 < canvas.size.height - 2 {
            canvas.write(line, x: 2, y: 1 + i, style: theme.normal, maxWidth: canvas.size.width - 4)
        }
        let y = canvas.size.height - 2
        for (i, x) in buttonColumns(width: canvas.size.width).enumerated() {
            let style = i == selectedButton ? theme.focusedButton : theme.button
            let label = i == selectedButton ? "[ \(buttons[i]) ]" : "  \(buttons[i])  "
            canvas.write(label, x: x, y: y, style: style)
        }
    }

    /// Enter or Space presses the highlighted button, Esc closes without choosing, Tab, → or
    /// `l` and Shift-Tab, ← or `h` move the highlight.
    public override var commands: [Command] {
        [
            Command("dialog.choose", title: "Press the highlighted button", keys: [.enter, .character(" ")], hint: "Choose") { [weak self] in
                guard let self else { return .ignored }
                self.onChoice?(self.selectedButton)
                return [.handled, .needsRedraw, .closeScreen]
            },
            Command("dialog.cancel", title: "Close without choosing", keys: [.escape], hint: "Cancel") { [weak self] in
                self?.onChoice?(nil)
                return [.handled, .needsRedraw, .closeScreen]
            },
            Command("dialog.next", title: "Next button", keys: [.tab, .right, .character("l")]) { [weak self] in
                guard let self else { return .ignored }
                self.selectedButton = (self.selectedButton + 1) % self.buttons.count
                return .redraw
            },
            Command("dialog.previous", title: "Previous button", keys: [.backTab, .left, .character("h")]) { [weak self] in
                guard let self else { return .ignored }
                self.selectedButton = (self.selectedButton - 1 + self.buttons.count) % self.buttons.count
                return .redraw
            },
        ]
    }

    /// A click on a button presses it and closes the dialog; the commands' keys are left to
    /// them, and other keys and clicks go no further.
    public override func handle(_ event: Event) -> EventResult {
        switch event {
        case let .key(key) where commands.contains(where: { $0.keys.contains(key) }):
            return .ignored
        case let .mouse(mouse) where mouse.kind == .click || mouse.kind == .press:
            if mouse.position.y == frame.height - 2 {
                for (i, x) in buttonColumns(width: frame.width).enumerated()
                where mouse.position.x >= x && mouse.position.x < x + buttons[i].displayWidth + 4 {
                    selectedButton = i
                    onChoice?(i)
                    return [.handled, .needsRedraw, .closeScreen]
                }
            }
            return .handled
        case .key:
            return .handled
        default:
            return .ignored
        }
    }
}
