/// One piece of Swift source as the port reads it: enough of Swift's lexical grammar to tell
/// code from comments and string literals, so that an edit never lands inside either.
struct SwiftToken: Equatable {
    enum Kind: Equatable {
        /// A name or keyword (`import`, `NSSortDescriptor`); a backquoted name without its quotes.
        case identifier
        /// `@name`, the text holding the name only.
        case attribute
        /// `#name` (`#keyPath`, `#selector`, `#if`), the text holding the name only.
        case pound
        /// A string literal, whole: quotes, pounds, interpolations and all.
        case literal
        /// A number.
        case number
        /// One character of punctuation or an operator.
        case punctuation
    }

    var kind: Kind
    var text: String
    /// Where the token starts and ends, as UTF-8 offsets into the source.
    var start: Int
    var end: Int
}

/// Splits Swift source into tokens, skipping white space and comments.
///
/// A string literal is one token, but the code in its interpolations is read as code too
/// (its tokens follow the literal's), so that `"\(#keyPath(Item.title))"` is found. Raw
/// strings (`#"…"#`), multi-line strings and nested block comments are read as Swift reads
/// them. Source the tokenizer cannot finish (an unterminated string or comment) ends at the
/// end of the file: what was read stands, nothing is guessed past it.
struct SwiftTokenizer {
    private let bytes: [UInt8]
    private(set) var tokens: [SwiftToken] = []

    init(_ source: String) {
        bytes = Array(source.utf8)
        var index = 0
        while index < bytes.count { index = scanToken(at: index) ?? bytes.count }
    }

    static func tokens(of source: String) -> [SwiftToken] { SwiftTokenizer(source).tokens }

    // MARK: Code

    /// Reads an interpolation's code from `index` up to the `)` that closes it; returns the
    /// offset after that parenthesis, or nil at the end of the source.
    private mutating func scanCode(from index: Int) -> Int? {
        var index = index
        var depth = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: ")") && depth == 0 { return index + 1 }
            if bytes[index] == UInt8(ascii: "(") { depth += 1 }
            if bytes[index] == UInt8(ascii: ")") { depth -= 1 }
            guard let next = scanToken(at: index) else { return nil }
            index = next
        }
        return nil
    }

    /// Reads the token (or white space, or comment) at `index`; returns the offset after it.
    private mutating func scanToken(at index: Int) -> Int? {
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
            return index + 1
        case UInt8(ascii: "/") where peek(index + 1) == UInt8(ascii: "/"):
            var end = index
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            return end
        case UInt8(ascii: "/") where peek(index + 1) == UInt8(ascii: "*"):
            return skipBlockComment(from: index)
        case UInt8(ascii: "\""):
            return scanString(from: index, pounds: 0)
        case UInt8(ascii: "#"):
            var pounds = 0
            while peek(index + pounds) == UInt8(ascii: "#") { pounds += 1 }
            if peek(index + pounds) == UInt8(ascii: "\"") { return scanString(from: index, pounds: pounds) }
            if let head = peek(index + 1), Self.isIdentifierHead(head) {
                let end = identifierEnd(from: index + 1)
                append(.pound, index + 1, end, tokenStart: index)
                return end
            }
            append(.punctuation, index, index + 1)
            return index + 1
        case UInt8(ascii: "@"):
            if let head = peek(index + 1), Self.isIdentifierHead(head) {
                let end = identifierEnd(from: index + 1)
                append(.attribute, index + 1, end, tokenStart: index)
                return end
            }
            append(.punctuation, index, index + 1)
            return index + 1
        case UInt8(ascii: "`"):
            var end = index + 1
            while end < bytes.count && bytes[end] != UInt8(ascii: "`") && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            append(.identifier, index + 1, end, tokenStart: index, tokenEnd: min(end + 1, bytes.count))
            return min(end + 1, bytes.count)
        case _ where Self.isIdentifierHead(byte):
            let end = identifierEnd(from: index)
            append(.identifier, index, end)
            return end
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            var end = index
            while end < bytes.count, Self.isIdentifierBody(bytes[end]) || bytes[end] == UInt8(ascii: ".") && peek(end + 1).map(Self.isDigit) == true { end += 1 }
            append(.number, index, end)
            return end
        default:
            append(.punctuation, index, index + 1)
            return index + 1
        }
    }

    // MARK: Comments and literals

    /// `/* … */`, nested as Swift nests them.
    private func skipBlockComment(from index: Int) -> Int {
        var depth = 0
        var index = index
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "/") && peek(index + 1) == UInt8(ascii: "*") {
                depth += 1
                index += 2
            } else if bytes[index] == UInt8(ascii: "*") && peek(index + 1) == UInt8(ascii: "/") {
                depth -= 1
                index += 2
                if depth == 0 { return index }
            } else {
                index += 1
            }
        }
        return bytes.count
    }

    /// A string literal from its first `#` or quote: one literal token, then the tokens of
    /// its interpolations.
    private mutating func scanString(from start: Int, pounds: Int) -> Int? {
        var index = start + pounds
        let multiline = peek(index + 1) == UInt8(ascii: "\"") && peek(index + 2) == UInt8(ascii: "\"")
        let quotes = multiline ? 3 : 1
        index += quotes
        var interpolated: [SwiftToken] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\") && hasPounds(pounds, at: index + 1) {
                let after = index + 1 + pounds
                if peek(after) == UInt8(ascii: "(") {
                    // The interpolation's code: tokens of its own, after the literal.
                    var inner = SwiftTokenizer(bytes: bytes)
                    let end = inner.scanCode(from: after + 1)
                    interpolated += inner.tokens
                    guard let end else { return finishString(start, bytes.count, interpolated) }
                    index = end
                } else {
                    index = after + 1
                }
            } else if byte == UInt8(ascii: "\"") && hasQuotes(quotes, at: index) && hasPounds(pounds, at: index + quotes) {
                return finishString(start, index + quotes + pounds, interpolated)
            } else if byte == UInt8(ascii: "\n") && !multiline {
                return finishString(start, index, interpolated)
            } else {
                index += 1
            }
        }
        return finishString(start, bytes.count, interpolated)
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func finishString(_ start: Int, _ end: Int, _ interpolated: [SwiftToken]) -> Int {
        tokens.append(SwiftToken(kind: .literal, text: text(start, end), start: start, end: end))
        tokens += interpolated
        return end
    }

    // MARK: Characters

    private func peek(_ index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private func hasPounds(_ count: Int, at index: Int) -> Bool {
        (0..<count).allSatisfy { peek(index + $0) == UInt8(ascii: "#") }
    }

    private func hasQuotes(_ count: Int, at index: Int) -> Bool {
        (0..<count).allSatisfy { peek(index + $0) == UInt8(ascii: "\"") }
    }

    private func identifierEnd(from index: Int) -> Int {
        var end = index
        while end < bytes.count && Self.isIdentifierBody(bytes[end]) { end += 1 }
        return end
    }

    private mutating func append(_ kind: SwiftToken.Kind, _ start: Int, _ end: Int, tokenStart: Int? = nil, tokenEnd: Int? = nil) {
        tokens.append(SwiftToken(kind: kind, text: text(start, end), start: tokenStart ?? start, end: tokenEnd ?? end))
    }

    private func text(_ start: Int, _ end: Int) -> String {
        String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// Letters, `_`, and any byte of a character beyond ASCII (Swift's names take most of them).
    static func isIdentifierHead(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    static func isIdentifierBody(_ byte: UInt8) -> Bool { isIdentifierHead(byte) || isDigit(byte) }

    static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}
