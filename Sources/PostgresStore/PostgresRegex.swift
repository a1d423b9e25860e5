import Foundation

/// MATCHES patterns, written for ICU (as Core Data and the in-memory evaluator read them),
/// as PostgreSQL's regular expressions (AREs).
///
/// Most of the two languages agree. Where they differ, the pattern is rewritten:
///
/// | ICU | PostgreSQL | why |
/// | --- | --- | --- |
/// | the whole text must match | `\A(?:…)\Z` | `~` finds a match anywhere |
/// | `^`, `$` at line breaks, `.` across them (MULTILINE, DOTALL) | `(?w)` | the same modes, by another name |
/// | `\b`, `\B` | `\y`, `\Y` | `\b` is a backspace in PostgreSQL |
/// | `\xhh`, `\x{h…}` | `\u00hh`, `\U0000hhhh` | PostgreSQL's `\x` takes every hex digit that follows |
/// | `\z` | `\Z` | the very end of the text |
///
/// What PostgreSQL cannot say is refused with the construct named, never run with another
/// meaning: Unicode properties (`\p{…}`), possessive and atomic groups, named groups, inline
/// flags after the start, `\Q…\E`, set operations in brackets, and counts above 255.
enum PostgresRegex {
    struct Untranslatable: Error {
        var construct: String
    }

    static func translate(_ pattern: String) throws -> String {
        var out = ""
        let chars = Array(pattern)
        var i = 0
        func refuse(_ construct: String) -> Untranslatable { Untranslatable(construct: construct) }
        while i < chars.count {
            let c = chars[i]
            switch c {
            case "\\":
                guard i + 1 < chars.count else { throw refuse("a \\ at the end") }
                let (text, used) = try escape(chars, i, inBrackets: false)
                out += text
                i += used
                continue
            case "(":
                if i + 1 < chars.count, chars[i + 1] == "?" {
                    let rest = String(chars[(i + 2)...].prefix(3))
                    if rest.hasPrefix(":") || rest.hasPrefix("=") || rest.hasPrefix("!") || rest.hasPrefix("<=") || rest.hasPrefix("<!") {
                        out.append("(?")
                        i += 2
                        continue
                    }
                    throw refuse("the group “(?\(rest.prefix(1))”")
                }
                out.append(c)
            case "[":
                let (text, used) = try bracket(chars, i)
                out += text
                i += used
                continue
            case "{":
                // A count: {n}, {n,}, {n,m}; PostgreSQL counts to 255.
                var j = i + 1
                var body = ""
                while j < chars.count, chars[j] != "}" { body.append(chars[j]); j += 1 }
                let numbers = body.split(separator: ",", omittingEmptySubsequences: false)
                if j < chars.count, !numbers.isEmpty, numbers.count <= 2, numbers.allSatisfy({ $0.isEmpty || $0.allSatisfy(\.isNumber) }),
                   !numbers[0].isEmpty {
                    if numbers.contains(where: { (Int($0) ?? 0) > 255 }) { throw refuse("a count above 255 ({\(body)})") }
                    out += "{" + body + "}"
                    i = j + 1
                    if i < chars.count, chars[i] == "+" { throw refuse("a possessive count ({\(body)}+)") }
                    continue
                }
                out += "\\{"
            case "*", "+", "?":
                out.append(c)
                if i + 1 < chars.count, chars[i + 1] == "+" { throw refuse("a possessive quantifier (\(c)+)") }
            default:
                out.append(c)
            }
            i += 1
        }
        return "(?w)\\A(?:" + out + ")\\Z"
    }

    /// An escape at `chars[i]` (the backslash): its PostgreSQL text and how many characters it took.
    private static func escape(_ chars: [Character], _ i: Int, inBrackets: Bool) throws -> (String, Int) {
        let e = chars[i + 1]
        func refuse(_ what: String) -> Untranslatable { Untranslatable(construct: what) }
        switch e {
        case "b": return inBrackets ? ("\\b", 2) : ("\\y", 2)
        case "B": guard !inBrackets else { throw refuse("\\B in brackets") }; return ("\\Y", 2)
        case "d", "w", "s": return ("\\\(e)", 2)
        case "D", "W", "S":
            guard !inBrackets else { throw refuse("\\\(e) in brackets") }
            return ("\\\(e)", 2)
        case "A": return ("\\A", 2)
        case "z": return ("\\Z", 2)
        case "t", "n", "r", "f", "e", "a": return ("\\\(e)", 2)
        case "u":
            let digits = String(chars[(i + 2)...].prefix(4))
            guard digits.count == 4, UInt32(digits, radix: 16) != nil else { throw refuse("\\u without four hex digits") }
            return ("\\u" + digits, 6)
        case "U":
            let digits = String(chars[(i + 2)...].prefix(8))
            guard digits.count == 8, UInt32(digits, radix: 16) != nil else { throw refuse("\\U without eight hex digits") }
            return ("\\U" + digits, 10)
        case "x":
            if i + 2 < chars.count, chars[i + 2] == "{" {
                var j = i + 3
                var digits = ""
                while j < chars.count, chars[j] != "}" { digits.append(chars[j]); j += 1 }
                guard j < chars.count, let value = UInt32(digits, radix: 16), value <= 0x10FFFF else { throw refuse("\\x{\(digits)}") }
                return (String(format: "\\U%08X", value), j - i + 1)
            }
            let digits = String(chars[(i + 2)...].prefix(2))
            guard digits.count == 2, UInt32(digits, radix: 16) != nil else { throw refuse("\\x without two hex digits") }
            return ("\\u00" + digits, 4)
        case "c":
            guard i + 2 < chars.count else { throw refuse("\\c at the end") }
            return ("\\c" + String(chars[i + 2]), 3)
        case "1"..."9":
            guard !inBrackets else { throw refuse("a back reference in brackets") }
            return ("\\\(e)", 2)
        default:
            if e.isLetter || e.isNumber { throw refuse("\\\(e)") }
            // An escaped symbol stands for itself.
            return ("\\\(e)", 2)
        }
    }

    /// A bracket expression at `chars[i]`: its PostgreSQL text and how many characters it took.
    private static func bracket(_ chars: [Character], _ start: Int) throws -> (String, Int) {
        var out = "["
        var i = start + 1
        if i < chars.count, chars[i] == "^" { out.append("^"); i += 1 }
        // A ] first is a member.
        if i < chars.count, chars[i] == "]" { out += "\\]"; i += 1 }
        while i < chars.count {
            let c = chars[i]
            if c == "]" { return (out + "]", i - start + 1) }
            if c == "\\" {
                guard i + 1 < chars.count else { break }
                let (text, used) = try escape(chars, i, inBrackets: true)
                out += text
                i += used
                continue
            }
            if c == "[" {
                // POSIX classes ([:alpha:]) read alike; nested sets do not exist in PostgreSQL.
                if i + 1 < chars.count, chars[i + 1] == ":", let end = (i + 2..<chars.count).first(where: { chars[$0] == "]" && chars[$0 - 1] == ":" }) {
                    out += String(chars[i...end])
                    i = end + 1
                    continue
                }
                throw Untranslatable(construct: "a set inside a set ([…[…]…])")
            }
            if (c == "&" || c == "-"), i + 1 < chars.count, chars[i + 1] == c, c == "&" || (i + 2 < chars.count && chars[i + 2] == "[") {
                throw Untranslatable(construct: "a set operation (\(c)\(c)) in brackets")
            }
            out.append(c)
            i += 1
        }
        throw Untranslatable(construct: "a [ without its ]")
    }
}
