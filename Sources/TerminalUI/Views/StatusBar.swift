/// The bottom line: key hints of the live commands on the left, a message or status text on the right.
///
///     app.statusBar.status = "3 unsaved changes"
public final class StatusBar: View {
    /// Commands shown as hints, filled in by the application from the live key map.
    public var hints: [Command] = []
    /// Text on the right, such as a count or the position in a table.
    public var status: String = ""
    /// A one-off message that replaces the hints until the next key.
    public var message: String?
    /// Whether `message` reports an error, drawn in the theme's `error` style.
    public var messageIsError = false
    /// Work in progress, shown in place of the hints until it ends (set by the application).
    public var activity: String?

    /// Draws the status on the right and, on the left, the message or the work in progress,
    /// else as many key hints as fit.
    public override func draw(in canvas: Canvas) {
        let theme = canvas.theme
        canvas.fill(canvas.bounds, style: theme.statusBar)
        let width = canvas.size.width
        // The status keeps its end (the unsaved-change count) when it is cut; beside a
        // message it gives up to half the line.
        let message = (self.message ?? activity).map { " " + Self.oneLine($0) }
        var statusRoom = width - 2
        if let message { statusRoom = min(statusRoom, max(width / 2, width - message.displayWidth - 3)) }
        let shown = Self.fitted(status, width: statusRoom)
        let statusWidth = shown.displayWidth
        if !shown.isEmpty {
            canvas.write(shown, x: width - statusWidth - 1, y: 0, style: theme.statusBar)
        }
        let room = shown.isEmpty ? width : max(0, width - statusWidth - 2)
        if let message {
            canvas.write(message.truncated(toWidth: room), x: 0, y: 0,
                         style: self.message != nil && messageIsError ? theme.error : theme.statusBar.bolded)
            return
        }
        var x = 0
        for (key, label) in Self.fittedHints(hints, width: room) {
            x += canvas.write(key, x: x, y: 0, style: theme.statusKey)
            x += canvas.write(" " + label + "  ", x: x, y: 0, style: theme.statusBar)
        }
    }

    /// The hints (key and label) that fit in `width` cells, in order; when not all do, the
    /// help hint keeps its place at the end, as the way to find the rest.
    static func fittedHints(_ hints: [Command], width: Int) -> [(key: String, label: String)] {
        var items = hints.compactMap { command -> (key: String, label: String, isHelp: Bool)? in
            guard let key = command.keys.first else { return nil }
            return (key.description, command.hintLabel ?? command.title, command.name == helpCommandName)
        }
        func needed(_ item: (key: String, label: String, isHelp: Bool)) -> Int { item.key.displayWidth + item.label.displayWidth + 3 }
        var help: (key: String, label: String, isHelp: Bool)?
        if items.reduce(0, { $0 + needed($1) }) > width, let h = items.firstIndex(where: \.isHelp) {
            help = items.remove(at: h)
        }
        var room = width - (help.map(needed) ?? 0)
        var shown: [(key: String, label: String)] = []
        for item in items {
            guard needed(item) <= room else { break }
            shown.append((item.key, item.label))
            room -= needed(item)
        }
        if let help, room >= 0 { shown.append((help.key, help.label)) }
        return shown
    }

    /// The name of the command whose hint stays when the others do not fit.
    public static let helpCommandName = "app.help"

    /// The status in `width` cells: its ` · `-separated parts from the middle give way to
    /// `…` first, so that the first (a count) and the last (unsaved changes) stay; if that is
    /// not enough, its start is cut.
    static func fitted(_ status: String, width: Int) -> String {
        guard status.displayWidth > width else { return status }
        var parts = status.components(separatedBy: " · ")
        while parts.count > 2 {
            // The parts dropped are the ones just before the last.
            parts.remove(at: parts.count - 2)
            let candidate = (parts.dropLast() + ["…", parts[parts.count - 1]]).joined(separator: " · ")
            if candidate.displayWidth <= width { return candidate }
        }
        return status.truncatedFromStart(toWidth: width)
    }

    /// A message on one line: its lines (split at line breaks and tabs) joined with ` · `,
    /// each without leading blanks, blank ones dropped.
    static func oneLine(_ text: String) -> String {
        guard text.contains(where: { $0.isNewline || $0 == "\t" }) else { return text }
        return text.split(whereSeparator: { $0.isNewline || $0 == "\t" }).map { String($0.drop(while: \.isWhitespace)) }
            .filter { !$0.isEmpty }.joined(separator: " · ")
    }
}
