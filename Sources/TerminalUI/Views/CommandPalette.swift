/// A modal list of every live command, filtered as you type; Enter runs the highlighted one.
public final class CommandPalette: Window {
    /// Every command the palette can run, in the order listed while nothing is typed.
    public let allCommands: [Command]
    /// The text typed to filter the commands.
    public private(set) var query = TextEditingState()
    /// The index of the highlighted command in `matches`.
    public private(set) var selected = 0
    /// Receives the chosen command after the palette has closed.
    var onRun: ((Command) -> Void)?

    /// A palette offering `commands`, near the top of the screen and half its width (at least 40 cells).
    public init(commands: [Command]) {
        self.allCommands = commands
        super.init(title: "Command", border: true, floating: true, modal: true)
        placement = { area in
            let width = min(area.width, max(40, area.width / 2))
            return Rect(x: area.x + (area.width - width) / 2, y: area.y + 1, width: width,
                        height: min(area.height - 1, 14))
        }
    }

    /// The commands whose title or name contains every typed word, in order.
    public var matches: [Command] {
        let words = query.text.lowercased().split(separator: " ")
        guard !words.isEmpty else { return allCommands }
        return allCommands.filter { command in
            let haystack = (command.title + " " + command.name).lowercased()
            return words.allSatisfy { haystack.contains($0) }
        }
    }

    /// Draws the frame, the typed filter with the cursor, and the matching commands with their
    /// keys, the highlighted one marked.
    public override func draw(in canvas: Canvas) {
        super.draw(in: canvas)
        let theme = canvas.theme
        let width = canvas.size.width - 2
        canvas.write("> ", x: 1, y: 1, style: theme.header)
        let (shown, column) = query.visibleText(width: max(1, width - 2))
        canvas.write(shown, x: 3, y: 1, style: theme.normal)
        canvas.setCursor(x: 3 + column, y: 1)
        let rows = max(0, canvas.size.height - 3)
        let list = matches
        let top = max(0, selected - rows + 1)
        for (i, command) in list.dropFirst(top).prefix(rows).enumerated() {
            let style = top + i == selected ? theme.selection : theme.normal
            let keys = command.keyLabel
            canvas.write(" " + command.title, x: 1, y: 2 + i, width: width, style: style)
            if !keys.isEmpty, keys.displayWidth + command.title.displayWidth + 4 < width {
                canvas.write(keys, x: 1 + width - keys.displayWidth - 1, y: 2 + i,
                             style: top + i == selected ? style : theme.dimmed)
            }
        }
        if list.isEmpty { canvas.write(" no matching command", x: 1, y: 2, style: theme.dimmed) }
    }

    /// Esc closes; Enter runs the highlighted command and closes; Down or Ctrl-N and Up or
    /// Ctrl-P move the highlight, round the ends; other keys edit the filter.
    public override func handle(_ event: Event) -> EventResult {
        guard case let .key(key) = event else { return .ignored }
        let count = matches.count
        switch key {
        case .escape:
            return [.handled, .needsRedraw, .closeScreen]
        case .enter:
            guard selected < count else { return .handled }
            let command = matches[selected]
            onRun?(command)
            return [.handled, .needsRedraw, .closeScreen]
        case .down, .control("n"):
            if count > 0 { selected = (selected + 1) % count }
        case .up, .control("p"):
            if count > 0 { selected = (selected - 1 + count) % count }
        default:
            if query.apply(key) == .ignored { return .handled }
            selected = 0
        }
        return .redraw
    }
}
