import Foundation

/// JSON text for a `JSONValue`, byte for byte what Foundation's `JSONEncoder` writes with
/// `.sortedKeys` and `.withoutEscapingSlashes` (and `.prettyPrinted` when asked), written
/// straight into bytes: the encoder builds a tree of its own and goes through `Codable` for
/// every value, which was most of an export's time.
///
/// Numbers that are not integers (`Double`, `Decimal`) are rare in a graph file and easy to
/// get subtly wrong: they are written by the encoder itself, one value at a time.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    let pretty: Bool
    private var depth = 0

    init(pretty: Bool, capacity: Int = 4096) {
        self.pretty = pretty
        bytes.reserveCapacity(capacity)
    }

    mutating func write(_ value: JSONValue) throws {
        switch value {
        case .null: append("null")
        case .bool(let b): append(b ? "true" : "false")
        case .int(let i): append(String(i))
        // What JSON has no number for (a store may hold it) is written as text, as it reads.
        case .double(let d) where !d.isFinite: writeString(d.isNaN ? "NaN" : d > 0 ? "Infinity" : "-Infinity")
        case .double, .decimal: try writeByEncoder(value)
        case .string(let s): writeString(s)
        case .array(let items):
            open(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                separate(first: i == 0)
                try write(item)
            }
            close(UInt8(ascii: "]"))
        case .object(let members):
            open(UInt8(ascii: "{"))
            for (i, key) in Self.sorted(members.keys).enumerated() {
                separate(first: i == 0)
                writeString(key)
                append(pretty ? " : " : ":")
                try write(members[key]!)
            }
            close(UInt8(ascii: "}"))
        }
    }

    // MARK: A document written in pieces

    /// Opens an object or array whose members are written one by one (`member`, `element`).
    mutating func begin(_ bracket: UInt8) { open(bracket) }

    /// Ends what `begin` opened.
    mutating func end(_ bracket: UInt8) { close(bracket) }

    /// The key of an object's next member; its value follows (`write`, or `begin`).
    mutating func member(_ key: String, first: Bool) {
        separate(first: first)
        writeString(key)
        append(pretty ? " : " : ":")
    }

    /// An array's next element (`write` it).
    mutating func element(first: Bool) { separate(first: first) }

    /// Hands over what is written so far and starts again, at the same depth.
    mutating func take() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    /// The encoder's key order: by the keys' UTF-8 bytes.
    static func sorted(_ keys: Dictionary<String, JSONValue>.Keys) -> [String] {
        keys.sorted { a, b in a.utf8.lexicographicallyPrecedes(b.utf8) }
    }

    private mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        depth += 1
        if pretty { bytes.append(UInt8(ascii: "\n")) }
    }

    private mutating func separate(first: Bool) {
        if !first {
            bytes.append(UInt8(ascii: ","))
            if pretty { bytes.append(UInt8(ascii: "\n")) }
        }
        if pretty { indent() }
    }

    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        if pretty {
            bytes.append(UInt8(ascii: "\n"))
            indent()
        }
        bytes.append(bracket)
    }

    private mutating func indent() {
        for _ in 0..<depth { bytes.append(UInt8(ascii: " ")); bytes.append(UInt8(ascii: " ")) }
    }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private static let hex = Array("0123456789abcdef".utf8)

    private mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0x00..<0x20:
                append("\\u00")
                bytes.append(Self.hex[Int(byte >> 4)])
                bytes.append(Self.hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func writeByEncoder(_ value: JSONValue) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        bytes.append(contentsOf: try encoder.encode(value))
    }
}
