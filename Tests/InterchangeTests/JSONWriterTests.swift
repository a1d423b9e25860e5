import Foundation
import Testing
import Interchange

@Suite("JSON text")
struct JSONWriterTests {
    /// What Foundation's encoder writes, the text the writer must match byte for byte.
    private func encoded(_ value: JSONValue, pretty: Bool) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static let awkwardKeys = ["a", "B", "b", "A", "a10", "a9", "a1", "@id", "$date", "_x", "Z", "z", "é", "e", "ё", "日本", "😀", "", " ", "a b",
                              "item10", "item9", "Item2", "ITEM1", "ß", "ss", "İ", "i", "ﬁ", "fi", "a\u{301}", "á", "0", "10", "9", "-1"]

    @Test("every kind of value, every ASCII character in strings and keys, and awkward keys come out as the encoder writes them",
          arguments: [true, false])
    func matchesTheEncoder(pretty: Bool) throws {
        let ascii = String((0..<128).map { Character(Unicode.Scalar(UInt8($0))) })
        var members: [String: JSONValue] = [:]
        for (i, key) in Self.awkwardKeys.enumerated() { members[key] = .int(i) }
        for scalar in 0..<128 { members["k" + String(Character(Unicode.Scalar(UInt8(scalar))))] = .int(scalar) }
        let value: JSONValue = .object([
            "null": .null, "true": .bool(true), "false": .bool(false),
            "ints": .array([.int(0), .int(-1), .int(Int.max), .int(Int.min)]),
            "doubles": .array([.double(0.1), .double(1), .double(-0.0), .double(1e300), .double(2.5e-308), .double(123456.789)]),
            "decimal": .decimal(Decimal(string: "12345678901234567890.123456789")!),
            "strings": .array([.string(ascii), .string("é日本😀\u{2028}\u{7F}"), .string(""), .string("a/b\\c\"d")]),
            "empty": .array([.array([]), .object([:])]),
            "nested": .array([.object(["x": .array([.object(["y": .null])])])]),
            "keys": .object(members),
        ])
        #expect(try JSONValue.text(value, pretty: pretty) == (try encoded(value, pretty: pretty)))
    }
}
