/// A key press, as the driver decodes it.
///
///     Key.character("j"), Key.control("a"), Key.function(1), Key.enter
public enum Key: Hashable, Sendable {
    /// A typed character, Space included: `.character("j")`, `.character("G")`.
    case character(Character)
    /// Ctrl with a letter or one of `@[\]^_`, written in lower case: `.control("a")`.
    case control(Character)
    /// Alt (Meta) with a character: ESC followed by it.
    case alt(Character)
    /// A function key by its number: `.function(1)` is F1 (up to F24).
    case function(Int)
    /// The arrow keys.
    case up, down, left, right
    /// Ctrl-← and Ctrl-→, which move by word in a text editor.
    case controlLeft, controlRight
    /// Home, End, Page Up and Page Down.
    case home, end, pageUp, pageDown
    /// Insert, Delete (deleting forward) and Backspace (DEL and Ctrl-H arrive as Backspace).
    case insert, delete, backspace
    /// Enter (Return), Tab, Shift-Tab and Esc.
    case enter, tab, backTab, escape

    /// The key for a raw character code, turning control codes into named keys.
    public static func fromCharacter(_ character: Character) -> Key {
        guard let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1 else {
            return .character(character)
        }
        switch scalar.value {
        case 0x0D, 0x0A: return .enter
        case 0x09: return .tab
        case 0x1B: return .escape
        case 0x7F, 0x08: return .backspace
        case 0x00: return .control("@")
        case 0x01...0x1A: return .control(Character(Unicode.Scalar(scalar.value + 0x60)!))
        case 0x1C...0x1F: return .control(Character(Unicode.Scalar(scalar.value + 0x40)!))
        default: return .character(character)
        }
    }

    /// The printable character this key types, if any.
    public var typedCharacter: Character? {
        if case let .character(c) = self { return c }
        return nil
    }
}
