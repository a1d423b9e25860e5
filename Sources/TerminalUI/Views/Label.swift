/// One line of text in a theme role, cut to the view's width.
///
///     let heading = Label("Due today", role: \.header)
public final class Label: View {
    /// The text shown, cut to the view's width.
    public var text: String
    /// Where the text sits within the view's width.
    public var alignment: Alignment
    /// The theme role the text is drawn in.
    public var role: KeyPath<Theme, Style>

    /// A label one row high and as wide as `text`, drawn in the theme's `role` style.
    public init(_ text: String, alignment: Alignment = .left, role: KeyPath<Theme, Style> = \.normal) {
        self.text = text
        self.alignment = alignment
        self.role = role
        super.init(frame: Rect(x: 0, y: 0, width: text.displayWidth, height: 1))
    }

    /// Draws the text across the view's width, aligned and in the role's style.
    public override func draw(in canvas: Canvas) {
        canvas.write(text, x: 0, y: 0, width: canvas.size.width, alignment: alignment, style: canvas.theme[keyPath: role])
    }
}
