import Foundation

/// The editor open on one table cell or form field, fitted to the value's type: a text line
/// for text and numbers, a part-by-part date editor, or a popup list of choices.
///
/// Enter commits, Esc cancels, Tab commits and moves on (Shift-Tab backwards).
///
///     var editor = CellEditor(kind: .integer, value: .integer(3))
///     editor.handle(.control("u")); editor.handle(.character("7"))
///     editor.handle(.enter)   // .commit(.integer(7))
public struct CellEditor {
    /// The kind of editor open, with its editing state.
    public enum Mode {
        /// A line of text, for text and numbers: its characters, cursor and undo history.
        case text(TextEditingState)
        /// A date edited part by part.
        case date(DateEditingState)
        /// A popup list of `options`, with the index of the highlighted one.
        case choice(options: [String], selected: Int)
    }

    /// What a key did to the editor, for the view that holds it to act on.
    public enum Outcome: Equatable {
        /// Still editing; redraw.
        case editing
        /// Enter: store this value and close the editor.
        case commit(CellValue)
        /// Commit, then move to the next (or previous) editable cell.
        case commitAndMove(CellValue, forward: Bool)
        /// Esc: close the editor without storing anything.
        case cancel
    }

    /// How the value is edited; for a text line it also decides how the typed text is read (a whole
    /// number, a decimal, or text).
    public let kind: EditorKind
    /// The editor open and its state, chosen from `kind` when the editor was made.
    public private(set) var mode: Mode
    /// The message of a value that could not be read or stored, shown at the cell.
    public var error: String?

    /// What the editor shows under the cell: the refusal of a value it could not store, or
    /// a date that cannot be, named as it is typed.
    public var message: String? {
        if let error { return error }
        if case let .date(state) = mode { return state.problem }
        return nil
    }
    /// Where "today" comes from, for `t` in the date editor.
    public var today: () -> Date = { Date() }

    /// An editor on `value`, fitted to `kind`.
    ///
    /// A date gets the date editor, on the current minute when there is no date; a choice, the
    /// popup list on the option `format` writes the value as; anything else, a text line holding
    /// the value as `format` writes it. A whole decimal is written without its fraction (`3`, not
    /// `3.00`), so that it can be edited as typed.
    public init(kind: EditorKind, value: CellValue, format: ValueFormat = .automatic) {
        self.kind = kind
        switch kind {
        case .date:
            if case let .date(date) = value {
                mode = .date(DateEditingState(date: date))
            } else {
                let now = Date()
                mode = .date(DateEditingState(date: Date(timeIntervalSinceReferenceDate:
                    (now.timeIntervalSinceReferenceDate / 60).rounded(.down) * 60)))
            }
        case let .choice(options):
            let current = format.string(for: value)
            mode = .choice(options: options, selected: options.firstIndex(of: current) ?? 0)
        default:
            let text: String
            switch value {
            case let .decimal(d): text = d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
            default: text = format.string(for: value)
            }
            mode = .text(TextEditingState(text))
        }
    }

    /// How wide the editor would like to be: room to type for text (a narrow column's editor
    /// grows over its neighbours), the date's own width, a choice's current option.
    public var preferredWidth: Int {
        switch mode {
        case .text: return 20
        case let .date(state): return state.text.displayWidth
        case let .choice(options, selected): return (options.indices.contains(selected) ? options[selected].displayWidth : 0) + 2
        }
    }

    /// Commands for the keys of this editor's own, beyond Enter, Esc and Tab, for the help
    /// and the hints (the date editor's parts, steps, typing and clearing); each hands its
    /// key to `perform`, the view's way into the editor.
    public func ownCommands(perform: @escaping (Key) -> EventResult) -> [Command] {
        guard case .date = mode else { return [] }
        let keys: [(name: String, title: String, keys: [Key], typed: String?, hint: String?)] = [
            ("editor.dateClear", "Date: take back the last key typed, else clear (no date); an arrow brings it back",
             [.backspace, .delete], nil, "Clear"),
            ("editor.dateToday", "Date: today, keeping the time", [.character("t")], nil, "Today"),
            ("editor.dateStep", "Date: part one later or earlier (PgUp/PgDn ten)", [.up, .down], nil, "Change"),
            ("editor.datePart", "Date: previous or next part", [.left, .right], nil, nil),
            ("editor.dateType", "Date: type the part (24), a whole date (2026-12-24 18:00) or a time (18:30)",
             [], "0–9 - / . : T", nil),
        ]
        return keys.map { own in
            var command = Command(own.name, title: own.title, keys: own.keys, hint: own.hint) {
                own.keys.first.map(perform) ?? .ignored
            }
            command.typedKeys = own.typed
            return command
        }
    }

