import Foundation

/// Splits a format string into tokens.
///
/// Works on the string's characters so offsets are columns a person counts. Keywords
/// are recognised in any case; strings have their escapes resolved; each `%` conversion
/// is numbered in order so the parser can take its argument even after backtracking.
struct Lexer {
    private let chars: [Character]
    private let source: String
    private var position = 0
    private var argumentCount = 0

    init(_ source: String) {
        self.source = source
        self.chars = Array(source)
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

    private func peek(_ ahead: Int = 0) -> Character? {
        let i = position + ahead
        return i < chars.count ? chars[i] : nil
    }

    private func error(_ expected: String, at offset: Int, found: String? = nil) -> PredicateSyntaxError {
        let what = found ?? (offset < chars.count ? "'\(chars[offset])'" : "end of input")
        return PredicateSyntaxError(source: source, offset: offset, expected: expected, found: what)
    }

    private static func isIdentifierStart(_ c: Character) -> Bool {
        c == "_" || c.isLetter
    }

    private static func isIdentifierPart(_ c: Character) -> Bool {
        c == "_" || c.isLetter || c.isNumber
    }

    private mutating func next() throws(PredicateSyntaxError) -> Token {
        while let c = peek(), c.isWhitespace { position += 1 }
        let start = position
        guard let c = peek() else { return Token(kind: .end, offset: start, end: start) }

        func token(_ kind: Token.Kind) -> Token { Token(kind: kind, offset: start, end: position) }

        if Lexer.isIdentifierStart(c) { return token(try word()) }
        if c.isASCII, c.isNumber { return token(try number()) }
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
        let two = peek(1).map { String([c, $0]) } ?? ""
        if ["==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||", "**", ":="].contains(two) {
            position += 2
            return token(.symbol(two))
        }
        if "()[]{},.=<>!+-*/".contains(c) {
            position += 1
            return token(.symbol(String(c)))
        }
        throw error("a key, a value or an operator", at: start)
    }

    private mutating func identifierText() -> String {
        let start = position
        while let c = peek(), Lexer.isIdentifierPart(c) { position += 1 }
        return String(chars[start..<position])
    }

    /// An identifier, a reserved word, or a selector such as `add:to:` before `(`.
    private mutating func word() throws(PredicateSyntaxError) -> Token.Kind {
        let start = position
        var text = identifierText()
        let upper = text.uppercased()
        if upper == "UTI", peek() == "-" {
            // UTI-CONFORMS-TO and UTI-EQUALS are single reserved words.
            for candidate in ["UTI-CONFORMS-TO", "UTI-EQUALS"] {
                let n = candidate.count
                if start + n <= chars.count, String(chars[start..<start + n]).uppercased() == candidate {
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
                text += ":"
                if let c = peek(), Lexer.isIdentifierStart(c) {
                    let part = identifierText()
                    if peek() == ":" { text += part } else { position -= part.count; break }
                }
            }
            var look = position
            while look < chars.count, chars[look].isWhitespace { look += 1 }
            if look < chars.count, chars[look] == "(" { return .selector(text) }
            position = save
            throw error("'(' after the function name \(text)", at: look)
        }
        if ReservedWords.all.contains(upper) { return .keyword(upper) }
        return .identifier(text)
    }

    /// A numeric literal: decimal integer or float with exponent, `0x`, `0o`, `0b`.
    private mutating func number() throws(PredicateSyntaxError) -> Token.Kind {
        let start = position
        if peek() == "0", let p = peek(1), "xXoObB".contains(p) {
            position += 2
            let radix: Int
            switch p {
            case "x", "X": radix = 16
            case "o", "O": radix = 8
            default: radix = 2
            }
            let digitsStart = position
            while let c = peek(), c.isHexDigit, Int(String(c), radix: radix) != nil { position += 1 }
            let digits = String(chars[digitsStart..<position])
            if digits.isEmpty { throw error("digits after '0\(p)'", at: position) }
            try rejectIdentifierTail(start)
            if let v = Int(digits, radix: radix) { return .number(.int(v)) }
            if let v = UInt64(digits, radix: radix) { return .number(.double(Double(v))) }
            throw error("a number that fits in 64 bits", at: start, found: String(chars[start..<position]))
        }
        var isFloat = false
        while let c = peek(), c.isASCII, c.isNumber { position += 1 }
        if peek() == ".", let d = peek(1), d.isASCII, d.isNumber {
            isFloat = true
            position += 1
            while let c = peek(), c.isASCII, c.isNumber { position += 1 }
        }
        if let e = peek(), e == "e" || e == "E" {
            var look = position + 1
            if look < chars.count, chars[look] == "+" || chars[look] == "-" { look += 1 }
            if look < chars.count, chars[look].isASCII, chars[look].isNumber {
                isFloat = true
                position = look
                while let c = peek(), c.isASCII, c.isNumber { position += 1 }
            }
        }
        try rejectIdentifierTail(start)
        let text = String(chars[start..<position])
        if !isFloat, let v = Int(text) { return .number(.int(v)) }
        guard let d = Double(text) else {
            throw error("a number", at: start, found: text)
        }
        return .number(.double(d))
    }

    private func rejectIdentifierTail(_ start: Int) throws(PredicateSyntaxError) {
        if let c = peek(), Lexer.isIdentifierPart(c) {
            throw error("an operator or separator after the number \(String(chars[start..<position]))",
                        at: position)
        }
    }

    /// A quoted string; the other quote character is plain text inside it.
    private mutating func string(quote: Character) throws(PredicateSyntaxError) -> String {
        let start = position
        position += 1
        var text = ""
        while true {
            guard let c = peek() else {
                throw error("a closing \(quote) for the string that starts at column \(start + 1)",
                            at: position)
            }
            position += 1
            if c == quote { return text }
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

    private mutating func scalar(digits: Int, radix: Int, escape: String) throws(PredicateSyntaxError) -> Character {
        let start = position
        guard start + digits <= chars.count,
              let value = UInt32(String(chars[start..<start + digits]), radix: radix),
              let scalar = Unicode.Scalar(value)
        else {
            throw error("\(digits) digits in a \(escape) escape", at: start)
        }
        position += digits
        return Character(scalar)
    }

    /// `%@`, `%K`, `%%` or a printf conversion such as `%d`, `%5.2f`, `%lld`.
    private mutating func argument() throws(PredicateSyntaxError) -> Token.Kind {
        let start = position
        position += 1
        while let c = peek(), "-+ #0123456789.".contains(c) { position += 1 }
        while let c = peek(), "hlqLzjt".contains(c) { position += 1 }
        guard let conversion = peek(), "@KdiuoxXDUOfFeEgGaAscCp".contains(conversion) else {
            throw error("a conversion such as %@, %K or %d", at: start,
                        found: "'" + String(chars[start..<min(position + 1, chars.count)]) + "'")
        }
        position += 1
        defer { argumentCount += 1 }
        return .argument(conversion: conversion, index: argumentCount)
    }
}
