import Foundation
import Testing
import GRDB
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

/// Transformable attributes: values stored as their transformer makes them (Core Data's keyed
/// archives, or a program's own transformer), read back as the values they hold, and bytes
/// no transformer reads kept as they are.
@Suite("Transformable values")
struct TransformableValueTests {
    static let xml = ModelFixtures.modelXML("""
        <entity name="Item" representedClassName="Item">
            <attribute name="name" optional="YES" attributeType="String"/>
            <attribute name="tags" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromDataTransformer"/>
            <attribute name="legacy" optional="YES" attributeType="Transformable"/>
            <attribute name="list" optional="YES" attributeType="Transformable" valueTransformerName="CommaListTransformer"/>
            <attribute name="color" optional="YES" attributeType="Transformable" valueTransformerName="ColorTransformer" customClassName="UIColor"/>
        </entity>
        """)

    static func model() throws -> ManagedObjectModel {
        try XcodeModelFile.read(try ModelFixtures.writeModelFile(xml, name: "Items")).current
    }

    /// A program's own transformer: a list of words kept as one comma-separated string.
    struct CommaList: AttributeValueTransformer {
        func value(from data: Data) throws -> ObjectValue {
            .array(String(decoding: data, as: UTF8.self).split(separator: ",").map { .string(String($0)) })
        }
        func data(from value: ObjectValue) throws -> Data {
            Data((value.collectionElements ?? []).compactMap(\.stringValue).joined(separator: ",").utf8)
        }
    }

    @Test("a value set through the transformer is stored as Foundation's keyed archive and read back as the value; no name means the same")
    func keyedArchives() throws {
        let stack = try SQLiteTestStack(model: try Self.model())
        let item = try stack.context.insertObject(forEntityName: "Item")
        item["name"] = .string("Milk")
        let tags: ObjectValue = .array([.string("dairy"), .string("fridge")])
        try item.setTransformedValue(tags, forKey: "tags")
        try item.setTransformedValue(.dictionary(["since": .date(Date(timeIntervalSinceReferenceDate: 0))]), forKey: "legacy")
        try stack.context.save()

        // In the file: the archive Core Data on Apple's systems reads (here Foundation's unarchiver stands in).
        let row = try #require(try stack.rawRows("SELECT ZTAGS, ZLEGACY FROM ZITEM").first)
        let stored = try #require(row[0] as Data?)
        #expect(stored.starts(with: Data("bplist00".utf8)))
        let objects = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSArray.self, NSString.self], from: stored) as? [String]
        #expect(objects == ["dairy", "fridge"])
        #expect((row[1] as Data?)?.starts(with: Data("bplist00".utf8)) == true)

        let reopened = try stack.reopened()
        let again = try #require(try reopened.context.fetch(FetchRequest(entityName: "Item")).first)
        #expect(try again.transformedValue(forKey: "tags") == tags)
        #expect(try again.transformedValue(forKey: "legacy") == .dictionary(["since": .date(Date(timeIntervalSinceReferenceDate: 0))]))
        #expect(try again.transformedValue(forKey: "name") == .string("Milk"), "any other attribute as it is")
        try again.setTransformedValue(.null, forKey: "tags")
        #expect(again["tags"] == .null)
    }

    @Test("bytes no transformer reads stay as they are through reads and saves; the error names the class and keeps them")
    func undecodableKept() throws {
        // An app's own object archived, as Apple's archiver writes one: its class is no Foundation value.
        let archive = BinaryPropertyListWriter.write(.dictionary([
            "$archiver": .string("NSKeyedArchiver"), "$version": .int(100000), "$top": .dictionary(["root": .uid(1)]),
            "$objects": .array([
                .string("$null"), .dictionary(["hex": .string("6343E2"), "$class": .uid(2)]),
                .dictionary(["$classname": .string("MyApp.Swatch"), "$classes": .array([.string("MyApp.Swatch"), .string("NSObject")])]),
            ]),
        ]))

        let stack = try SQLiteTestStack(model: try Self.model())
        let item = try stack.context.insertObject(forEntityName: "Item")
        item["tags"] = .data(archive)
        try stack.context.save()
        let error = #expect(throws: ObjectGraphError.self) { try item.transformedValue(forKey: "tags") }
        #expect(error?.description.contains("Item.tags (transformer NSSecureUnarchiveFromDataTransformer)") == true, "\(String(describing: error))")
        #expect(error?.description.contains("MyApp.Swatch") == true, "\(String(describing: error))")
        #expect(error?.description.contains("the value stays as its \(archive.count) bytes") == true, "\(String(describing: error))")
        item["name"] = .string("changed")
        try stack.context.save()
        let stored = try #require(try stack.rawRows("SELECT ZTAGS FROM ZITEM").first?[0] as Data?)
        #expect(stored == archive, "the bytes are the ones set, byte for byte")
    }

    @Test("a program's own transformer, registered by the name the model gives, stores and reads; an unregistered name is named")
    func registeredTransformer() throws {
        ValueTransformers.register(CommaList(), as: "CommaListTransformer")
        let stack = try SQLiteTestStack(model: try Self.model())
        let item = try stack.context.insertObject(forEntityName: "Item")
        try item.setTransformedValue(.array([.string("a"), .string("b")]), forKey: "list")
        try stack.context.save()
        #expect(try stack.rawRows("SELECT ZLIST FROM ZITEM").first?[0] as Data? == Data("a,b".utf8))
        #expect(try item.transformedValue(forKey: "list") == .array([.string("a"), .string("b")]))

        let error = #expect(throws: ObjectGraphError.self) { try item.setTransformedValue(.string("red"), forKey: "color") }
        #expect(error?.description == "Item.color (transformer ColorTransformer): no transformer is registered under this name (ValueTransformers.register(_:as:))")
        #expect(item["color"] == .null, "nothing changed")
    }
}