    /// Empties a text editor, so that typing replaces a placeholder value ("New category")
    /// that Esc keeps.
    public mutating func clearText() {
        if case .text = mode { mode = .text(TextEditingState("")) }
    }

    /// Read the value as typed, or throw a message for the user.
    public func currentValue() throws -> CellValue {
        switch mode {
        case let .date(state):
            let state = state.finished
            if let problem = state.problem { throw EditorError(problem) }
            return state.isCleared ? .empty : .date(state.date)
        case let .choice(options, selected):
            return options.indices.contains(selected) ? .text(options[selected]) : .empty
        case let .text(state):
            let raw = state.text
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            switch kind {
            case .integer:
                if trimmed.isEmpty { return .empty }
                guard let n = Int(trimmed.replacingOccurrences(of: "_", with: "")) else {
                    throw EditorError("“\(trimmed)” is not a whole number")
                }
                return .integer(n)
            case .decimal:
                if trimmed.isEmpty { return .empty }
                // A decimal comma is read as a point (2,5), but where a comma could also
                // separate thousands (2,750, 1,234.5) the number is refused rather than guessed.
                var number = trimmed.replacingOccurrences(of: "_", with: "")
                let commas = number.filter { $0 == "," }.count
                if commas > 0 {
                    let digitsAfter = number.split(separator: ",", omittingEmptySubsequences: false).last?.count ?? 0
                    guard commas == 1, !number.contains("."), digitsAfter != 3 else {
                        throw EditorError("“\(trimmed)” could be read two ways: write 2750 or 2.75, without commas")
                    }
                    number = number.replacingOccurrences(of: ",", with: ".")
                }
                guard let d = Double(number), d.isFinite else {
                    throw EditorError("“\(trimmed)” is not a number")
                }
                return .decimal(d)
            default:
                return raw.isEmpty ? .empty : .text(raw)
            }
        }
    }

    /// Keys an open editor leaves to the application: function keys (F10 quits, F1 helps),
    /// Ctrl-S (saving commits the edit first) and Ctrl-Q.
    public static func belongsToApplication(_ key: Key) -> Bool {
        if case .function = key { return true }
        return key == .control("s") || key == .control("q")
    }

    /// Apply a key and say what it did.
    ///
    /// Enter commits, Tab and Shift-Tab commit and move on, Esc cancels; a value that cannot be
    /// read keeps the editor open with `error` set.
    public mutating func handle(_ key: Key) -> Outcome {
        switch key {
        case .escape:
            return .cancel
        case .enter, .tab, .backTab:
            do {
                let value = try currentValue()
                if key == .enter { return .commit(value) }
                return .commitAndMove(value, forward: key == .tab)
            } catch {
                self.error = "\(error)"
                return .editing
            }
        default:
            break
        }
        error = nil
        switch mode {
        case .text:
            editText { $0.apply(key) }
        case var .date(state):
            state.apply(key, today: today())
            mode = .date(state)
        case let .choice(options, selected):
            var index = selected
            switch key {
            case .down, .character("j"): index = min(options.count - 1, index + 1)
            case .up, .character("k"): index = max(0, index - 1)
            case .home, .character("g"): index = 0
            case .end, .character("G"): index = options.count - 1
            case let .character(c):
                if let match = options.firstIndex(where: { $0.lowercased().hasPrefix(String(c).lowercased()) }) {
                    index = match
                }
            default: break
            }
            mode = .choice(options: options, selected: max(0, index))
        }
        return .editing
    }

    /// Inserts text at the cursor of a text editor as one edit (one undo step); false for
    /// other editors, which take it key by key.
    public mutating func insertText(_ text: String) -> Bool {
        guard case .text = mode else { return false }
        error = nil
        editText { $0.insert(text) }
        return true
    }

    /// Changes the text being edited where it is kept. The state is taken out of `mode`
    /// first, so that its characters have one owner: changed while `mode` still held them,
    /// they would be copied at every key, and a long paste would take quadratic time.
    private mutating func editText(_ body: (inout TextEditingState) -> Void) {
        guard case .text(var state) = mode else { return }
        mode = .text(TextEditingState())
        body(&state)
        mode = .text(state)
    }

