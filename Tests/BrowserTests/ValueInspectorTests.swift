import Foundation
import Testing
import AppShell
import ObjectModel
import Predicates
import TerminalUI
import TestSupport

/// Values shown whole: text, JSON, binary data, images, and archives Foundation's keyed
/// archiver wrote (real ones, and hostile ones made by hand).
@Suite("Value inspector")
struct ValueInspectorTests {
    func texts(_ value: ObjectValue) -> [String] { ValueInspector.lines(for: value).map(\.text) }

    @Test("text keeps its line breaks; nil and the empty string read differently")
    func text() {
        #expect(texts(.string("first\nsecond\r\nthird")) == ["Text, 18 characters on 3 lines", "first", "second", "third"])
        #expect(texts(.null) == ["nil: no value (not an empty string)"])
        #expect(texts(.string("")) == ["\"\": an empty string (not nil)"])
        #expect(texts(.string(" padded"))[0].hasSuffix("it begins or ends with spaces"))
    }

    @Test("JSON text is pretty-printed with its keys in order; text that only looks like JSON is left as it is")
    func json() {
        let lines = texts(.string(#"{"b":[1,2],"a":{"c":"x/y"}}"#))
        #expect(lines == [
            "JSON, pretty-printed (the text has 27 characters)",
            "{", #"  "a" : {"#, #"    "c" : "x/y""#, "  },", #"  "b" : ["#, "    1,", "    2", "  ]", "}",
        ])
        #expect(texts(.string("{not json")) == ["Text, 9 characters", "{not json"])
    }

