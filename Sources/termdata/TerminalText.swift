/// Text from a file or a store, made safe to print to a terminal: control characters
/// (escape sequences among them, which a terminal would act on: move the cursor, retitle the
/// window, or worse) are written as escapes. Line breaks stay, unless `keepsLineBreaks` is
/// false (a cell of `query`'s table, which keeps to one line).
///
/// ```swift
/// TerminalText.safe("Item\u{1B}]0;owned\u{7}")   // Item\u{1b}]0;owned\u{7}
/// ```
enum TerminalText {
    static func safe(_ text: String, keepsLineBreaks: Bool = true) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) && !(keepsLineBreaks && $0 == "\n") }) else { return text }
        var safe = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n" where keepsLineBreaks: safe.unicodeScalars.append(scalar)
            case "\n": safe += "\\n"
            case "\r": safe += "\\r"
            case "\t": safe += "\\t"
            case _ where isControl(scalar): safe += "\\u{\(String(scalar.value, radix: 16))}"
            default: safe.unicodeScalars.append(scalar)
            }
        }
        return safe
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control
    }
}
