import Foundation
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import Testing
import TestSupport

/// Xcode's derived attributes: read and written back, computed when a save reaches the store,
/// and found by fetches in SQL.
@Suite("Derived attributes")
struct DerivedAttributeTests {
    static let entities = """
        <entity name="Folder" representedClassName="Folder" syncable="YES">
            <attribute name="name" attributeType="String"/>
            <attribute name="searchName" optional="YES" attributeType="String" derived="YES" derivationExpression="canonical:(name)"/>
            <attribute name="noteCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="notes.@count" usesScalarValueType="YES"/>
            <attribute name="savedAt" optional="YES" attributeType="Date" derived="YES" derivationExpression="now()" usesScalarValueType="NO"/>
            <attribute name="savedAtSeconds" optional="YES" attributeType="Double" derived="YES" derivationExpression="now()" usesScalarValueType="YES"/>
            <relationship name="notes" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
        </entity>
        <entity name="Note" representedClassName="Note" syncable="YES">
            <attribute name="title" attributeType="String"/>
            <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
        </entity>
        """

    static func model() throws -> ManagedObjectModel {
        try XcodeModelFile.read(try ModelFixtures.writeModelFile(ModelFixtures.modelXML(entities), name: "Folders")).current
    }

    @Test("derived attributes as momc compiles them (SwiftGen's Model.momd) read with their expressions and are computed on save as the source says")
    func compiledByMomc() throws {
        let corpus = Fixtures.corpusFile("swiftgen-swiftgen")
        let compiled = try #require(try CompiledModelFile.read(corpus.appendingPathComponent("Model.momd")).version(named: "Model 2"))
        let source = try #require(try XcodeModelFile.read(corpus.appendingPathComponent("Model.xcdatamodeld")).version(named: "Model 2"))
        let child = try #require(compiled.entity(named: "ChildEntity"))
        #expect(child.derivedAttributes.map(\.name) == source.entity(named: "ChildEntity")?.derivedAttributes.map(\.name))
        #expect(child.derivedAttributes.map(\.name) == ["canonicalOptionalString", "derivedCount", "now"])
        #expect(child.attribute(named: "canonicalOptionalString")?.derivationExpression == "canonical:(optionalString)")
        #expect(child.attribute(named: "now")?.derivationExpression == "now()")

        let stack = try SQLiteTestStack(model: compiled)
        let object = try stack.context.insertObject(forEntityName: "ChildEntity")
        object["optionalString"] = "Ärger im Büro"
        object["string"] = "required"
        object["boolean"] = .bool(false)
        var members: [ObjectValue] = []
        for name in ["a", "b", "c"] {
            let secondary = try stack.context.insertObject(forEntityName: "SecondaryEntity")
            secondary["name"] = .string(name)
            members.append(.object(secondary))
        }
        try object.setValue(ObjectValue.array(members), forKey: "oneToMany")
        let before = Date().timeIntervalSinceReferenceDate
        try stack.context.save()
        #expect(object["canonicalOptionalString"] == "arger im buro")
        #expect(object["derivedCount"] == .int(3))
        #expect((object["now"].doubleValue ?? 0) >= before - 1)
    }

    @Test("a save computes each derived value — canonical text, a to-many's count, the time — keeps it in the store, and fetches find it there")
    func computedOnSave() throws {
        let stack = try SQLiteTestStack(model: try Self.model())
        let folder = try stack.context.insertObject(forEntityName: "Folder")
        folder["name"] = "Ünïcode Notes"
        var notes: [ManagedObject] = []
        for title in ["one", "two"] {
            let note = try stack.context.insertObject(forEntityName: "Note")
            note["title"] = .string(title)
            note["folder"] = .object(folder)
            notes.append(note)
        }
        let before = Date()
        try stack.context.save()
        #expect(folder["searchName"] == "unicode notes")
        #expect(folder["noteCount"] == .int(2))
        guard case .date(let savedAt) = folder["savedAt"] else { Issue.record("no time: \(folder["savedAt"])"); return }
        #expect(savedAt >= before.addingTimeInterval(-1) && savedAt <= Date())
        guard case .double(let seconds) = folder["savedAtSeconds"] else { Issue.record("no seconds: \(folder["savedAtSeconds"])"); return }
        #expect(abs(seconds - savedAt.timeIntervalSinceReferenceDate) < 1, "now() in a Double attribute: seconds since 2001")

        stack.context.delete(notes[0])
        try stack.context.save()
        #expect(folder["noteCount"] == .int(1), "a member gone: the count follows")

        let other = try stack.reopened().context
        let found = try other.fetch(FetchRequest(entityName: "Folder", predicate: try ObjectPredicate(format: "noteCount == 1 AND searchName == 'unicode notes'")))
        #expect(found.count == 1, "the store holds the computed values")
    }

    @Test("a derived attribute is written back as Xcode wrote it; an expression that does not parse is refused at its line")
    func modelFile() throws {
        let model = try Self.model()
        let folder = try #require(model.entity(named: "Folder"))
        #expect(folder.attributes.first { $0.name == "noteCount" }?.derivationExpression == "notes.@count")
        #expect(folder.derivedAttributes.map(\.name) == ["searchName", "noteCount", "savedAt", "savedAtSeconds"])
        let written = try Fixtures.temporaryDirectory().appendingPathComponent("Folders.xcdatamodel")
        try XcodeModelFile.writeVersion(model, to: written)
        let text = try String(contentsOf: written.appendingPathComponent("contents"), encoding: .utf8)
        #expect(text.contains(#"derived="YES" derivationExpression="notes.@count""#), "\(text)")
        #expect(try XcodeModelFile.readVersion(written).entity(named: "Folder")?.derivedAttributes.map(\.name) == ["searchName", "noteCount", "savedAt", "savedAtSeconds"])

        let broken = try ModelFixtures.writeModelFile(ModelFixtures.modelXML("""
            <entity name="Folder" syncable="YES">
                <attribute name="name" attributeType="String"/>
                <attribute name="count" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="notes.@count +" usesScalarValueType="YES"/>
            </entity>
            """), name: "Broken")
        #expect {
            _ = try XcodeModelFile.read(broken)
        } throws: { error in
            let text = "\(error)"
            return text.contains("Broken.xcdatamodel/contents:5:") && text.contains("property 'count'") && text.contains("notes.@count +")
        }
    }
}