    /// Draw the editor in the cell's rectangle (`rect`, in `canvas` coordinates); a choice
    /// list opens below the cell, or above it when there is no room.
    public mutating func draw(in canvas: Canvas, at rect: Rect) {
        let theme = canvas.theme
        switch mode {
        case .text:
            canvas.fill(rect, style: theme.editor)
            editText { state in
                let (shown, column) = state.visibleText(width: rect.width)
                canvas.write(shown, x: rect.x, y: rect.y, style: theme.editor, maxWidth: rect.width)
                canvas.setCursor(x: rect.x + column, y: rect.y)
            }
        case let .date(state):
            canvas.fill(rect, style: theme.editor)
            canvas.write(state.text, x: rect.x, y: rect.y, style: theme.editor, maxWidth: rect.width)
            let range = state.isCleared ? 0..<0 : state.partRange
            let text = Array(state.text)
            for i in range where i < rect.width {
                canvas.put(text[i], x: rect.x + i, y: rect.y, style: theme.selectedCell)
            }
        case let .choice(options, selected):
            canvas.fill(rect, style: theme.editor)
            let current = options.indices.contains(selected) ? options[selected] : ""
            canvas.write(current + " ▾", x: rect.x, y: rect.y, width: rect.width, style: theme.editor)
            // Where the view that holds the cell is too low for the list (a form two rows
            // high), it is drawn on the whole screen instead, clear of the status line.
            let roomInView = max(canvas.size.height - rect.maxY - 2, rect.y - 2)
            if roomInView < min(options.count, 3) {
                canvas.drawOnTop(rect) { screen, rect in
                    Self.drawList(options, selected: selected, under: rect, in: screen, reserved: 1)
                }
            } else {
                Self.drawList(options, selected: selected, under: rect, in: canvas, reserved: 0)
            }
        }
        if let error = message {
            // Under the cell, at least as wide as it: what it covers of the next row is
            // hidden whole rather than left to read on after the message. A view too narrow
            // for it (the category panel's list) lends it the whole screen.
            let message = " ⚠ \(error) "
            if message.displayWidth > canvas.size.width {
                canvas.drawOnTop(rect) { screen, rect in
                    let end = Self.drawMessage(message, under: rect, in: screen)
                    // Over a neighbouring view, what it shows after the message is blanked
                    // up to its next column line, so that it does not read on from it.
                    var x = end.x
                    while (0..<screen.size.height).contains(end.y), x < screen.size.width, !Self.columnLines.contains(screen.buffer[x, end.y].character) {
                        screen.put(" ", x: x, y: end.y, style: screen.buffer[x, end.y].style)
                        x += 1
                    }
                }
            } else {
                Self.drawMessage(message, under: rect, in: canvas)
            }
        }
    }

    /// A choice list below the cell, or above it when there is more room there; `reserved`
    /// rows at the bottom stay clear (the status line).
    private static func drawList(_ options: [String], selected: Int, under rect: Rect, in canvas: Canvas, reserved: Int) {
        let width = min(canvas.size.width, max(rect.width, 20, (options.map(\.displayWidth).max() ?? 0) + 4))
        let roomBelow = canvas.size.height - rect.maxY - 2 - reserved
        let roomAbove = rect.y - 2
        let below = roomBelow >= min(options.count, 3) || roomBelow >= roomAbove
        let rows = max(1, min(options.count, below ? roomBelow : roomAbove))
        let top = below ? rect.maxY : rect.y - rows - 2
        let box = Rect(x: min(rect.x, max(0, canvas.size.width - width)), y: top, width: width, height: rows + 2)
        canvas.fill(box, style: canvas.theme.menuBar)
        canvas.box(box, style: canvas.theme.menuBar)
        let first = max(0, selected - rows + 1)
        for i in 0..<rows where first + i < options.count {
            let style = first + i == selected ? canvas.theme.menuSelection : canvas.theme.menuBar
            canvas.write(" " + options[first + i], x: box.x + 1, y: box.y + 1 + i, width: width - 2, style: style)
        }
    }

    /// The message on the row under the cell (above it on the last row), at least as wide
    /// as the cell; returns where it ends.
    @discardableResult
    private static func drawMessage(_ message: String, under rect: Rect, in canvas: Canvas) -> Point {
        let y = rect.maxY < canvas.size.height ? rect.maxY : rect.y - 1
        let width = min(max(message.displayWidth, rect.width), canvas.size.width)
        let x = max(0, min(rect.x, canvas.size.width - width))
        canvas.write(message, x: x, y: y, width: width, style: canvas.theme.error)
        return Point(x: x + width, y: y)
    }

    private static let columnLines: Set<Character> = ["│", "┃", "║", "┼", "┤", "├", "┐", "┘", "┌", "└"]
}

/// A value the user typed that does not fit the field.
public struct EditorError: Error, CustomStringConvertible, Equatable {
    /// What is wrong with the value, in words shown to the user.
    public let description: String
    /// An error whose `description` is shown to the user as it is.
    public init(_ description: String) { self.description = description }
}
