import Foundation
import Testing
import Interchange

@Suite("Strict JSON")
struct JSONSyntaxTests {
    @Test("what the grammar allows passes", arguments: [
        #"{}"#, #"[]"#, #"0"#, #"-0.5e+10"#, #"  "x"  "#, #"{"a": [1, 2.5, true, false, null, {"b": "\u00e9\n"}]}"#,
        "\u{FEFF}{\"bom\": 1}", #"{"a": 1, "A": 2}"#, #"["\ud83d\ude00"]"#,
    ])
    func valid(_ text: String) throws {
        try JSONSyntax.check(Data(text.utf8))
    }

    @Test("what it does not is refused at line:column, saying what is wrong", arguments: [
        (#"{"a": 1, "a": 2}"#, 1, 10, #"the key "a" is given twice in this object"#),
        (#"{"a": 1,}"#, 1, 8, "a comma before '}' (a trailing comma)"),
        ("[1,\n 2,\n]", 2, 3, "a comma before ']' (a trailing comma)"),
        ("{\n  \"a\" \"b\"\n}", 2, 7, "expected ':' after the key \"a\", found '\"'"),
        (#"{a: 1}"#, 1, 2, "expected a key in double quotes, found 'a'"),
        (#"[01]"#, 1, 2, "a number does not start with 0 and more digits"),
        (#"[1.]"#, 1, 4, "expected digits after the decimal point"),
        (#"["é" x]"#, 1, 6, "expected ',' or ']' in an array, found 'x'"),
        ("\"tab\there\"", 1, 5, "a control character in a string (write it as an escape, such as \\n)"),
        (#"{"a": tru}"#, 1, 7, "expected a value, found 't'"),
        (#"{"a": 1} 2"#, 1, 10, "more after the end of the JSON value"),
        (#"["open"#, 1, 2, "a string that does not end"),
        ("", 1, 1, "expected a value, found the end of the text"),
        (#"["a\ud83c"]"#, 1, 4, #"\ud83c is the first half of a surrogate pair, and no \u escape of its second half follows"#),
        (#"["\ud83cx"]"#, 1, 3, #"\ud83c is the first half of a surrogate pair, and no \u escape of its second half follows"#),
        (#"["\ud83c\u0041"]"#, 1, 3, #"\ud83c is the first half of a surrogate pair, and \u0041 is no second half"#),
        ("{\n \"a\": \"\\udf89\"}", 2, 8, #"\udf89 is the second half of a surrogate pair, without its first half"#),
        (#"["\u+123"]"#, 1, 4, #"\u takes four hexadecimal digits"#),
    ])
    func refused(_ text: String, _ line: Int, _ column: Int, _ message: String) throws {
        let error = try #require(throws: JSONSyntaxError.self) { try JSONSyntax.check(Data(text.utf8)) }
        #expect(error == JSONSyntaxError(line: line, column: column, message: message), "\(error)")
    }

    @Test("values come back as JSONValue keeps them: integers as Int, other numbers as Double, or Decimal where a Double would lose digits", arguments: [
        ("12", JSONValue.int(12)), ("-7", .int(-7)), ("0", .int(0)), ("9223372036854775807", .int(Int.max)),
        ("-9223372036854775808", .int(Int.min)), ("1.5", .double(1.5)), ("1e2", .double(100)), ("-0.25", .double(-0.25)),
        ("123456789012345678901234567890", .decimal(Decimal(string: "123456789012345678901234567890")!)),
        ("0.1000000000000000000001", .decimal(Decimal(string: "0.1000000000000000000001")!)),
        (#""a\u00e9\n""#, .string("aé\n")), ("true", .bool(true)), ("null", .null),
        (#""\ud83c\udf89 \uD83D\uDE00!""#, .string("🎉 😀!")), (#""\udbff\udfff""#, .string("\u{10FFFF}")),
        (#"{"a": [1, {"b": false}], "c": "d"}"#, .object(["a": .array([.int(1), .object(["b": .bool(false)])]), "c": .string("d")])),
    ])
    func values(_ text: String, _ expected: JSONValue) throws {
        #expect(try JSONSyntax.parse(Data(text.utf8)) == expected)
    }

    @Test("nesting past the limit is refused, not a crash")
    func deepNesting() {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONSyntaxError.self) { try JSONSyntax.check(Data(text.utf8)) }
    }

    @Test("a graph file with a key twice or a trailing comma imports nothing and says where")
    func inGraphFiles() {
        let duplicate = #"{"format": "termdata-graph", "version": 1, "entities": {"ToDo": [{"@id": "a", "name": "x", "name": "y"}]}}"#
        #expect(throws: GraphFileError(.notJSON(#"at 1:92: the key "name" is given twice in this object"#))) {
            try GraphFile(data: Data(duplicate.utf8))
        }
        let trailing = "{\"format\": \"termdata-graph\", \"version\": 1,\n \"entities\": {},\n}"
        #expect(throws: GraphFileError(.notJSON("at 2:16: a comma before '}' (a trailing comma)"))) {
            try GraphFile(data: Data(trailing.utf8))
        }
    }
}

@Suite("ISO-8601 dates read by hand")
struct HandReadDateTests {
    @Test("every form reads as Foundation's ISO-8601 parser reads its normal form, to the millisecond", arguments: [
        ("2024-05-01", "2024-05-01T00:00:00Z"), ("2024-05-01T10:00:00Z", "2024-05-01T10:00:00Z"),
        ("2024-05-01t10:00z", "2024-05-01T10:00:00Z"), ("2024-05-01 12:00+02:00", "2024-05-01T12:00:00+02:00"),
        ("2024-05-01T12:30:15-0930", "2024-05-01T12:30:15-09:30"), ("2024-02-29T23:59:59Z", "2024-02-29T23:59:59Z"),
        ("1969-12-31T23:59:59Z", "1969-12-31T23:59:59Z"), ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"),
        ("1582-10-04T12:00:00Z", "1582-10-04T12:00:00Z"), ("1582-10-15", "1582-10-15T00:00:00Z"), ("1583-01-01", "1583-01-01T00:00:00Z"),
        ("1900-03-01", "1900-03-01T00:00:00Z"), ("2000-02-29", "2000-02-29T00:00:00Z"), ("9999-12-31T23:59:59Z", "9999-12-31T23:59:59Z"),
        ("2024-05-01T10:00:00.5Z", "2024-05-01T10:00:00.500Z"), ("2024-05-01T10:00:00.1234567Z", "2024-05-01T10:00:00.123Z"),
    ])
    func forms(_ text: String, _ normal: String) throws {
        let expected = normal.contains(".")
            ? try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(normal)
            : try Date.ISO8601FormatStyle().parse(normal)
        let read = try #require(JSONValue.date(text), "\(text)")
        #expect(abs(read.timeIntervalSince1970 - expected.timeIntervalSince1970) < 0.0005, "\(text): \(read) against \(expected)")
    }

    @Test("what is not a date in the form, or has a field out of range, is no date", arguments: [
        "2024-05-01T10:00", "2024-5-01", "2023-02-29", "2024-13-01", "2024-05-01T24:00:00Z", "2024-05-01T10:60Z",
        "2024-05-01T10:00:00+24:00", "2024-05-01T10:00:00.Z", "2024-05-01T10:00:00Zx", "yesterday", "",
    ])
    func notDates(_ text: String) {
        #expect(JSONValue.date(text) == nil, "\(text)")
    }

    @Test("a date refused for a field out of range is one impossibleField names", arguments: [
        "2023-02-29", "2024-13-01", "2024-04-31", "2024-05-01T24:00:00Z", "2024-05-01T10:60Z", "2024-05-01T10:00:60Z",
        "2024-05-01T10:00:00+24:00", "2024-05-01T10:00:00-01:60",
    ])
    func outOfRange(_ text: String) {
        #expect(JSONValue.date(text) == nil, "\(text)")
        #expect(JSONValue.impossibleField(text) != nil, "\(text)")
    }
}
