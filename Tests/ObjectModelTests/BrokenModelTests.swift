import Foundation
import Testing
import ObjectModel
import TestSupport

/// A broken file and what its error must say.
struct BrokenModelCase: Sendable, CustomTestStringConvertible {
    let label: String
    let xml: String
    let line: Int?
    let entity: String?
    let property: String?
    let fragment: String

    var testDescription: String { label }
}

@Suite("Refusing broken model files")
struct BrokenModelTests {
    static let cases: [BrokenModelCase] = [
        .init(label: "a DTD declaring entities", xml: """
            <?xml version="1.0"?>
            <!DOCTYPE model [ <!ENTITY lol "lollollollollollollol"> <!ENTITY lol2 "&lol;&lol;&lol;&lol;"> ]>
            <model><entity name="A"><attribute name="x" attributeType="String" defaultValueString="&lol2;"/></entity></model>
            """, line: 2, entity: nil, property: nil, fragment: "a document type declaration (<!DOCTYPE or <!ENTITY)"),
        .init(label: "an entity declared without a DTD line", xml: """
            <?xml version="1.0"?>
            <model>
            <!ENTITY x SYSTEM "file:///etc/passwd">
            </model>
            """, line: 3, entity: nil, property: nil, fragment: "which Xcode's model files never have"),
        .init(label: "malformed XML", xml: """
            <?xml version="1.0"?>
            <model>
                <entity name="A">
                    <attribute name="x" attributeType="String">
                </entity>
            </model>
            """, line: 5, entity: nil, property: nil, fragment: "malformed XML"),
        .init(label: "truncated XML", xml: """
            <?xml version="1.0"?>
            <model>
                <entity name="A">
                    <attribute name="x" attributeType="String"/>
            """, line: nil, entity: nil, property: nil, fragment: "malformed XML"),
        .init(label: "unknown attribute type", xml: ModelFixtures.modelXML("""
                <entity name="Item">
                    <attribute name="price" attributeType="Money"/>
                </entity>
            """), line: 4, entity: "Item", property: "price", fragment: "unknown attribute type 'Money'"),
        .init(label: "missing destination", xml: ModelFixtures.modelXML("""
                <entity name="ToDo">
                    <relationship name="category" maxCount="1" deletionRule="Nullify" destinationEntity="Categry"/>
                </entity>
            """), line: 4, entity: "ToDo", property: "category", fragment: "destination entity 'Categry' does not exist"),
        .init(label: "missing inverse", xml: ModelFixtures.modelXML("""
                <entity name="Category">
                    <attribute name="name" attributeType="String"/>
                </entity>
                <entity name="ToDo">
                    <relationship name="category" maxCount="1" deletionRule="Nullify" destinationEntity="Category" inverseName="todos" inverseEntity="Category"/>
                </entity>
            """), line: 7, entity: "ToDo", property: "category", fragment: "inverse relationship 'todos' does not exist on entity 'Category'"),
        .init(label: "missing parent", xml: ModelFixtures.modelXML("""
                <entity name="Employee" parentEntity="Persn">
                    <attribute name="salary" attributeType="Integer 32"/>
                </entity>
            """), line: 3, entity: "Employee", property: nil, fragment: "parent entity 'Persn' does not exist"),
        .init(label: "inheritance cycle", xml: ModelFixtures.modelXML("""
                <entity name="A" parentEntity="B"/>
                <entity name="B" parentEntity="A"/>
            """), line: 3, entity: "A", property: nil, fragment: "inheritance cycle: A -> B -> A"),
        .init(label: "default value of the wrong type", xml: ModelFixtures.modelXML("""
                <entity name="Item">
                    <attribute name="count" attributeType="Integer 16" defaultValueString="many"/>
                </entity>
            """), line: 4, entity: "Item", property: "count", fragment: "defaultValueString 'many' does not fit type Integer 16"),
        .init(label: "integer default out of range", xml: ModelFixtures.modelXML("""
                <entity name="Item">
                    <attribute name="count" attributeType="Integer 16" defaultValueString="40000"/>
                </entity>
            """), line: 4, entity: "Item", property: "count", fragment: "does not fit type Integer 16"),
        .init(label: "unknown delete rule", xml: ModelFixtures.modelXML("""
                <entity name="A">
                    <relationship name="b" maxCount="1" deletionRule="Explode" destinationEntity="A"/>
                </entity>
            """), line: 4, entity: "A", property: "b", fragment: "unknown delete rule 'Explode'"),
        .init(label: "fetched property whose predicate does not parse", xml: ModelFixtures.modelXML("""
                <entity name="A">
                    <attribute name="n" optional="YES" attributeType="String"/>
                    <fetchedProperty name="same" optional="YES">
                        <fetchRequest name="fetchedPropertyFetchRequest" entity="A" predicateString="n == == 1"/>
                    </fetchedProperty>
                </entity>
            """), line: 6, entity: "A", property: "same", fragment: "the predicate \"n == == 1\" does not parse: expected a value or a key at 1:6"),
        .init(label: "fetch request template whose predicate does not parse", xml: ModelFixtures.modelXML("""
                <entity name="A">
                    <attribute name="n" optional="YES" attributeType="String"/>
                </entity>
                <fetchRequest name="Broken" entity="A" predicateString="n BEGINSWITH"/>
            """), line: 6, entity: nil, property: "Broken", fragment: "the predicate \"n BEGINSWITH\" does not parse"),
    ]

