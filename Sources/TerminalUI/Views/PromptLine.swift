/// The bottom line taking typed input for search or filter: `/milk█`.
///
/// Shown by `Application.beginPrompt`; Enter submits, Esc cancels, every change is reported.
/// It takes at most `maximumLength` characters: past that, typing and pastes are cut, and
/// the line says so at its right end.
public final class PromptLine: View {
    /// The text before the input, such as `/`.
    public let label: String
    /// The text being typed, with its cursor and undo history.
    public var state: TextEditingState
    /// The most characters the line takes.
    public var maximumLength = 4096
    /// Said at the right end of the line until the next key: what was cut.
    public private(set) var notice: String?
    /// Called with the text after each change, a recalled entry or a completion included.
    public var onChange: ((String) -> Void)?
    /// Called with the text on Enter; the prompt then closes.
    public var onSubmit: ((String) -> Void)?
    /// Called when the prompt is cancelled: Esc, Ctrl-C, Ctrl-G, or Backspace on an empty line.
    public var onCancel: (() -> Void)?
    /// Earlier entries, oldest first, that ↑ and ↓ walk through; the text typed before the
    /// first ↑ comes back after the last ↓.
    public var history: [String] = []
    /// What Tab does with the text: the completed text and, when several fit, their names.
    public var complete: ((String) -> PromptCompletion?)?
    private var historyIndex: Int?
    private var draft = ""

    /// A prompt showing `label`, with `text` typed already and the cursor after it.
    public init(label: String, text: String = "") {
        self.label = label
        self.state = TextEditingState(text)
        super.init()
    }

    /// Draws the label, the visible part of the text with the cursor in it, and any notice at
    /// the right end.
    public override func draw(in canvas: Canvas) {
        let theme = canvas.theme
        canvas.fill(canvas.bounds, style: theme.normal)
        let used = canvas.write(label, x: 0, y: 0, style: theme.header)
        let (shown, column) = state.visibleText(width: max(0, canvas.size.width - used))
        canvas.write(shown, x: used, y: 0, style: theme.normal)
        if let notice {
            let width = notice.displayWidth
            canvas.write(notice, x: max(used, canvas.size.width - width), y: 0, style: theme.warning)
        }
        canvas.setCursor(x: used + column, y: 0)
    }

    /// Inserts pasted text at the cursor as one edit (one undo step, one change reported),
    /// cut to what `maximumLength` leaves room for.
    func insert(_ text: String) -> EventResult {
        notice = nil
        let room = maximumLength - state.characters.count
        let kept = text.prefix(max(0, room))
        if kept.count < text.count { notice = cutNotice }
        guard !kept.isEmpty else { return .redraw }
        state.insert(String(kept))
        onChange?(state.text)
        return .redraw
    }

    private func recall(_ text: String, at index: Int?) {
        historyIndex = index
        notice = nil
        state = TextEditingState(text)
        onChange?(text)
    }

    private var cutNotice: String { " at most \(maximumLength) characters: the rest was left out " }

    /// Handle a key; the result contains `.closeScreen` when the prompt is done.
    func handleKey(_ key: Key) -> EventResult {
        switch key {
        case .enter:
            onSubmit?(state.text)
            return [.handled, .needsRedraw, .closeScreen]
        case .escape, .control("c"), .control("g"):
            onCancel?()
            return [.handled, .needsRedraw, .closeScreen]
        case .backspace where state.characters.isEmpty:
            onCancel?()
            return [.handled, .needsRedraw, .closeScreen]
        case .tab:
            guard let complete, state.cursor == state.characters.count, let completion = complete(state.text) else { return .handled }
            notice = completion.candidates.isEmpty ? nil : " " + completion.candidates.prefix(12).joined(separator: "  ")
                + (completion.candidates.count > 12 ? "  …" : "") + " "
            if completion.text != state.text {
                state = TextEditingState(completion.text)
                onChange?(completion.text)
            }
            return .redraw
        case .up, .control("p"):
            guard !history.isEmpty else { return .handled }
            if historyIndex == nil { draft = state.text }
            let index = max(0, (historyIndex ?? history.count) - 1)
            recall(history[index], at: index)
            return .redraw
        case .down, .control("n"):
            guard let index = historyIndex else { return .handled }
            if index + 1 < history.count {
                recall(history[index + 1], at: index + 1)
            } else {
                recall(draft, at: nil)
            }
            return .redraw
        default:
            notice = nil
            if case .character = key, state.characters.count >= maximumLength {
                notice = cutNotice
                return .redraw
            }
            if state.apply(key) == .changed { onChange?(state.text) }
            return .redraw
        }
    }
}

/// A completion of a prompt's text: the text completed as far as the candidates agree, and
/// the candidates when there are several.
public struct PromptCompletion: Equatable, Sendable {
    /// The text completed as far as the candidates agree.
    public var text: String
    /// The names that fit, shown on the prompt line when there are several; empty when the completion is whole.
    public var candidates: [String]

    /// A completion to `text`, with the `candidates` to show.
    public init(text: String, candidates: [String] = []) {
        self.text = text
        self.candidates = candidates
    }
}
