/// How many terminal cells text takes, the way `wcwidth` counts them.
///
/// East Asian wide and fullwidth characters and emoji take two cells, combining marks and
/// other zero-width scalars none, everything else printable one. C0 controls and DEL take
/// one: the canvas draws them as control pictures (`␊`, `␉`). A grapheme cluster takes
/// the width of its first scalar, and a variation selector 16 turns it into a two-cell
/// emoji; a cluster of several scalars that each take cells (a joined emoji sequence, a
/// flag) takes theirs added up, as curses and most terminals draw it.
///
///     DisplayWidth.of("日本")    // 4
///     DisplayWidth.of("e\u{301}") // 1
public enum DisplayWidth {
    /// The cells taken by one Unicode scalar: 0, 1 or 2.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        // C0 controls and DEL are drawn as their control pictures (␊ for a line feed), one cell.
        if v <= 0x7F { return 1 }
        if v < 0xA0 { return 0 }
        if v < 0x300 { return v == 0xAD ? 0 : 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control:
            return 0
        default:
            break
        }
        if v == 0x200B || (0x1160...0x11FF).contains(v) { return 0 }
        if isWide(v) { return 2 }
        return 1
    }

    /// The cells taken by one grapheme cluster: those of its terminal units (see `units(of:)`).
    public static func of(_ character: Character) -> Int {
        if character.isASCII { return character.unicodeScalars.first.map { of($0) } ?? 0 }
        let scalars = character.unicodeScalars
        guard scalars.count > 1 else { return scalars.first.map { of($0) } ?? 0 }
        return units(of: character).reduce(0) { $0 + unitWidth($1) }
    }

    /// A grapheme cluster as the terminal and curses lay it out: one unit per scalar that
    /// takes cells, each with the zero-width scalars after it (combining marks, a variation
    /// selector, a zero-width joiner). Most clusters are one unit; an emoji sequence joined
    /// by U+200D (a family) or a flag (two regional indicators) are several, each drawn in
    /// cells of its own, as `wcwidth` counts them, so that the screen and curses agree on
    /// where the next character goes.
    public static func units(of character: Character) -> [Character] {
        let scalars = character.unicodeScalars
        guard scalars.count > 1, !character.isASCII else { return [character] }
        var units: [String.UnicodeScalarView] = []
        var current = String.UnicodeScalarView()
        var hasBase = false
        for scalar in scalars {
            if of(scalar) > 0, hasBase {
                units.append(current)
                current = String.UnicodeScalarView()
            }
            if of(scalar) > 0 { hasBase = true }
            current.append(scalar)
        }
        units.append(current)
        guard units.count > 1 else { return [character] }
        return units.map { Character(String($0)) }
    }

    /// The cells taken by one terminal unit: the width of its first scalar; a variation
    /// selector 16 turns it into a two-cell emoji.
    private static func unitWidth(_ unit: Character) -> Int {
        let scalars = unit.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if unit.isASCII { return of(first) }
        var width = of(first)
        if width == 1, scalars.contains(where: { $0.value == 0xFE0F }), first.properties.isEmoji {
            width = 2
        }
        if width == 0, scalars.count > 1 {
            width = scalars.dropFirst().map { of($0) }.max() ?? 0
        }
        return width
    }

    /// The cells taken by a string.
    public static func of<S: StringProtocol>(_ text: S) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
        0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
        0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
        0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
        0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
        0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
        0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B16F,
        0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A,
        0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248, 0x1F250...0x1F251,
        0x1F260...0x1F265, 0x1F300...0x1F320, 0x1F32D...0x1F335, 0x1F337...0x1F37C,
        0x1F37E...0x1F393, 0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0,
        0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E, 0x1F440...0x1F440, 0x1F442...0x1F4FC,
        0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567, 0x1F57A...0x1F57A,
        0x1F595...0x1F596, 0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5,
        0x1F6CC...0x1F6CC, 0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D7, 0x1F6DC...0x1F6DF,
        0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7EB, 0x1F7F0...0x1F7F0,
        0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF, 0x1FA70...0x1FAFF,
        0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    private static func isWide(_ value: UInt32) -> Bool {
        if value < 0x1100 { return false }
        var low = 0, high = wideRanges.count - 1
        while low <= high {
            let mid = (low + high) / 2
            let range = wideRanges[mid]
            if value < range.lowerBound { high = mid - 1 }
            else if value > range.upperBound { low = mid + 1 }
            else { return true }
        }
        return false
    }
}
