import Foundation
import Testing
import ObjectModel
import TestSupport

@Suite("Writing Xcode model files")
struct XcodeModelWritingTests {
    @Test("read, write, read gives the same model", arguments: ModelFixtures.corpusModels + [ModelFixtures.toDo])
    func roundTrip(url: URL) throws {
        let original = try XcodeModelFile.read(url)
        let copy = try Fixtures.temporaryDirectory().appendingPathComponent("Copy.xcdatamodeld")
        defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
        try XcodeModelFile.write(original, to: copy)
        let reread = try XcodeModelFile.read(copy)
        #expect(reread == original)
        #expect(reread.current.entityVersionHashes == original.current.entityVersionHashes)
    }

    @Test("written XML escapes quotes and ampersands in predicates and values")
    func escaping() throws {
        let entity = EntityDescription(name: "Note", attributes: [
            AttributeDescription(name: "title", type: .string, defaultValue: "Tom & \"Jerry\" <3"),
        ], fetchedProperties: [
            FetchedPropertyDescription(name: "same", entityName: "Note", predicateFormat: "title == \"a&b\" AND 1 < 2"),
        ])
        let model = try ManagedObjectModel(entities: [entity])
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("Note.xcdatamodel")
        try XcodeModelFile.writeVersion(model, to: folder)
        let text = try String(contentsOf: folder.appendingPathComponent("contents"), encoding: .utf8)
        #expect(text.contains("defaultValueString=\"Tom &amp; &quot;Jerry&quot; &lt;3\""))
        #expect(try XcodeModelFile.readVersion(folder) == model)
    }
}