    @Test("binary data shows as hex and ASCII, sixteen bytes a row, with its length; long data is cut with a count")
    func hex() {
        let bytes = Data((0..<20).map { UInt8($0 + 60) })
        #expect(texts(.data(bytes)) == [
            "Binary data, 20 bytes",
            "00000000  3c 3d 3e 3f 40 41 42 43  44 45 46 47 48 49 4a 4b  <=>?@ABCDEFGHIJK",
            "00000010  4c 4d 4e 4f                                       LMNO",
        ])
        let long = texts(.data(Data(count: ValueInspector.hexLimit + 100)))
        #expect(long.count == 1 + ValueInspector.hexLimit / 16 + 1)
        #expect(long.last == "… 100 more bytes not shown")
    }

    @Test("an image is named by its format and size in pixels, from its header")
    func images() {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        png += Array("IHDR".utf8) + [0, 0, 0x02, 0x80, 0, 0, 0x01, 0xE0] + [8, 6, 0, 0, 0]
        #expect(texts(.data(Data(png)))[1] == "PNG image, 640 × 480 pixels")
        let gif = Array("GIF89a".utf8) + [0x20, 0x00, 0x10, 0x00, 0, 0, 0]
        #expect(texts(.data(Data(gif)))[1] == "GIF image, 32 × 16 pixels")
        // A JPEG: start, an APP0 segment of 16 bytes, then the frame header (height 200, width 300).
        var jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array(repeating: 0, count: 14)
        jpeg += [0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0xC8, 0x01, 0x2C, 0x03] + Array(repeating: 0, count: 12)
        #expect(texts(.data(Data(jpeg)))[1] == "JPEG image, 300 × 200 pixels")
    }

    @Test("a transformable value Foundation's keyed archiver wrote is shown as the array, dictionary and values it holds")
    func foundationArchive() throws {
        let root: NSArray = [
            "Milk" as NSString, 42 as NSNumber,
            ["when": Date(timeIntervalSinceReferenceDate: 0), "where": URL(string: "https://example.com/shop")!] as NSDictionary,
        ]
        let data = try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false)
        let lines = texts(.data(data))
        #expect(lines[0] == "Binary data, \(data.count) bytes")
        #expect(lines[1].hasPrefix("Keyed archive (NSKeyedArchiver)"))
        #expect(lines.contains { $0.hasSuffix("Array, 3 items") }, "\(lines)")
        #expect(lines.contains("  [0]: \"Milk\""), "\(lines)")
        #expect(lines.contains("  [1]: 42"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("    \"when\": 2001-01-01T00:00:00.000Z") }, "\(lines)")
        #expect(lines.contains("    \"where\": URL https://example.com/shop"), "\(lines)")
    }

    @Test("an XML property list, and a keyed archive written as XML, read as the binary ones do; as data or as text")
    func xmlPropertyLists() throws {
        let plist: [String: Any] = ["name": "Milk & honey <fresh>", "count": 3, "price": 2.5, "done": true,
                                    "tags": ["a", "b"], "when": Date(timeIntervalSinceReferenceDate: 0), "raw": Data([1, 2, 3])]
        let xml = try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
        #expect(String(decoding: xml, as: UTF8.self).contains("<!DOCTYPE plist"), "Foundation writes Apple's document type")
        for lines in [texts(.data(xml)), texts(.string(String(decoding: xml, as: UTF8.self)))] {
            #expect(lines[1] == "Property list (XML)", "\(lines)")
            #expect(lines.contains("  \"name\": \"Milk & honey <fresh>\""), "\(lines)")
            #expect(lines.contains("  \"count\": 3") && lines.contains("  \"price\": 2.5") && lines.contains("  \"done\": true"), "\(lines)")
            #expect(lines.contains { $0.hasPrefix("  \"when\": 2001-01-01T00:00:00") }, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("  \"tags\": ") && $0.hasSuffix("2 items") }, "\(lines)")
        }

        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.outputFormat = .xml
        archiver.encode(["Milk" as NSString, 42 as NSNumber] as NSArray, forKey: NSKeyedArchiveRootObjectKey)
        archiver.finishEncoding()
        let archive = texts(.data(archiver.encodedData))
        #expect(archive[1].hasPrefix("Keyed archive (NSKeyedArchiver, XML)"), "\(archive)")
        #expect(archive.contains("  [0]: \"Milk\"") && archive.contains("  [1]: 42"), "\(archive)")
    }

    @Test("an XML property list that declares entities of its own is refused, not expanded, and shows as hex")
    func hostileXMLPropertyList() {
        let bomb = """
            <?xml version="1.0"?>
            <!DOCTYPE plist [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
            <plist version="1.0"><string>&b;&b;&b;</string></plist>
            """
        let lines = texts(.data(Data(bomb.utf8)))
        #expect(lines[1] == "An XML property list that cannot be read: line 2: a document type with declarations of its own, which property lists never have",
                "\(lines)")
        #expect(lines[2].hasPrefix("00000000  3c 3f 78 6d 6c"))
        let broken = texts(.data(Data("<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict><key>a</key></dict></plist>".utf8)))
        #expect(broken[1] == "An XML property list that cannot be read: line 3: a <dict> whose keys and values do not pair up", "\(broken)")
    }

    /// A keyed archive made by hand: `objects` after `$null`, the root at index 1.
    func archive(_ objects: [PropertyListValue]) -> Data {
        BinaryPropertyListWriter.write(.dictionary([
            "$archiver": .string("NSKeyedArchiver"), "$version": .int(100_000),
            "$top": .dictionary(["root": .uid(1)]),
            "$objects": .array([.string("$null")] + objects),
        ]))
    }

    @Test("a hostile archive is shown as far as it is sound: a cycle, a reference to nothing, an unknown class are named")
    func hostileArchive() {
        let data = archive([
            // 1: an array holding itself, a missing object, and a Widget
            .dictionary(["$class": .uid(2), "NS.objects": .array([.uid(1), .uid(99), .uid(3)])]),
            .dictionary(["$classname": .string("NSMutableArray"), "$classes": .array([.string("NSMutableArray"), .string("NSArray")])]),
            // 3: an object of a class no Foundation has, whose field refers back to the array
            .dictionary(["$class": .uid(4), "size": .int(3), "owner": .uid(1)]),
            .dictionary(["$classname": .string("EvilWidget"), "$classes": .array([.string("EvilWidget")])]),
        ])
        #expect(texts(.data(data)) == [
            "Binary data, \(data.count) bytes",
            "Keyed archive (NSKeyedArchiver), 5 archived objects",
            "NSMutableArray, 3 items",
            "  [0]: ↺ a reference back to object #1, which holds it (a cycle)",
            "  [1]: a reference to object #99, which the archive does not hold",
            "  [2]: EvilWidget (read, not run), 2 fields",
            "    owner: ↺ a reference back to object #1, which holds it (a cycle)",
            "    size: 3",
        ])
    }

    @Test("deep nesting and huge collections stop with a note, and a shared object repeated without end stays bounded")
    func boundedArchive() {
        // 200 arrays, each holding the next: deeper than the outline goes.
        let arrayClass = PropertyListValue.dictionary(["$classname": .string("NSArray"), "$classes": .array([.string("NSArray")])])
        var deep: [PropertyListValue] = [arrayClass]
        for i in 0..<200 { deep.append(.dictionary(["$class": .uid(1), "NS.objects": .array(i == 199 ? [] : [.uid(i + 3)])])) }
        let deepLines = texts(.data(BinaryPropertyListWriter.write(.dictionary([
            "$archiver": .string("NSKeyedArchiver"), "$top": .dictionary(["root": .uid(2)]),
            "$objects": .array([.string("$null")] + deep),
        ]))))
        #expect(deepLines.last?.hasSuffix("nested deeper than \(ArchiveOutline.maximumDepth) levels: not shown") == true)

        // Thirty levels, each an array holding the next level twice: 2^30 paths through 30 objects.
        var shared: [PropertyListValue] = [arrayClass]
        for i in 0..<30 { shared.append(.dictionary(["$class": .uid(1), "NS.objects": .array(i == 29 ? [] : [.uid(i + 3), .uid(i + 3)])])) }
        let sharedLines = texts(.data(BinaryPropertyListWriter.write(.dictionary([
            "$archiver": .string("NSKeyedArchiver"), "$top": .dictionary(["root": .uid(2)]),
            "$objects": .array([.string("$null")] + shared),
        ]))))
        #expect(sharedLines.count <= ArchiveOutline.maximumLines + 3)
        #expect(sharedLines.last == "… the outline stops at \(ArchiveOutline.maximumLines) lines")

        let many = texts(.data(BinaryPropertyListWriter.write(.array((0..<5_000).map { .int($0) }))))
        #expect(many.contains("  … 4000 more items"))
    }

    @Test("bytes that claim to be a property list and are not say why, and still show as hex")
    func brokenPropertyList() {
        let lines = texts(.data(Data("bplist00 and then nothing sound at all, cut short".utf8)))
        #expect(lines[1].hasPrefix("A binary property list that cannot be read:"), "\(lines)")
        #expect(lines[2].hasPrefix("00000000  62 70 6c 69 73 74 30 30"))
    }

    @Test("the viewer wraps long lines at a space, breaks a long word, and keeps empty lines")
    func wrapping() {
        #expect(TextViewer.wrap("the quick brown fox", width: 10) == ["the quick", "brown fox"])
        #expect(TextViewer.wrap("abcdefghijkl", width: 5) == ["abcde", "fghij", "kl"])
        #expect(TextViewer.wrap("", width: 5) == [""])
        #expect(TextViewer.wrap("a\tb", width: 10) == ["a   b"])
    }
}
