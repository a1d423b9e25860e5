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
    public var messageIsError = false

    public override func draw(in canvas: Canvas) {
        let theme = canvas.theme
        canvas.fill(canvas.bounds, style: theme.statusBar)
        let width = canvas.size.width
        let statusWidth = status.displayWidth
        if !status.isEmpty, statusWidth + 2 <= width {
            canvas.write(status, x: width - statusWidth - 1, y: 0, style: theme.statusBar)
        }
        let room = status.isEmpty ? width : max(0, width - statusWidth - 2)
        if let message {
            canvas.write(" " + message, x: 0, y: 0, style: messageIsError ? theme.error : theme.statusBar.bolded,
                         maxWidth: room)
            return
        }
        var x = 0
        for command in hints {
            guard let key = command.keys.first else { continue }
            let keyText = key.description
            let label = command.hintLabel ?? command.title
            let needed = keyText.displayWidth + label.displayWidth + 3
            if x + needed > room { break }
            x += canvas.write(keyText, x: x, y: 0, style: theme.statusKey)
            x += canvas.write(" " + label + "  ", x: x, y: 0, style: theme.statusBar)
        }
    }
}