    @Test("a broken file is refused with an error naming file, line, entity and property", arguments: cases)
    func refused(_ c: BrokenModelCase) throws {
        let url = try ModelFixtures.writeModelFile(c.xml)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        do {
            _ = try XcodeModelFile.read(url)
            Issue.record("\(c.label) was accepted")
        } catch let error as ModelError {
            let text = error.description
            #expect(text.contains("Broken.xcdatamodel/contents"), "\(text)")
            #expect(text.contains(c.fragment), "\(text)")
            if let line = c.line { #expect(error.line == line, "\(text)") }
            #expect(error.entity == c.entity, "\(text)")
            #expect(error.property == c.property, "\(text)")
        }
    }

    @Test("a missing file is refused with its path")
    func missingFile() {
        #expect(throws: ModelError.self) { try XcodeModelFile.read(URL(fileURLWithPath: "/nonexistent/M.xcdatamodeld")) }
    }

    @Test("a model built in code is checked the same way")
    func programmaticChecks() {
        let bad = EntityDescription(name: "ToDo", relationships: [
            RelationshipDescription(name: "category", destination: "Nowhere"),
        ])
        #expect(throws: ModelError(.missingDestinationEntity("Nowhere"), entity: "ToDo", property: "category")) {
            try ManagedObjectModel(entities: [bad])
        }
        let clash = [
            EntityDescription(name: "Person", attributes: [AttributeDescription(name: "name", type: .string)]),
            EntityDescription(name: "Employee", parent: "Person", attributes: [AttributeDescription(name: "name", type: .string)]),
        ]
        #expect(throws: ModelError(.duplicateProperty, entity: "Employee", property: "name")) {
            try ManagedObjectModel(entities: clash)
        }
    }
}

@Suite("Model files too large to be models")
struct LargeModelTests {
    @Test("a contents file over 10 MB is refused by its size, before it is read")
    func tooLarge() throws {
        let folder = try Fixtures.temporaryDirectory("large-model").appendingPathComponent("Big.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let contents = folder.appendingPathComponent("contents")
        FileManager.default.createFile(atPath: contents.path, contents: nil)
        let handle = try FileHandle(forWritingTo: contents)
        try handle.truncate(atOffset: UInt64(XcodeModelFile.maximumSize + 1))
        try handle.close()
        let error = try #require(throws: ModelError.self) { try XcodeModelFile.readVersion(folder) }
        #expect("\(error)".contains("it is 10485761 bytes long, and a model file is at most 10 MB"), "\(error)")
        #expect("\(error)".contains(contents.path))
    }
}
