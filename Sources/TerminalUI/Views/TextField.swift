/// A one-line text input that scrolls horizontally when the text is longer than the field.
///
///     let field = TextField(text: "Milk", placeholder: "Title")
///     field.onSubmit = { text in save(text) }
public final class TextField: View {
    /// The text, cursor and undo history.
    public var state: TextEditingState
    /// Shown dimmed while the field is empty.
    public var placeholder: String
    /// Called after each change of the text.
    public var onChange: ((String) -> Void)?
    /// Called on Enter.
    public var onSubmit: ((String) -> Void)?

    /// A field 20 cells wide holding `text`.
    public init(text: String = "", placeholder: String = "") {
        self.state = TextEditingState(text)
        self.placeholder = placeholder
        super.init(frame: Rect(x: 0, y: 0, width: 20, height: 1))
    }

    /// The text; setting it puts the cursor at the end and clears the undo history.
    public var text: String {
        get { state.text }
        set { state = TextEditingState(newValue) }
    }

    /// Always true: a field takes the focus to be typed in.
    public override var canFocus: Bool { true }

    /// Draws the visible part of the text (or the placeholder while it is empty), with the
    /// cursor when the field has the focus.
    public override func draw(in canvas: Canvas) {
        let style = hasFocus ? canvas.theme.editor : canvas.theme.normal.underlined
        canvas.fill(canvas.bounds, style: style)
        if state.characters.isEmpty, !placeholder.isEmpty {
            canvas.write(placeholder, x: 0, y: 0, style: canvas.theme.dimmed, maxWidth: canvas.size.width)
        }
        let (shown, column) = state.visibleText(width: canvas.size.width)
        canvas.write(shown, x: 0, y: 0, style: style, maxWidth: canvas.size.width)
        if hasFocus { canvas.setCursor(x: column, y: 0) }
    }

    /// Enter calls `onSubmit` when it is set; other keys edit the text or move the cursor,
    /// and characters that do nothing go no further.
    public override func handle(_ event: Event) -> EventResult {
        guard case let .key(key) = event else { return .ignored }
        if key == .enter, let onSubmit {
            onSubmit(state.text)
            return .redraw
        }
        switch state.apply(key) {
        case .changed:
            onChange?(state.text)
            return .redraw
        case .moved:
            return .redraw
        case .ignored:
            if key.typedCharacter != nil { return .handled }
            return .ignored
        }
    }
}
