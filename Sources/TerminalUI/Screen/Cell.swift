/// One cell of the screen: the character shown, how many cells it takes, and its style.
///
/// A two-cell character is followed by a continuation cell of width 0 that shows nothing.
public struct Cell: Hashable, Sendable {
    /// The character shown; `\u{0}` in the continuation cell of a two-cell character.
    public var character: Character
    /// How many columns the character takes: 1, 2 for a wide character, 0 for a continuation cell.
    public var width: UInt8
    /// The colours and attributes the cell is drawn in.
    public var style: Style

    /// A cell showing `character` in `style`; without `width`, the character's own display width.
    public init(_ character: Character, width: Int? = nil, style: Style = .plain) {
        self.character = character
        self.width = UInt8(clamping: width ?? DisplayWidth.of(character))
        self.style = style
    }

    /// An empty cell.
    public static let blank = Cell(" ", width: 1)

    /// The right half of a two-cell character.
    public static func continuation(style: Style) -> Cell { Cell("\u{0}", width: 0, style: style) }

    /// Whether this cell is the right half of a two-cell character.
    public var isContinuation: Bool { width == 0 }
}
