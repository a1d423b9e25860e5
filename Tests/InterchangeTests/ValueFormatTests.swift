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
