/// Text made safe for XML attribute values and element content.
public enum XMLText {
    /// Escapes `&`, `<`, `>`, `"`, and line breaks and tabs (so attribute values keep them).
    ///
    /// ```swift
    /// XMLText.escaped("Tom & \"Jerry\"")   // Tom &amp; &quot;Jerry&quot;
    /// ```
    public static func escaped(_ s: String) -> String {
        var r = ""
        r.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": r += "&amp;"
            case "<": r += "&lt;"
            case ">": r += "&gt;"
            case "\"": r += "&quot;"
            case "\n": r += "&#10;"
            case "\t": r += "&#9;"
            case "\r": r += "&#13;"
            default: r.unicodeScalars.append(c)
            }
        }
        return r
    }

    /// The first character of `s` that XML 1.0 cannot hold, escaped or not: a control
    /// character other than tab, line feed and carriage return, or U+FFFE and U+FFFF.
    public static func firstUnwritable(in s: String) -> Unicode.Scalar? {
        s.unicodeScalars.first { c in
            (c.value < 0x20 && c != "\t" && c != "\n" && c != "\r") || c.value == 0xFFFE || c.value == 0xFFFF
        }
    }
}
