import Foundation

/// JSON text read strictly (RFC 8259) in one pass: a trailing comma or a key given twice in
/// one object is an error, as is anything the grammar does not allow, and every error says
/// where, as line:column.
///
/// ```swift
/// try JSONSyntax.parse(Data(#"{"a": 1, "a": 2}"#.utf8))   // 1:10: the key "a" is given twice in this object
/// ```
///
/// Numbers read as `JSONValue` keeps them: an integer that fits `Int` as `.int`, any other
/// as `.double`, or `.decimal` when a `Double` would lose some of its digits.
public enum JSONSyntax {
    /// The deepest nesting of arrays and objects taken.
    public static let maximumDepth = 512

    /// Checks the text is JSON.
    public static func check(_ data: Data) throws(JSONSyntaxError) {
        _ = try parse(data)
    }

    /// The JSON value of the text.
    public static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONValue {
        let result = data.withUnsafeBytes { raw -> Result<JSONValue, JSONSyntaxError> in
            Result { () throws(JSONSyntaxError) -> JSONValue in try parse(raw) }
        }
        return try result.get()
    }

    /// The JSON value of the bytes (UTF-8 text).
    public static func parse(_ raw: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> JSONValue {
        var scanner = Scanner(bytes: raw.assumingMemoryBound(to: UInt8.self))
        scanner.skipSpace()
        let value = try scanner.value(depth: 0)
        scanner.skipSpace()
        if scanner.index < scanner.bytes.count { throw scanner.error("more after the end of the JSON value") }
        return value
    }

    /// Reads a JSON object whose member `streamed` is an object of arrays, handing each
    /// element of those arrays to `element` as soon as it is read rather than keeping it, so
    /// that a file of a million objects is read in the memory of one. Any other shape of
    /// `streamed` is read whole, as are the other members. Returns the object with those
    /// members, and `streamed` as an empty object when it was streamed; a value that is no
    /// object, read whole.
    ///
    /// - Parameters:
    ///   - raw: the JSON text, as UTF-8 bytes.
    ///   - streamed: the name of the top-level member whose arrays are streamed.
    ///   - opened: called with the member name as each array of `streamed` begins.
    ///   - element: the array's member name, the element's place in it (nil for a member
    ///     that is not an array, given whole) and its value: an object as its members in
    ///     the order written (cheaper than a dictionary for a few keys), anything else whole. An error it throws ends the
    ///     reading and is thrown as it is.
    ///   - passed: told now and then how many bytes are behind the reading, which it will
    ///     not look at again.
    /// - Throws: `JSONSyntaxError` for text that is not JSON, or `element`'s error.
    public static func stream(_ raw: UnsafeRawBufferPointer, arraysIn streamed: String,
                              passed: (Int) throws -> Void = { _ in },
                              opened: (String) throws -> Void = { _ in },
                              element: (_ array: String, _ index: Int?, _ value: Element) throws -> Void) throws -> JSONValue {
        var scanner = Scanner(bytes: raw.assumingMemoryBound(to: UInt8.self))
        scanner.skipSpace()
        guard scanner.current == UInt8(ascii: "{") else {
            // Not an object: read whole, for the caller to say what it is instead.
            let value = try scanner.value(depth: 0)
            scanner.skipSpace()
            if scanner.index < scanner.bytes.count { throw scanner.error("more after the end of the JSON value") }
            return value
        }
        var members: [String: JSONValue] = [:]
        var seen: Set<String> = []
        try scanner.members(depth: 0) { scanner, key, keyStart throws in
            guard seen.insert(key).inserted else { throw scanner.error("the key \"\(key)\" is given twice in this object", at: keyStart) }
            guard key == streamed, scanner.current == UInt8(ascii: "{") else {
                members[key] = try scanner.value(depth: 1)
                return
            }
            members[key] = .object([:])
            var arrays: Set<String> = []
            try scanner.members(depth: 1) { scanner, name, nameStart throws in
                guard arrays.insert(name).inserted else { throw scanner.error("the key \"\(name)\" is given twice in this object", at: nameStart) }
                guard scanner.current == UInt8(ascii: "[") else {
                    try element(name, nil, .value(try scanner.value(depth: 2)))
                    return
                }
                try opened(name)
                scanner.index += 1
                scanner.skipSpace()
                if scanner.current == UInt8(ascii: "]") { scanner.index += 1; return }
                var i = 0
                while true {
                    if scanner.current == UInt8(ascii: "{") {
                        try element(name, i, .members(try scanner.pairs(depth: 3)))
                    } else {
                        try element(name, i, .value(try scanner.value(depth: 3)))
                    }
                    i += 1
                    if i % 1024 == 0 { try passed(scanner.index) }
                    if try scanner.closes(UInt8(ascii: "]"), in: "an array") { return }
                }
            }
        }
        scanner.skipSpace()
        if scanner.index < scanner.bytes.count { throw scanner.error("more after the end of the JSON value") }
        return .object(members)
    }

    /// An element `stream` hands over.
    public enum Element {
        /// An object's members, in the order written, each key once.
        case members([(key: String, value: JSONValue)])
        /// Any other value, read whole: an array element that is not an object, or a member of
        /// `streamed` that is not an array.
        case value(JSONValue)
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
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

        mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            guard depth < JSONSyntax.maximumDepth else { throw error("nested more than \(JSONSyntax.maximumDepth) deep") }
            switch current {
            case UInt8(ascii: "{")?: return try object(depth: depth)
            case UInt8(ascii: "[")?: return try array(depth: depth)
            case UInt8(ascii: "\"")?: return .string(try string())
            case UInt8(ascii: "t")?: try literal("true"); return .bool(true)
            case UInt8(ascii: "f")?: try literal("false"); return .bool(false)
            case UInt8(ascii: "n")?: try literal("null"); return .null
            case let c? where c == UInt8(ascii: "-") || (c >= 0x30 && c <= 0x39): return try number()
            default: throw error("expected a value, found \(describeCurrent())")
            }
        }

        mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { throw error("expected a value, found \(describeCurrent())") }
            for i in 0..<count where bytes[index + i] != word.utf8Start[i] {
                throw error("expected a value, found \(describeCurrent())")
            }
            index += count
        }

