/// How a cell looks: colours and attributes.
///
///     let header = Style(foreground: .cyan, bold: true)
public struct Style: Hashable, Sendable {
    public var foreground: Color
    public var background: Color
    public var bold: Bool
    public var reverse: Bool
    public var underline: Bool
    public var dim: Bool

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
