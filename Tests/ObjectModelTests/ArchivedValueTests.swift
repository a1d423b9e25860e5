import Foundation
import Testing
import ObjectModel
import Predicates
import TestSupport

/// An app's own class, as an app archives it into a transformable attribute (top level:
/// Foundation's archiver names classes by their top-level name).
final class Swatch: NSObject, NSSecureCoding {
    static let supportsSecureCoding = true
    let hex: String
    init(hex: String) { self.hex = hex }
    required init?(coder: NSCoder) { hex = coder.decodeObject(of: NSString.self, forKey: "hex") as String? ?? "" }
    func encode(with coder: NSCoder) { coder.encode(hex as NSString, forKey: "hex") }
}

/// Archives of values as Foundation's `NSKeyedArchiver` writes them: read here from
/// Foundation's own archives, and written here for Foundation's unarchiver to read.
@Suite("Values in keyed archives")
struct ArchivedValueTests {
    static let date = Date(timeIntervalSinceReferenceDate: 86_400.5)
    static let uuid = UUID(uuidString: "F3848AF4-92F0-45B1-9748-51782253BEC0")!

    @Test("what Foundation's archiver wrote reads as the values it holds: collections, strings, numbers, dates, URLs, UUIDs, data, null")
    func readsFoundationsArchive() throws {
        let root: NSArray = [
            "Milk" as NSString, 42 as NSNumber, 2.5 as NSNumber, true as NSNumber,
            Self.date as NSDate, Data([1, 2, 3]) as NSData, NSNull(),
            ["where": URL(string: "https://example.com/shop")! as NSURL, "id": Self.uuid as NSUUID] as NSDictionary,
            NSSet(array: ["a" as NSString]),
        ]
        let data = try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: true)
        let value = try ArchivedValue.unarchive(data)
        #expect(value == .array([
            .string("Milk"), .int(42), .double(2.5), .bool(true), .date(Self.date), .data(Data([1, 2, 3])), .null,
            .dictionary(["where": .url(URL(string: "https://example.com/shop")!), "id": .uuid(Self.uuid)]),
            .set([.string("a")]),
        ]))
        guard case .array(let items) = value, case .bool = items[3] else {
            Issue.record("a Boolean reads as a Boolean, not the number 1: \(value)")
            return
        }
    }

    @Test("a relative URL Foundation archived with its base reads as the URL it resolves to")
    func relativeURL() throws {
        let url = try #require(NSURL(string: "page?id=3", relativeTo: URL(string: "https://example.com/shop/")))
        let data = try NSKeyedArchiver.archivedData(withRootObject: url, requiringSecureCoding: true)
        #expect(try ArchivedValue.unarchive(data) == .url(URL(string: "https://example.com/shop/page?id=3")!))
    }

    @Test("what is written here Foundation's unarchiver reads as the same objects, and this reader reads back as the same value")
    func writesFoundationsArchive() throws {
        let value: ObjectValue = .dictionary([
            "names": .array([.string("Milk"), .string("Bread"), .string("Milk")]),
            "count": .int(-3), "price": .double(2.25), "done": .bool(false), "when": .date(Self.date),
            "link": .url(URL(string: "https://example.com/a?b=c")!), "id": .uuid(Self.uuid), "raw": .data(Data([0, 255])),
            "tags": .set([.string("home")]),
        ])
        let data = try ArchivedValue.archive(value)
        #expect(data.starts(with: Data("bplist00".utf8)))
        #expect(try ArchivedValue.unarchive(data) == value)
        // A decimal in NSDecimalNumber's fields, as compiled models hold them (Foundation on
        // Linux cannot archive one itself: its archiver crashes on NSDecimalNumber).
        let decimal: ObjectValue = .array([.decimal(Decimal(string: "-12.345")!), .decimal(Decimal(string: "123456789012345678901234567890")!)])
        #expect(try ArchivedValue.unarchive(ArchivedValue.archive(decimal)) == decimal)

        let classes: [AnyClass] = [NSDictionary.self, NSArray.self, NSSet.self, NSString.self, NSNumber.self, NSDate.self,
                                   NSURL.self, NSUUID.self, NSData.self]
        let object = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClasses: classes, from: data) as? NSDictionary)
        #expect(object["names"] as? [String] == ["Milk", "Bread", "Milk"])
        #expect((object["count"] as? NSNumber)?.intValue == -3)
        #expect((object["price"] as? NSNumber)?.doubleValue == 2.25)
        #expect(object["when"] as? Date == Self.date)
        #expect(object["link"] as? URL == URL(string: "https://example.com/a?b=c"))
        #expect(object["id"] as? UUID == Self.uuid)
        #expect(object["raw"] as? Data == Data([0, 255]))
        #expect((object["tags"] as? NSSet)?.contains("home") == true)
    }

    @Test("an object of an app's own class is refused, naming the class, and never made")
    func refusesOtherClasses() throws {
        let data = try NSKeyedArchiver.archivedData(withRootObject: [Swatch(hex: "6343E2")] as NSArray, requiringSecureCoding: true)
        let problem = #expect(throws: ArchivedValue.Problem.self) { try ArchivedValue.unarchive(data) }
        #expect(problem?.className?.hasSuffix("Swatch") == true, "\(String(describing: problem))")
        #expect(problem?.message.contains("no Foundation value") == true, "\(String(describing: problem))")
    }

    @Test("an archive whose array holds itself, or that nests without end, is refused")
    func refusesHostileArchives() throws {
        func archive(_ objects: [PropertyListValue]) -> Data {
            BinaryPropertyListWriter.write(.dictionary([
                "$archiver": .string("NSKeyedArchiver"), "$version": .int(100000),
                "$top": .dictionary(["root": .uid(1)]), "$objects": .array(objects),
            ]))
        }
        let arrayClass = PropertyListValue.dictionary(["$classname": .string("NSArray"), "$classes": .array([.string("NSArray"), .string("NSObject")])])
        let selfHolding = archive([.string("$null"), .dictionary(["NS.objects": .array([.uid(1)]), "$class": .uid(2)]), arrayClass])
        let cycle = #expect(throws: ArchivedValue.Problem.self) { try ArchivedValue.unarchive(selfHolding) }
        #expect(cycle?.message == "the archive's NSArray holds itself")

        // 100 arrays, each holding the next.
        var objects: [PropertyListValue] = [.string("$null")]
        for i in 1...100 { objects.append(.dictionary(["NS.objects": .array(i < 100 ? [.uid(i + 1)] : []), "$class": .uid(101)])) }
        objects.append(arrayClass)
        let deep = #expect(throws: ArchivedValue.Problem.self) { try ArchivedValue.unarchive(archive(objects)) }
        #expect(deep?.message == "collections nest more than \(ArchivedValue.maximumDepth) deep")

        // 63 arrays, each listing the next one twice: a few hundred bytes that would unfold into 2^63 values.
        var doubling: [PropertyListValue] = [.string("$null")]
        for i in 1...63 { doubling.append(.dictionary(["NS.objects": .array(i < 63 ? [.uid(i + 1), .uid(i + 1)] : []), "$class": .uid(64)])) }
        doubling.append(arrayClass)
        let unfolding = #expect(throws: ArchivedValue.Problem.self) { try ArchivedValue.unarchive(archive(doubling)) }
        #expect(unfolding?.message == "the archive unfolds into more than \(ArchivedValue.maximumValues) values")

        // Writing refuses what reading would refuse.
        var nested: ObjectValue = .array([])
        for _ in 0..<70 { nested = .array([nested]) }
        #expect(throws: ArchivedValue.Problem.self) { try ArchivedValue.archive(nested) }

        #expect(throws: ArchivedValue.Problem.self) { try ArchivedValue.unarchive(Data("not an archive".utf8)) }
    }
}
