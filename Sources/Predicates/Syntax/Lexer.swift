import Foundation

/// Splits a format string into tokens.
///
/// Works on Unicode scalars, so that a combining mark after a quote or an escape cannot
/// merge with it into one character; token offsets count scalars, and errors convert them
/// to the character columns a person counts. Keywords are recognised in any case; strings
/// have their escapes resolved; each `%` conversion is numbered in order so the parser can
/// take its argument even after backtracking.
struct Lexer {
    private let chars: [Unicode.Scalar]
    private let source: String
    private var position = 0
    private var argumentCount = 0

    init(_ source: String) {
        self.source = source
        self.chars = Array(source.unicodeScalars)
    }

    /// All tokens, ending with `.end`.
    static func tokenize(_ source: String) throws(PredicateSyntaxError) -> [Token] {
        var lexer = Lexer(source)
        var tokens: [Token] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
        let i = position + ahead
        return i < chars.count ? chars[i] : nil
    }

    private func error(_ expected: String, at offset: Int, found: String? = nil) -> PredicateSyntaxError {
        let what = found ?? (offset < chars.count ? "'\(chars[offset])'" : "end of input")
        return PredicateSyntaxError(source: source, scalarOffset: offset, expected: expected, found: what)
    }

    private static func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
        c == "_" || c.properties.isAlphabetic
    }

    private static func isIdentifierPart(_ c: Unicode.Scalar) -> Bool {
        if c == "_" || c.properties.isAlphabetic || isDigit(c) { return true }
        switch c.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber: return true
        default: return false
        }
    }

    private static func isDigit(_ c: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(c)
    }

    private func text(_ range: Range<Int>) -> String {
        var s = String.UnicodeScalarView()
        s.append(contentsOf: chars[range])
        return String(s)
    }

    private mutating func next() throws(PredicateSyntaxError) -> Token {
        while let c = peek(), c.properties.isWhitespace { position += 1 }
        let start = position
        guard let c = peek() else { return Token(kind: .end, offset: start, end: start) }

        func token(_ kind: Token.Kind) -> Token { Token(kind: kind, offset: start, end: position) }

        if Lexer.isIdentifierStart(c) { return token(try word()) }
        // A number may start with its decimal point (`.5`); a key path's dot never comes
        // before a digit.
        if Lexer.isDigit(c) || (c == "." && peek(1).map(Lexer.isDigit) == true) { return token(try number()) }
        switch c {
        case "\"", "'":
            return token(.string(try string(quote: c)))
        case "#":
            position += 1
            guard let first = peek(), Lexer.isIdentifierStart(first) else {
                throw error("a key name after '#'", at: position)
            }
            return token(.identifier(identifierText()))
        case "$":
            position += 1
            guard let first = peek(), Lexer.isIdentifierStart(first) else {
                throw error("a variable name after '$'", at: position)
            }
            return token(.variable(identifierText()))
        case "@":
            position += 1
            guard let first = peek(), Lexer.isIdentifierStart(first) else {
                throw error("an operator name after '@'", at: position)
            }
            return token(.collectionOperator("@" + identifierText()))
        case "%":
            return token(try argument())
        default:
            break
        }
        let two = peek(1).map { String(c) + String($0) } ?? ""
        if ["==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||", "**", ":=", "<<", ">>"].contains(two) {
            position += 2
            return token(.symbol(two))
        }
        if "()[]{},.=<>!+-*/&|^".unicodeScalars.contains(c) {
            position += 1
            return token(.symbol(String(c)))
        }
        throw error("a key, a value or an operator", at: start)
    }

    private mutating func identifierText() -> String {
        let start = position
        while let c = peek(), Lexer.isIdentifierPart(c) { position += 1 }
        return text(start..<position)
    }

    /// An identifier, a reserved word, or a selector such as `add:to:` before `(`.
    private mutating func word() throws(PredicateSyntaxError) -> Token.Kind {
        let start = position
        var word = identifierText()
        let upper = word.uppercased()
        if upper == "UTI", peek() == "-" {
            // UTI-CONFORMS-TO and UTI-EQUALS are single reserved words.
            for candidate in ["UTI-CONFORMS-TO", "UTI-EQUALS"] {
                let n = candidate.count
                if start + n <= chars.count, text(start..<start + n).uppercased() == candidate {
                    position = start + n
                    return .keyword(candidate)
                }
            }
        }
        if peek() == ":", peek(1) != "=" {
            // A selector: name:name:...: up to the opening parenthesis.
            let save = position
            while peek() == ":" {
                position += 1
                word += ":"
                if let c = peek(), Lexer.isIdentifierStart(c) {
                    let partStart = position
                    let part = identifierText()
                    if peek() == ":" { word += part } else { position = partStart; break }
                }
            }
            var look = position
            while look < chars.count, chars[look].properties.isWhitespace { look += 1 }
            if look < chars.count, chars[look] == "(" { return .selector(word) }
            position = save
            throw error("'(' after the function name \(word)", at: look)
        }
        if ReservedWords.all.contains(upper) { return .keyword(upper) }
        return .identifier(word)
    }

    /// A numeric literal: decimal integer or float with exponent (`.5` too), `0x`, `0o`, `0b`.
    private mutating func number() throws(PredicateSyntaxError) -> Token.Kind {
        let start = position
        if peek() == "0", let p = peek(1), "xXoObB".unicodeScalars.contains(p) {
            position += 2
            let radix: Int
            switch p {
            case "x", "X": radix = 16
            case "o", "O": radix = 8
            default: radix = 2
            }
            let digitsStart = position
            while let c = peek(), c.isASCII, Int(String(c), radix: radix) != nil { position += 1 }
            let digits = text(digitsStart..<position)
            if digits.isEmpty { throw error("digits after '0\(p)'", at: position) }
            try rejectIdentifierTail(start)
            if let v = Int(digits, radix: radix) { return .number(.int(v)) }
            if let v = UInt64(digits, radix: radix) { return .number(.double(Double(v))) }
            throw error("a number that fits in 64 bits", at: start, found: text(start..<position))
        }
        var isFloat = false
        while let c = peek(), Lexer.isDigit(c) { position += 1 }
        if dotBelongsToNumber() {
            isFloat = true
            position += 1
            while let c = peek(), Lexer.isDigit(c) { position += 1 }
        }
        if exponentFollows(at: position) {
            isFloat = true
            position += 1
            if peek() == "+" || peek() == "-" { position += 1 }
            while let c = peek(), Lexer.isDigit(c) { position += 1 }
        }
        try rejectIdentifierTail(start)
        let literal = text(start..<position)
        if !isFloat, let v = Int(literal) { return .number(.int(v)) }
        guard let d = Double(literal) else {
            throw error("a number", at: start, found: literal)
        }
        return .number(.double(d))
    }

    /// Whether the dot after a number's digits is its decimal point: `95.5`, and `95.` and
    /// `1.e3` as C writes them. A dot before a name or `@` is a key path's.
    private func dotBelongsToNumber() -> Bool {
        guard peek() == "." else { return false }
        guard let next = peek(1), Lexer.isIdentifierStart(next) || next == "@" else { return true }
        return exponentFollows(at: position + 1)
    }

    /// Whether an exponent (`e3`, `E-2`) starts at `offset`.
    private func exponentFollows(at offset: Int) -> Bool {
        guard offset < chars.count, chars[offset] == "e" || chars[offset] == "E" else { return false }
        var look = offset + 1
        if look < chars.count, chars[look] == "+" || chars[look] == "-" { look += 1 }
        return look < chars.count && Lexer.isDigit(chars[look])
    }

    private func rejectIdentifierTail(_ start: Int) throws(PredicateSyntaxError) {
        if let c = peek(), Lexer.isIdentifierPart(c) {
            throw error("an operator or separator after the number \(text(start..<position))",
                        at: position)
        }
    }

    /// A quoted string; the other quote character is plain text inside it.
    private mutating func string(quote: Unicode.Scalar) throws(PredicateSyntaxError) -> String {
        let start = position
        position += 1
        var text = String.UnicodeScalarView()
        while true {
            guard let c = peek() else {
                let opening = PredicateSyntaxError(source: source, scalarOffset: start, expected: "", found: "")
                throw error("a closing \(quote) for the string that starts at \(opening.line):\(opening.column)",
                            at: position)
            }
            position += 1
            if c == quote { return String(text) }
            if c != "\\" { text.append(c); continue }
            guard let e = peek() else {
                throw error("a character after '\\'", at: position)
            }
            position += 1
            switch e {
            case "n": text.append("\n")
            case "t": text.append("\t")
            case "r": text.append("\r")
            case "0"..."7":
                position -= 1
                text.append(try scalar(digits: 3, radix: 8, escape: "\\ooo"))
            case "x", "X":
                text.append(try scalar(digits: 2, radix: 16, escape: "\\xhh"))
            case "u", "U":
                text.append(try scalar(digits: 4, radix: 16, escape: "\\uhhhh"))
            default:
                // \" \' \\ and any other character stand for themselves; in a LIKE pattern
                // the backslash is kept so it can escape * and ?.
                if e == "*" || e == "?" { text.append("\\") }
                text.append(e)
            }
        }
    }

    private mutating func scalar(digits: Int, radix: Int, escape: String) throws(PredicateSyntaxError) -> Unicode.Scalar {
        let start = position
        guard start + digits <= chars.count,
              chars[start..<start + digits].allSatisfy(\.isASCII),
              let value = UInt32(text(start..<start + digits), radix: radix),
              let scalar = Unicode.Scalar(value)
        else {
            throw error("\(digits) digits in a \(escape) escape", at: start)
        }
        position += digits
        return scalar
    }

    /// `%@`, `%K`, `%%` or a printf conversion such as `%d`, `%5.2f`, `%lld`.
    private mutating func argument() throws(PredicateSyntaxError) -> Token.Kind {
        let start = position
        position += 1
        while let c = peek(), "-+ #0123456789.".unicodeScalars.contains(c) { position += 1 }
        while let c = peek(), "hlqLzjt".unicodeScalars.contains(c) { position += 1 }
        guard let conversion = peek(), "@KdiuoxXDUOfFeEgGaAscCp".unicodeScalars.contains(conversion) else {
            throw error("a conversion such as %@, %K or %d", at: start,
                        found: "'" + text(start..<min(position + 1, chars.count)) + "'")
        }
        position += 1
        defer { argumentCount += 1 }
        return .argument(conversion: Character(conversion), index: argumentCount)
    }
}
