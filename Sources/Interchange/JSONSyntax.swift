import Foundation

/// JSON text checked strictly (RFC 8259) before it is decoded: a trailing comma or a key
/// given twice in one object is an error, as is anything the grammar does not allow, and
/// every error says where, as line:column.
///
/// ```swift
/// try JSONSyntax.check(Data(#"{"a": 1, "a": 2}"#.utf8))   // 1:10: the key "a" is given twice in this object
/// ```
public enum JSONSyntax {
    /// The deepest nesting of arrays and objects taken.
    public static let maximumDepth = 512

    public static func check(_ data: Data) throws(JSONSyntaxError) {
        let bytes = [UInt8](data)
        var scanner = Scanner(bytes: bytes)
        scanner.skipSpace()
        try scanner.value(depth: 0)
        scanner.skipSpace()
        if scanner.index < bytes.count { throw scanner.error("more after the end of the JSON value") }
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
            // A byte order mark is not JSON, but harmless before it.
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while let c = current, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { index += 1 }
        }

        func error(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
            let end = min(offset ?? index, bytes.count)
            var line = 1, lineStart = 0
            for i in 0..<end where bytes[i] == 0x0A { line += 1; lineStart = i + 1 }
            let column = String(decoding: bytes[lineStart..<end], as: UTF8.self).count + 1
            return JSONSyntaxError(line: line, column: column, message: message)
        }

        func describeCurrent() -> String {
            guard let c = current else { return "the end of the text" }
            if c >= 0x21, c < 0x7F { return "'\(Character(UnicodeScalar(c)))'" }
            return String(format: "the byte 0x%02X", c)
        }

        mutating func value(depth: Int) throws(JSONSyntaxError) {
            guard depth < JSONSyntax.maximumDepth else { throw error("nested more than \(JSONSyntax.maximumDepth) deep") }
            switch current {
            case UInt8(ascii: "{")?: try object(depth: depth)
            case UInt8(ascii: "[")?: try array(depth: depth)
            case UInt8(ascii: "\"")?: _ = try string()
            case UInt8(ascii: "t")?: try literal("true")
            case UInt8(ascii: "f")?: try literal("false")
            case UInt8(ascii: "n")?: try literal("null")
            case let c? where c == UInt8(ascii: "-") || (c >= 0x30 && c <= 0x39): try number()
            default: throw error("expected a value, found \(describeCurrent())")
            }
        }

        mutating func literal(_ word: String) throws(JSONSyntaxError) {
            let w = Array(word.utf8)
            guard index + w.count <= bytes.count, Array(bytes[index..<index + w.count]) == w else {
                throw error("expected a value, found \(describeCurrent())")
            }
            index += w.count
        }

        mutating func number() throws(JSONSyntaxError) {
            let start = index
            func digits() -> Int {
                var n = 0
                while let c = current, c >= 0x30, c <= 0x39 { index += 1; n += 1 }
                return n
            }
            if current == UInt8(ascii: "-") { index += 1 }
            if current == UInt8(ascii: "0") {
                index += 1
                if let c = current, c >= 0x30, c <= 0x39 { throw error("a number does not start with 0 and more digits", at: start) }
            } else if digits() == 0 {
                throw error("expected digits in a number", at: start)
            }
            if current == UInt8(ascii: ".") {
                index += 1
                if digits() == 0 { throw error("expected digits after the decimal point") }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                if digits() == 0 { throw error("expected digits in the exponent") }
            }
        }

        /// Reads a string and returns its value (for comparing keys).
        mutating func string() throws(JSONSyntaxError) -> String {
            let start = index
            index += 1
            var value = ""
            var run = index
            while true {
                guard let c = current else { throw error("a string that does not end", at: start) }
                if c == UInt8(ascii: "\"") {
                    value += String(decoding: bytes[run..<index], as: UTF8.self)
                    index += 1
                    return value
                }
                if c < 0x20 { throw error("a control character in a string (write it as an escape, such as \\n)") }
                if c == UInt8(ascii: "\\") {
                    value += String(decoding: bytes[run..<index], as: UTF8.self)
                    index += 1
                    guard let e = current else { throw error("a string that does not end", at: start) }
                    switch e {
                    case UInt8(ascii: "\""): value += "\""
                    case UInt8(ascii: "\\"): value += "\\"
                    case UInt8(ascii: "/"): value += "/"
                    case UInt8(ascii: "b"): value += "\u{8}"
                    case UInt8(ascii: "f"): value += "\u{C}"
                    case UInt8(ascii: "n"): value += "\n"
                    case UInt8(ascii: "r"): value += "\r"
                    case UInt8(ascii: "t"): value += "\t"
                    case UInt8(ascii: "u"):
                        guard index + 4 < bytes.count, let code = UInt32(String(decoding: bytes[index + 1...index + 4], as: UTF8.self), radix: 16) else {
                            throw error("\\u takes four hexadecimal digits")
                        }
                        index += 4
                        value += UnicodeScalar(code).map { String(Character($0)) } ?? "\u{FFFD}"
                    default:
                        throw error("\\\(Character(UnicodeScalar(e))) is no escape JSON knows")
                    }
                    index += 1
                    run = index
                    continue
                }
                index += 1
            }
        }

        mutating func array(depth: Int) throws(JSONSyntaxError) {
            index += 1
            skipSpace()
            if current == UInt8(ascii: "]") { index += 1; return }
            while true {
                try value(depth: depth + 1)
                if try closes(UInt8(ascii: "]"), in: "an array") { return }
            }
        }

        /// After a member: a comma and the next member (false), or the closing bracket
        /// (true). A comma right before the bracket is a trailing comma.
        mutating func closes(_ bracket: UInt8, in container: String) throws(JSONSyntaxError) -> Bool {
            skipSpace()
            let shown = Character(UnicodeScalar(bracket))
            switch current {
            case UInt8(ascii: ",")?:
                let comma = index
                index += 1
                skipSpace()
                if current == bracket { throw error("a comma before '\(shown)' (a trailing comma)", at: comma) }
                return false
            case bracket?:
                index += 1
                return true
            default:
                throw error("expected ',' or '\(shown)' in \(container), found \(describeCurrent())")
            }
        }

        mutating func object(depth: Int) throws(JSONSyntaxError) {
            index += 1
            skipSpace()
            if current == UInt8(ascii: "}") { index += 1; return }
            var keys = Set<String>()
            while true {
                guard current == UInt8(ascii: "\"") else { throw error("expected a key in double quotes, found \(describeCurrent())") }
                let keyStart = index
                let key = try string()
                if !keys.insert(key).inserted { throw error("the key \"\(key)\" is given twice in this object", at: keyStart) }
                skipSpace()
                guard current == UInt8(ascii: ":") else { throw error("expected ':' after the key \"\(key)\", found \(describeCurrent())") }
                index += 1
                skipSpace()
                try value(depth: depth + 1)
                if try closes(UInt8(ascii: "}"), in: "an object") { return }
            }
        }
    }
}

/// Where JSON text breaks the grammar, and how.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public let message: String

    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(line):\(column): \(message)" }
}
