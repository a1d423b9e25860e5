/// A terminal colour: the terminal's default, one of the eight basic colours (optionally
/// bright), or an entry of the 256-colour palette with a basic colour to fall back to.
///
///     let accent = Color.palette(33, fallback: .blue)
public struct Color: Hashable, Sendable {
    /// The eight colours every colour terminal has.
    public enum Basic: Int, Sendable, CaseIterable {
        /// The basic colours, numbered 0 (black) to 7 (white) as the terminal numbers them.
        case black = 0, red, green, yellow, blue, magenta, cyan, white
    }

    enum Kind: Hashable, Sendable {
        case terminalDefault
        case basic(Basic, bright: Bool)
        case palette(UInt8, fallback: Basic)
    }

    let kind: Kind

    /// The terminal's own foreground or background colour.
    public static let `default` = Color(kind: .terminalDefault)
    /// Basic black, colour 0; `bright(.black)` is its bright variant.
    public static let black = Color(kind: .basic(.black, bright: false))
    /// Basic red, colour 1; `bright(.red)` is its bright variant.
    public static let red = Color(kind: .basic(.red, bright: false))
    /// Basic green, colour 2; `bright(.green)` is its bright variant.
    public static let green = Color(kind: .basic(.green, bright: false))
    /// Basic yellow, colour 3; `bright(.yellow)` is its bright variant.
    public static let yellow = Color(kind: .basic(.yellow, bright: false))
    /// Basic blue, colour 4; `bright(.blue)` is its bright variant.
    public static let blue = Color(kind: .basic(.blue, bright: false))
    /// Basic magenta, colour 5; `bright(.magenta)` is its bright variant.
    public static let magenta = Color(kind: .basic(.magenta, bright: false))
    /// Basic cyan, colour 6; `bright(.cyan)` is its bright variant.
    public static let cyan = Color(kind: .basic(.cyan, bright: false))
    /// Basic white, colour 7; `bright(.white)` is its bright variant.
    public static let white = Color(kind: .basic(.white, bright: false))

    /// A bright variant of a basic colour (palette entries 8–15).
    public static func bright(_ basic: Basic) -> Color { Color(kind: .basic(basic, bright: true)) }

    /// An entry of the 256-colour palette, shown as `fallback` on 8-colour terminals.
    public static func palette(_ index: UInt8, fallback: Basic) -> Color {
        Color(kind: .palette(index, fallback: fallback))
    }

    /// Whether this is the terminal's own default colour.
    public var isDefault: Bool { kind == .terminalDefault }

    /// The colour number on a terminal with `colors` colours (8, 16, 256), or nil for the default.
    public func number(forColorCount colors: Int) -> Int? {
        switch kind {
        case .terminalDefault:
            return nil
        case let .basic(basic, bright):
            return bright && colors >= 16 ? basic.rawValue + 8 : basic.rawValue
        case let .palette(index, fallback):
            return colors >= 256 ? Int(index) : fallback.rawValue
        }
    }
}
