/// The bottom line taking typed input for search or filter: `/milk█`.
///
/// Shown by `Application.beginPrompt`; Enter submits, Esc cancels, every change is reported.
public final class PromptLine: View {
    public let label: String
    public var state: TextEditingState
    public var onChange: ((String) -> Void)?
    public var onSubmit: ((String) -> Void)?
    public var onCancel: (() -> Void)?

    public init(label: String, text: String = "") {
        self.label = label
        self.state = TextEditingState(text)
        super.init()
    }

    public override func draw(in canvas: Canvas) {
        let theme = canvas.theme
        canvas.fill(canvas.bounds, style: theme.normal)
        let used = canvas.write(label, x: 0, y: 0, style: theme.header)
        let (shown, column) = state.visibleText(width: max(0, canvas.size.width - used))
        canvas.write(shown, x: used, y: 0, style: theme.normal)
        canvas.setCursor(x: used + column, y: 0)
    }

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
        default:
            if state.apply(key) == .changed { onChange?(state.text) }
            return .redraw
        }
    }
}
