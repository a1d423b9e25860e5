/// Whether a name from a model can stand in Swift source as it is: an identifier by the Swift
/// language reference's lexical grammar, with nothing a reader cannot see.
///
/// A model's names are its author's, and a model file may come from anywhere: a class name
/// pasted into source unchecked could close the declaration and add statements of its own.
/// The grammar lets some invisible characters into identifiers (zero-width joiners, the
/// bidirectional overrides); generated code refuses them too, since two names that look alike
/// but differ, or a name that reads backwards, have no place in code a person reviews.
///
/// ```swift
/// SwiftIdentifier.problem(with: "Plant")            // nil
/// SwiftIdentifier.problem(with: "Plant{}; run()")   // "“{” (U+007B) cannot be in a Swift name"
/// ```
enum SwiftIdentifier {
    /// Why `name` cannot be a Swift identifier, or nil when it can.
    static func problem(with name: String) -> String? {
        guard let first = name.unicodeScalars.first else { return "the name is empty" }
        for (i, scalar) in name.unicodeScalars.enumerated() {
            if isInvisible(scalar) { return "it holds \(codePoint(scalar)), a character that does not show" }
            let allowed = i == 0 ? isHead(first) : isHead(scalar) || isContinuation(scalar)
            if !allowed { return "“\(scalar)” (\(codePoint(scalar))) cannot \(i == 0 ? "begin" : "be in") a Swift name" }
        }
        return nil
    }

    /// `U+007B`.
    static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// Format characters, separators and controls: present in the text, absent on screen.
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .format, .control, .spaceSeparator, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    /// identifier-head: letters, `_`, and the ranges the language reference lists.
    private static func isHead(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if scalar.isASCII { return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" }
        return headRanges.contains { $0.contains(v) }
    }

    /// identifier-character beyond the head: digits and combining marks.
    private static func isContinuation(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar) || continuationRanges.contains { $0.contains(scalar.value) }
    }

    private static let headRanges: [ClosedRange<UInt32>] = [
        0xA8...0xA8, 0xAA...0xAA, 0xAD...0xAD, 0xAF...0xAF, 0xB2...0xB5, 0xB7...0xBA, 0xBC...0xBE, 0xC0...0xD6,
        0xD8...0xF6, 0xF8...0xFF, 0x100...0x2FF, 0x370...0x167F, 0x1681...0x180D, 0x180F...0x1DBF, 0x1E00...0x1FFF,
        0x200B...0x200D, 0x202A...0x202E, 0x203F...0x2040, 0x2054...0x2054, 0x2060...0x206F, 0x2070...0x20CF,
        0x2100...0x218F, 0x2460...0x24FF, 0x2776...0x2793, 0x2C00...0x2DFF, 0x2E80...0x2FFF, 0x3004...0x3007,
        0x3021...0x302F, 0x3031...0x303F, 0x3040...0xD7FF, 0xF900...0xFD3D, 0xFD40...0xFDCF, 0xFDF0...0xFE1F,
        0xFE30...0xFE44, 0xFE47...0xFFFD, 0x10000...0x1FFFD, 0x20000...0x2FFFD, 0x30000...0x3FFFD, 0x40000...0x4FFFD,
        0x50000...0x5FFFD, 0x60000...0x6FFFD, 0x70000...0x7FFFD, 0x80000...0x8FFFD, 0x90000...0x9FFFD,
        0xA0000...0xAFFFD, 0xB0000...0xBFFFD, 0xC0000...0xCFFFD, 0xD0000...0xDFFFD, 0xE0000...0xEFFFD,
    ]

    private static let continuationRanges: [ClosedRange<UInt32>] = [
        0x300...0x36F, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F,
    ]
}
