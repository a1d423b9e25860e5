import Foundation
import Testing
import Interchange
import ObjectGraph
import ObjectModel
import Predicates
import TestSupport

@Suite("JSON values, CSV and store kinds")
struct ValueFormatTests {
    @Test("JSON given for a predicate argument is refused with the reason as data", arguments: [
        ("Buy", JSONValueError.Kind.notJSON(what: "--arg 1", text: "Buy", isBareWord: true)),
        ("{\"$date\": 5}", .dateTagNeedsString),
        ("{\"$date\": \"soon\"}", .notADate("soon")),
        ("{\"$date\": \"2024-05-01\", \"x\": 1}", .dateTagNotAlone),
        ("{\"$Date\": \"2024-05-01\"}", .unknownTag("$Date")),
    ])
    func badArguments(_ text: String, _ expected: JSONValueError.Kind) throws {
        let error = try #require(throws: JSONValueError.self) { try JSONValue.parse(text, what: "--arg 1").predicateValue() }
        #expect(error.kind == expected)
    }

    @Test("a bare word is taken for a string without its quotes, and the message says so")
    func bareWordHint() throws {
        let error = try #require(throws: JSONValueError.self) { try JSONValue.parse("Buy", what: "--arg 1") }
        #expect(error.description == "--arg 1 is not valid JSON: Buy (a string takes JSON quotes: '\"Buy\"')")
    }

    @Test("CSV quotes what needs it and keeps no value apart from an empty string")
    func csv() {
        #expect(CSV.line([.string("a,b"), .null, .string(""), .string("say \"hi\""), .int(3), .bool(true)])
                == "\"a,b\",,\"\",\"say \"\"hi\"\"\",3,true")
        #expect(CSV.line(["@id", "line\nbreak"]) == "@id,\"line\nbreak\"")
    }

    @Test("CSV writes text a spreadsheet would run as a formula after a ', and numbers as they are")
    func csvFormulas() {
        #expect(CSV.line([.string("=HYPERLINK(\"http://x\",\"y\")"), .string("+1"), .string("-2"), .string("@SUM(A1)"),
                          .string("\tx"), .string("\rx"), .int(-3), .double(-0.5), .string("a=b"), .string("'quoted")])
                == "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",'+1,'-2,'@SUM(A1),'\tx,\"'\rx\",-3,-0.5,a=b,'quoted")
    }

    @Test("a store file's kind comes from its first bytes, whatever its name; a missing file from its extension")
    func storeKinds() throws {
        let folder = try Fixtures.temporaryDirectory("kinds")
        let sqlite = try Fixtures.copyOfCorpusFile(ModelFixtures.sampleStoreV1)
        let named = folder.appendingPathComponent("data.xml")
        try FileManager.default.copyItem(at: sqlite, to: named)
        #expect(StoreKind(inferringFrom: named) == .sqlite)
        let xml = folder.appendingPathComponent("store.bin")
        try Data("\u{FEFF}  <?xml version=\"1.0\"?><database/>".utf8).write(to: xml)
        #expect(StoreKind(inferringFrom: xml) == .xml)
        #expect(StoreKind(inferringFrom: folder.appendingPathComponent("new.xml")) == .xml)
        #expect(StoreKind(inferringFrom: folder.appendingPathComponent("new.db")) == .sqlite)
        #expect(StoreKind(inferringFrom: folder.appendingPathComponent("new.store"), default: .binary) == .binary)
        #expect(StoreKind.sniff(folder) == nil, "a folder is no store of any kind")
    }
}

@Suite("Impossible dates")
struct ImpossibleDateTests {
    @Test("a date with a field out of range is refused, saying which, not rolled over into another", arguments: [
        ("2023-02-30", "February 2023 has 28 days"),
        ("2024-02-30T10:00:00Z", "February 2024 has 29 days"),
        ("2023-04-31", "April 2023 has 30 days"),
        ("2023-13-01", "there is no month 13"),
        ("2023-00-10", "there is no month 0"),
        ("2023-01-00", "January 2023 has 31 days"),
        ("2023-01-01T25:00:00Z", "there is no hour 25"),
        ("2023-01-01T23:61:00Z", "there is no minute 61"),
        ("2023-01-01T23:59:61Z", "there is no second 61"),
        ("2023-01-01T12:00:00+24:00", "a zone offset of 24 hours is past 23"),
        ("2023-01-01T12:00:00-05:75", "a zone offset of 75 minutes is past 59"),
    ])
    func refused(_ text: String, _ reason: String) throws {
        #expect(JSONValue.date(text) == nil)
        #expect(JSONValue.impossibleField(text) == reason)
        let error = try #require(throws: JSONValueError.self) { try JSONValue.string(text).objectValue(dateTag: true) }
        #expect(error.description == "not a date: \(text) (\(reason))")
    }

    @Test("dates at the edges of their ranges are kept", arguments: [
        "2024-02-29", "2000-02-29T00:00:00Z", "2023-12-31T23:59:59Z", "2023-01-01T00:00:00+14:00", "2023-06-30T12:30:00-09:30",
    ])
    func kept(_ text: String) {
        #expect(JSONValue.date(text) != nil)
        #expect(JSONValue.impossibleField(text) == nil)
    }

    @Test("an import names the object, the key and what is impossible; nothing is imported")
    func inImport() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let file = try GraphFile(data: Data(#"{"format": "termdata-graph", "version": 1, "entities": {"ToDo": [{"@id": "t1", "name": "x", "dueDate": "2023-02-30"}]}}"#.utf8))
        let error = try #require(throws: GraphImportError.self) { try file.importObjects(into: stack.context) }
        #expect(error.problems.map(\.description) == [#"ToDo t1: 'dueDate': "2023-02-30" is not a date: February 2023 has 28 days"#])
        #expect(try stack.context.count(for: FetchRequest(entityName: "ToDo")) == 0)
    }
}

extension JSONValue {
    /// The value as a predicate argument, a string as `{"$date": string}`.
    fileprivate func objectValue(dateTag: Bool) throws -> ObjectValue {
        guard dateTag, case .string = self else { return try predicateValue() }
        return try JSONValue.object(["$date": self]).predicateValue()
    }
}
