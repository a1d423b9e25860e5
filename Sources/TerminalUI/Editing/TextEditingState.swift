/// The state of one line of text being edited: characters, cursor, scroll and undo.
///
/// Keys follow readline: arrows, Home/End, Ctrl-A/E, Ctrl-K/U/W, Alt-B/F and Ctrl-←/→ by word,
/// Backspace/Delete, Ctrl-_ to undo.
///
///     var state = TextEditingState("hello")
///     state.apply(.control("a"))
///     state.apply(.character(">"))
///     state.text   // ">hello"
public struct TextEditingState: Hashable, Sendable {
    /// The text as characters, which `cursor` indexes.
    public private(set) var characters: [Character]
    /// Cursor position as a character index, 0...count.
    public private(set) var cursor: Int
    /// The first character shown when the text is wider than the field.
    public private(set) var scrollOffset = 0
    private var undoStack: [Snapshot] = []
    private var isTyping = false

    private struct Snapshot: Hashable, Sendable {
        var characters: [Character]
        var cursor: Int
    }

    /// A state holding `text`, with the cursor after its end and nothing to undo.
    public init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    /// The text as a string.
    public var text: String { String(characters) }

    /// How many edits can be undone: each keeps a copy of the text.
    static let undoLimit = 200
    /// Whether there is an edit to undo.
    public var canUndo: Bool { !undoStack.isEmpty }

    /// What applying a key did.
    public enum Outcome: Sendable, Equatable {
        /// `changed`: the text changed; `moved`: only the cursor moved; `ignored`: the key did nothing.
        case changed, moved, ignored
    }

    /// Apply an editing key; keys that are not editing keys (Enter, Esc, Tab) are ignored.
    @discardableResult
    public mutating func apply(_ key: Key) -> Outcome {
        switch key {
        case let .character(c):
            insert(c)
            return .changed
        case .left, .control("b"):
            return move(to: cursor - 1)
        case .right, .control("f"):
            return move(to: cursor + 1)
        case .home, .control("a"):
            return move(to: 0)
        case .end, .control("e"):
            return move(to: characters.count)
        case .controlLeft, .alt("b"):
            return move(to: previousWordStart())
        case .controlRight, .alt("f"):
            return move(to: nextWordEnd())
        case .backspace, .control("h"):
            guard cursor > 0 else { return .ignored }
            edit { $0.characters.remove(at: $0.cursor - 1); $0.cursor -= 1 }
            return .changed
        case .delete, .control("d"):
            guard cursor < characters.count else { return .ignored }
            edit { $0.characters.remove(at: $0.cursor) }
            return .changed
        case .control("k"):
            guard cursor < characters.count else { return .ignored }
            edit { $0.characters.removeSubrange($0.cursor...) }
            return .changed
        case .control("u"):
            guard cursor > 0 else { return .ignored }
            edit { $0.characters.removeSubrange(..<$0.cursor); $0.cursor = 0 }
            return .changed
        case .control("w"), .alt("\u{7F}"):
            let start = previousWordStart()
            guard start < cursor else { return .ignored }
            edit { $0.characters.removeSubrange(start..<$0.cursor); $0.cursor = start }
            return .changed
        case .control("_"), .control("z"):
            return undo() ? .changed : .ignored
        default:
            return .ignored
        }
    }

    /// Insert text at the cursor.
    public mutating func insert(_ text: String) {
        guard !text.isEmpty else { return }
        edit { $0.characters.insert(contentsOf: Array(text), at: $0.cursor); $0.cursor += text.count }
    }

    /// Insert one typed character at the cursor; characters typed in a row undo as one step, a
    /// space beginning the next.
    public mutating func insert(_ character: Character) {
        // A run of typed characters undoes as one step, up to a space.
        if !isTyping || character == " " {
            undoStack.append(Snapshot(characters: characters, cursor: cursor))
            if undoStack.count > Self.undoLimit { undoStack.removeFirst() }
        }
        characters.insert(character, at: cursor)
        cursor += 1
        isTyping = true
    }

    /// Replace all the text, as one undoable step.
    public mutating func setText(_ text: String) {
        edit { $0.characters = Array(text); $0.cursor = $0.characters.count }
    }

    /// Go back to the text before the last edit; returns whether there was one.
    @discardableResult
    public mutating func undo() -> Bool {
        guard let last = undoStack.popLast() else { return false }
        characters = last.characters
        cursor = last.cursor
        isTyping = false
        return true
    }

    private mutating func edit(_ change: (inout TextEditingState) -> Void) {
        undoStack.append(Snapshot(characters: characters, cursor: cursor))
        change(&self)
        isTyping = false
        if undoStack.count > Self.undoLimit { undoStack.removeFirst() }
    }

    private mutating func move(to position: Int) -> Outcome {
        let clamped = min(max(0, position), characters.count)
        guard clamped != cursor else { return .ignored }
        cursor = clamped
        isTyping = false
        return .moved
    }

    private func isWordCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }

    private func previousWordStart() -> Int {
        var i = cursor
        while i > 0, !isWordCharacter(characters[i - 1]) { i -= 1 }
        while i > 0, isWordCharacter(characters[i - 1]) { i -= 1 }
        return i
    }

    private func nextWordEnd() -> Int {
        var i = cursor
        while i < characters.count, !isWordCharacter(characters[i]) { i += 1 }
        while i < characters.count, isWordCharacter(characters[i]) { i += 1 }
        return i
    }

    /// Scroll so the cursor shows in a field `width` cells wide; returns the visible text and
    /// the cursor's column within it.
    public mutating func visibleText(width: Int) -> (text: String, cursorColumn: Int) {
        guard width > 0 else { return ("", 0) }
        if cursor < scrollOffset { scrollOffset = cursor }
        // Keep the cursor cell (and one cell for it at the end) inside the field: the first
        // shown is the leftmost, from the scroll offset on, that leaves room for both. Found
        // walking back from the cursor, so the work is the field's width, not the text's.
        var start = cursor, room = width - 1
        while start > scrollOffset {
            let w = DisplayWidth.of(characters[start - 1])
            if w > room { break }
            room -= w
            start -= 1
        }
        scrollOffset = start
        if scrollOffset > characters.count { scrollOffset = characters.count }
        var shown = "", used = 0
        for c in characters[scrollOffset...] {
            let w = DisplayWidth.of(c)
            if used + w > width { break }
            shown.append(c)
            used += w
        }
        let column = DisplayWidth.of(String(characters[scrollOffset..<cursor]))
        return (shown, column)
    }
}
