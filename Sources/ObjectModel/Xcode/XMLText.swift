/// Text made safe for XML attribute values and element content.
public enum XMLText {
    /// Escapes `&`, `<`, `>`, `"`, and newlines and tabs (so attribute values keep them).
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
            default: r.unicodeScalars.append(c)
            }
        }
        return r
    }
}
