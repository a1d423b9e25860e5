/// One cell of the screen: the character shown, how many cells it takes, and its style.
///
/// A two-cell character is followed by a continuation cell of width 0 that shows nothing.
public struct Cell: Hashable, Sendable {
    public var character: Character
    public var width: UInt8
    public var style: Style

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
