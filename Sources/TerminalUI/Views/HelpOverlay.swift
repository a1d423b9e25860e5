/// A modal window listing the commands that apply where it was opened, with their keys.
///
/// j/k, arrows and PgUp/PgDn scroll; Esc, q or ? close.
public final class HelpOverlay: Window {
    /// The commands listed, in order, each with its keys.
    public let entries: [Command]
    /// The index of the first entry shown.
    public private(set) var scrollOffset = 0

    /// A help window listing `commands`, sized to fit them and centred.
    public init(commands: [Command]) {
        self.entries = commands
        super.init(title: "Keys", border: true, floating: true, modal: true)
        placement = { [unowned self] area in
            let keyWidth = self.entries.map(Self.keyWidth).max() ?? 0
            let titleWidth = self.entries.map { $0.title.displayWidth }.max() ?? 0
            return area.centered(Size(width: keyWidth + titleWidth + 7, height: self.entries.count + 3))
        }
    }

    static let paletteLabel = ": then name"

    private static func keyWidth(_ command: Command) -> Int {
        command.isPaletteOnly ? paletteLabel.displayWidth : command.keyLabel.displayWidth
    }

    private var keyColumnWidth: Int { min(24, entries.map(Self.keyWidth).max() ?? 0) }
    private var pageHeight: Int { max(1, frame.height - 3) }

    /// Draws the frame, the visible commands with their keys (`: then name` for those run from
    /// the palette), and a footer saying how to close and, when scrolled, which entries show.
    public override func draw(in canvas: Canvas) {
        super.draw(in: canvas)
        let theme = canvas.theme
        let visible = entries.dropFirst(scrollOffset).prefix(pageHeight)
        for (i, command) in visible.enumerated() {
            // A command without a key is run from the palette.
            if command.isPaletteOnly {
                canvas.write(Self.paletteLabel, x: 2, y: 1 + i, width: keyColumnWidth, style: theme.dimmed)
            } else {
                canvas.write(command.keyLabel, x: 2, y: 1 + i, width: keyColumnWidth, style: theme.header)
            }
            canvas.write(command.title, x: 3 + keyColumnWidth, y: 1 + i, style: theme.normal,
                         maxWidth: canvas.size.width - keyColumnWidth - 5)
        }
        // Longer than the window: say so, and where the view is.
        var footer = "Esc close"
        if entries.count > pageHeight {
            let last = min(entries.count, scrollOffset + pageHeight)
            footer = "\(scrollOffset + 1)–\(last) of \(entries.count) · j/k, PgDn/PgUp scroll · Esc close"
        }
        canvas.write(footer, x: 2, y: canvas.size.height - 2, style: theme.dimmed, maxWidth: canvas.size.width - 4)
    }

    /// Esc, `q`, `?`, F1 or Enter closes; the pager keys scroll; other keys go no further.
    public override func handle(_ event: Event) -> EventResult {
        guard case let .key(key) = event else { return .ignored }
        let maxOffset = max(0, entries.count - pageHeight)
        switch key {
        case .escape, .character("q"), .character("?"), .function(1), .enter:
            return [.handled, .needsRedraw, .closeScreen]
        default:
            guard let offset = PagerKeys.offset(after: key, from: scrollOffset, page: pageHeight, last: maxOffset) else { return .handled }
            scrollOffset = offset
            return .redraw
        }
    }
}