        mutating func number() throws(JSONSyntaxError) -> JSONValue {
            let start = index
            func digits() -> Int {
                var n = 0
                while let c = current, c >= 0x30, c <= 0x39 { index += 1; n += 1 }
                return n
            }
            var integral = true
            if current == UInt8(ascii: "-") { index += 1 }
            if current == UInt8(ascii: "0") {
                index += 1
                if let c = current, c >= 0x30, c <= 0x39 { throw error("a number does not start with 0 and more digits", at: start) }
            } else if digits() == 0 {
                throw error("expected digits in a number", at: start)
            }
            if current == UInt8(ascii: ".") {
                integral = false
                index += 1
                if digits() == 0 { throw error("expected digits after the decimal point") }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                integral = false
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                if digits() == 0 { throw error("expected digits in the exponent") }
            }
            // Short integers, the common case, without making text of them.
            if integral, index - start <= 18 {
                var n = 0
                var i = start
                let negative = bytes[i] == UInt8(ascii: "-")
                if negative { i += 1 }
                while i < index { n = n * 10 + Int(bytes[i] - 0x30); i += 1 }
                return .int(negative ? -n : n)
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            if integral, let n = Int(text) { return .int(n) }
            guard let d = Double(text), d.isFinite else {
                throw error("the number \(text) is out of range (numbers go up to about ±1.8e308)", at: start)
            }
            // The number's own digits, when a Double loses some of them.
            if let exact = Decimal(string: text, locale: JSONValue.posix), Decimal(string: "\(d)", locale: JSONValue.posix) != exact,
               (JSONValue.significantDigits(text) ?? 0) <= JSONValue.decimalDigits {
                return .decimal(exact)
            }
            return .double(d)
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
                        value.unicodeScalars.append(try escapedScalar())
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

        /// The character of a `\\u` escape, the index on its `u`, left on its last digit. A
        /// character beyond U+FFFF is written as two escapes, a UTF-16 surrogate pair
        /// (`\\ud83c\\udf89`, as Python and JavaScript write it); half of a pair alone is no
        /// character, and is refused rather than read as U+FFFD.
        mutating func escapedScalar() throws(JSONSyntaxError) -> Unicode.Scalar {
            let escape = index - 1
            let first = try escapedCodeUnit()
            switch first {
            case 0xD800...0xDBFF:
                guard index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "\\"), bytes[index + 2] == UInt8(ascii: "u") else {
                    throw error(String(format: "\\u%04x is the first half of a surrogate pair, and no \\u escape of its second half follows", first), at: escape)
                }
                index += 2
                let second = try escapedCodeUnit()
                guard (0xDC00...0xDFFF).contains(second) else {
                    throw error(String(format: "\\u%04x is the first half of a surrogate pair, and \\u%04x is no second half", first, second), at: escape)
                }
                return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
            case 0xDC00...0xDFFF:
                throw error(String(format: "\\u%04x is the second half of a surrogate pair, without its first half", first), at: escape)
            default:
                return Unicode.Scalar(first)!
            }
        }

        /// The four hexadecimal digits after the `u` the index is on, left on the last.
        private mutating func escapedCodeUnit() throws(JSONSyntaxError) -> UInt32 {
            guard index + 4 < bytes.count,
                  bytes[index + 1...index + 4].allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }),
                  let code = UInt32(String(decoding: bytes[index + 1...index + 4], as: UTF8.self), radix: 16) else {
                throw error("\\u takes four hexadecimal digits")
            }
            index += 4
            return code
        }

        mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            index += 1
            skipSpace()
            var elements: [JSONValue] = []
            if current == UInt8(ascii: "]") { index += 1; return .array(elements) }
            while true {
                elements.append(try value(depth: depth + 1))
                if try closes(UInt8(ascii: "]"), in: "an array") { return .array(elements) }
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

        /// The members of the object at hand, each given to `member` with its key and where
        /// the key began, the scanner at the value, which `member` reads.
        mutating func members(depth: Int, _ member: (inout Scanner, String, Int) throws -> Void) throws {
            index += 1
            skipSpace()
            if current == UInt8(ascii: "}") { index += 1; return }
            while true {
                guard current == UInt8(ascii: "\"") else { throw error("expected a key in double quotes, found \(describeCurrent())") }
                let keyStart = index
                let key = try string()
                skipSpace()
                guard current == UInt8(ascii: ":") else { throw error("expected ':' after the key \"\(key)\", found \(describeCurrent())") }
                index += 1
                skipSpace()
                try member(&self, key, keyStart)
                if try closes(UInt8(ascii: "}"), in: "an object") { return }
            }
        }

        /// An object's members in order, each key once, without hashing a small object's keys.
        mutating func pairs(depth: Int) throws(JSONSyntaxError) -> [(key: String, value: JSONValue)] {
            guard depth < JSONSyntax.maximumDepth else { throw error("nested more than \(JSONSyntax.maximumDepth) deep") }
            index += 1
            skipSpace()
            var members: [(key: String, value: JSONValue)] = []
            members.reserveCapacity(8)
            if current == UInt8(ascii: "}") { index += 1; return members }
            var keys: Set<String> = []
            while true {
                guard current == UInt8(ascii: "\"") else { throw error("expected a key in double quotes, found \(describeCurrent())") }
                let keyStart = index
                let key = try string()
                let twice = members.count < 16 ? members.contains { $0.key == key } : !keys.insert(key).inserted
                if twice { throw error("the key \"\(key)\" is given twice in this object", at: keyStart) }
                if members.count == 15 { keys = Set(members.map(\.key)); keys.insert(key) }
                skipSpace()
                guard current == UInt8(ascii: ":") else { throw error("expected ':' after the key \"\(key)\", found \(describeCurrent())") }
                index += 1
                skipSpace()
                members.append((key, try value(depth: depth + 1)))
                if try closes(UInt8(ascii: "}"), in: "an object") { return members }
            }
        }

        mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            .object(Dictionary(uniqueKeysWithValues: try pairs(depth: depth)))
        }
    }
}

/// Where JSON text breaks the grammar, and how.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The line of the error, counted from 1.
    public let line: Int
    /// The column of the error on its line, in characters, counted from 1.
    public let column: Int
    /// What is wrong there, such as "the key "a" is given twice in this object".
    public let message: String

    /// An error at this line and column (both from 1), saying what is wrong.
    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// The error as `line:column: message`.
    public var description: String { "\(line):\(column): \(message)" }
}
