/// How a cell looks: colours and attributes.
///
///     let header = Style(foreground: .cyan, bold: true)
public struct Style: Hashable, Sendable {
    /// The colour of the text.
    public var foreground: Color
    /// The colour behind the text.
    public var background: Color
    /// Whether the text is bold.
    public var bold: Bool
    /// Whether foreground and background are swapped (reverse video).
    public var reverse: Bool
    /// Whether the text is underlined.
    public var underline: Bool
    /// Whether the text is drawn faint (the terminal's dim attribute).
    public var dim: Bool

    /// A style with these colours and attributes; by default the terminal's own colours and no attribute.
    public init(foreground: Color = .default, background: Color = .default, bold: Bool = false,
                reverse: Bool = false, underline: Bool = false, dim: Bool = false) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.reverse = reverse
        self.underline = underline
        self.dim = dim
    }

    /// The terminal's default look.
    public static let plain = Style()

    /// The same style with the bold attribute.
    public var bolded: Style { var s = self; s.bold = true; return s }
    /// The same style with reverse video.
    public var reversed: Style { var s = self; s.reverse = true; return s }
    /// The same style underlined.
    public var underlined: Style { var s = self; s.underline = true; return s }
}
