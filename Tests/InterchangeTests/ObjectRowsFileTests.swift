import Foundation
import Testing
import Interchange
import ObjectGraph
import ObjectModel
import Predicates
import TestSupport

/// Rows of objects to CSV and JSON files, replacing a file whole or not at all.
@Suite("Object rows files")
struct ObjectRowsFileTests {
    @Test("CSV: a header of @id and the keys, key paths through relationships, text a spreadsheet would run made inert")
    func csv() throws {
        let stack = try TestStack(model: try ModelFixtures.companyModel())
        try CompanyFixture.fill(stack.context)
        let ada = try #require(try stack.context.object(forEntityName: "Employee", matchingKey: "name", value: "Ada"))
        ada["name"] = "=Ada"
        let path = try Fixtures.temporaryDirectory("rows").appendingPathComponent("people.csv").path
        var file = try ObjectRowsFile(path: path, keys: ["name", "department.name", "projects.@count"])
        try file.write(ada)
        try file.finish()
        #expect(try String(contentsOfFile: path, encoding: .utf8)
                == "@id,name,department.name,projects.@count\n\(ada.objectID.uriRepresentation.absoluteString),'=Ada,Engineering,2\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent) == ["people.csv"],
                "nothing left beside it")
    }

    @Test("JSON by the name's ending: an array of objects; discarded, the file there before is left as it was")
    func jsonAndDiscard() throws {
        let stack = try TestStack(model: try ModelFixtures.companyModel())
        try CompanyFixture.fill(stack.context)
        let people = try stack.context.fetch(FetchRequest(entityName: "Employee", sortDescriptors: [ObjectSortDescriptor(key: "salary")]))
        let path = try Fixtures.temporaryDirectory("rows").appendingPathComponent("people.JSON").path
        var file = try ObjectRowsFile(path: path, keys: ["name", "salary"])
        #expect(file.format == .json)
        for person in people { try file.write(person) }
        try file.finish()
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == ["dave", "Bob", "Émile", "Cécile", "Ada"])
        #expect(rows.first?["salary"] as? Int == 0)

        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var again = try ObjectRowsFile(path: path, keys: ["name"])
        try again.write(people[0])
        again.discard()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        var empty = try ObjectRowsFile(path: path, keys: ["name"])
        try empty.finish()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "[]\n")
    }
}
