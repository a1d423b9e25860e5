/// A floating window that shows text whole: every line, long ones wrapped at the window's
/// width (at a space where there is one), scrolled with the keys a pager has.
///
/// j/k and the arrows scroll a line, PgDn/Space and PgUp a page, g/Home and G/End go to the
/// ends; Esc or q closes.
///
///     app.show(TextViewer(title: "notes", lines: ["First line", "", "Third line"]))
public final class TextViewer: Window {
    /// A line of the text, and how it is drawn.
    public struct Line: Sendable, Equatable {
        /// How a line is drawn.
        public enum Kind: Sendable, Equatable {
            /// Ordinary text.
            case text
            /// A heading (shown as a table's header is).
            case heading
            /// A note about the text rather than the text (dimmed).
            case note
        }
        /// The line's text, wrapped to the window's width when shown.
        public var text: String
        /// How the line is drawn: as text, a heading or a note.
        public var kind: Kind

        /// A line of `text`, drawn as ordinary text unless `kind` says otherwise.
        public init(_ text: String, kind: Kind = .text) {
            self.text = text
            self.kind = kind
        }
    }

    /// The lines shown, before wrapping.
    public let lines: [Line]
    /// The first row shown, in wrapped rows.
    public private(set) var scrollOffset = 0
    /// Other keys the viewer answers (a key that acts on what it shows); true when handled.
    public var onKey: ((Key) -> Bool)?
    /// Said in the footer before "Esc close" (the viewer's own keys).
    public var footerHint: String?

    private var wrapped: [(text: String, kind: Line.Kind)] = []
    private var wrappedWidth = -1

    /// A viewer of `text`, split into lines at its line breaks.
    public convenience init(title: String, text: String) {
        self.init(title: title, lines: text.split(separator: "\n", omittingEmptySubsequences: false).map { Line(String($0)) })
    }

    /// A viewer of `lines`, centred, as wide as the longest line needs (at least 40 cells, within
    /// the screen) and as tall as the wrapped text.
    public init(title: String, lines: [Line]) {
        self.lines = lines
        super.init(title: title, border: true, floating: true, modal: true)
        placement = { [unowned self] area in
            // As wide as the longest line needs, within the screen; as tall as the text wraps to.
            let widest = self.lines.map { $0.text.displayWidth }.max() ?? 0
            let width = min(area.width, max(40, min(widest + 4, area.width - 4), title.displayWidth + 12))
            self.rewrap(toWidth: max(1, width - 4))
            let height = min(area.height, max(5, min(self.wrapped.count + 3, area.height - 2)))
            return area.centered(Size(width: width, height: height))
        }
    }

    /// Convenience for tests and callers: the text lines as shown at `width` columns.
    public func wrappedLines(width: Int) -> [String] {
        rewrap(toWidth: width)
        return wrapped.map(\.text)
    }

    private var textWidth: Int { max(1, frame.width - 4) }
    private var pageHeight: Int { max(1, frame.height - 3) }
    private var maxOffset: Int { max(0, wrapped.count - pageHeight) }

    private func rewrap(toWidth width: Int) {
        guard width != wrappedWidth else { return }
        wrappedWidth = width
        wrapped = []
        for line in lines {
            for row in Self.wrap(line.text, width: width) { wrapped.append((row, line.kind)) }
        }
        scrollOffset = min(scrollOffset, maxOffset)
    }

    /// A line cut into rows of at most `width` cells: after the last space that fits, or
    /// mid-word when a word is longer than a row. An empty line stays one empty row; tabs
    /// become spaces to the next multiple of four.
    public static func wrap(_ text: String, width: Int) -> [String] {
        var expanded = ""
        var column = 0
        for character in text {
            if character == "\t" {
                let spaces = 4 - column % 4
                expanded += String(repeating: " ", count: spaces)
                column += spaces
            } else {
                expanded.append(character)
                column += max(1, DisplayWidth.of(character))
            }
        }
        guard expanded.displayWidth > width else { return [expanded] }
        var rows: [String] = []
        var row: [Character] = [], used = 0
        var lastSpace: Int?
        for character in expanded {
            let w = max(1, DisplayWidth.of(character))
            if used + w > width {
                if let space = lastSpace, space > 0 {
                    rows.append(String(row[..<space]))
                    row = Array(row[(space + 1)...])
                } else {
                    rows.append(String(row))
                    row = []
                }
                used = row.reduce(0) { $0 + max(1, DisplayWidth.of($1)) }
                lastSpace = nil
                if character == " " && row.isEmpty { continue }
            }
            if character == " " { lastSpace = row.count }
            row.append(character)
            used += w
        }
        rows.append(String(row))
        return rows
    }

    /// Draws the frame, the visible wrapped rows (headings and notes in their styles), and a
    /// footer with the hint, how to close and, when scrolled, which rows show.
    public override func draw(in canvas: Canvas) {
        super.draw(in: canvas)
        rewrap(toWidth: textWidth)
        let theme = canvas.theme
        for (i, row) in wrapped.dropFirst(scrollOffset).prefix(pageHeight).enumerated() {
            let style: Style
            switch row.kind {
            case .text: style = theme.normal
            case .heading: style = theme.header
            case .note: style = theme.dimmed
            }
            canvas.write(row.text, x: 2, y: 1 + i, style: style, maxWidth: textWidth)
        }
        var footer = (footerHint.map { $0 + " · " } ?? "") + "Esc close"
        if wrapped.count > pageHeight {
            let last = min(wrapped.count, scrollOffset + pageHeight)
            footer = "\(scrollOffset + 1)–\(last) of \(wrapped.count) · " + footer
        }
        canvas.write(footer, x: 2, y: canvas.size.height - 2, style: theme.dimmed, maxWidth: canvas.size.width - 4)
    }

    /// Esc or `q` closes; the pager keys scroll; another key closes when `onKey` takes it, and
    /// otherwise goes no further. Other events go to the window.
    public override func handle(_ event: Event) -> EventResult {
        guard case let .key(key) = event else { return super.handle(event) }
        switch key {
        case .escape, .character("q"):
            return [.handled, .needsRedraw, .closeScreen]
        default:
            if let offset = PagerKeys.offset(after: key, from: scrollOffset, page: pageHeight, last: maxOffset) {
                scrollOffset = offset
                return .redraw
            }
            if let onKey, onKey(key) { return [.handled, .needsRedraw, .closeScreen] }
            return .handled
        }
    }
}
