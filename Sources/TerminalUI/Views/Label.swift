/// One line of text in a theme role, cut to the view's width.
///
///     let heading = Label("Due today", role: \.header)
public final class Label: View {
    public var text: String
    public var alignment: Alignment
    /// The theme role the text is drawn in.
    public var role: KeyPath<Theme, Style>

    public init(_ text: String, alignment: Alignment = .left, role: KeyPath<Theme, Style> = \.normal) {
        self.text = text
        self.alignment = alignment
        self.role = role
        super.init(frame: Rect(x: 0, y: 0, width: text.displayWidth, height: 1))
    }

    public override func draw(in canvas: Canvas) {
        canvas.write(text, x: 0, y: 0, width: canvas.size.width, alignment: alignment, style: canvas.theme[keyPath: role])
    }
}
