/// A one-line text input that scrolls horizontally when the text is longer than the field.
///
///     let field = TextField(text: "Milk", placeholder: "Title")
///     field.onSubmit = { text in save(text) }
public final class TextField: View {
    /// The text, cursor and undo history.
    public var state: TextEditingState
    public var placeholder: String
    /// Called after each change of the text.
    public var onChange: ((String) -> Void)?
    /// Called on Enter.
    public var onSubmit: ((String) -> Void)?

    public init(text: String = "", placeholder: String = "") {
        self.state = TextEditingState(text)
        self.placeholder = placeholder
        super.init(frame: Rect(x: 0, y: 0, width: 20, height: 1))
    }

    public var text: String {
        get { state.text }
        set { state = TextEditingState(newValue) }
    }

    public override var canFocus: Bool { true }

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
