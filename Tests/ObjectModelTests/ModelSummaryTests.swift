import Foundation
import Testing
import ObjectModel
import TestSupport

@Suite("Model summaries")
struct ModelSummaryTests {
    @Test("the text summary shows inheritance, types, constraints and relationships")
    func text() throws {
        let text = ModelSummary(try XcodeModelFile.read(ModelFixtures.employeeDirectory)).text
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains("Employee : Person"))
        #expect(lines.contains("Person  (abstract; sub-entities: Contractor, Employee)"))
        #expect(lines.contains { $0.hasPrefix("  salary") && $0.contains("Integer 32") && $0.contains("required, min 0") })
        #expect(lines.contains { $0.hasPrefix("  firstName") && $0.hasSuffix("(inherited)") })
        #expect(lines.contains { $0.hasPrefix("  projects") && $0.contains("to-many Project, inverse members, No Action") })
    }

    @Test("derived attributes show their expression, transformables their transformer and class, from the source and as momc compiled them")
    func derivedAndTransformable() throws {
        let corpus = Fixtures.corpusFile("swiftgen-swiftgen")
        for file in ["Model.xcdatamodeld", "Model.momd"] {
            let versions = try file.hasSuffix("momd") ? CompiledModelFile.read(corpus.appendingPathComponent(file))
                                                      : XcodeModelFile.read(corpus.appendingPathComponent(file))
            let lines = ModelSummary(versions).text.split(separator: "\n").map(String.init)
            #expect(lines.contains { $0.hasPrefix("  canonicalOptionalString") && $0.hasSuffix("optional, derived canonical:(optionalString)") },
                    "\(file): \(lines.filter { $0.contains("canonical") })")
            #expect(lines.contains { $0.hasPrefix("  now ") && $0.hasSuffix("derived now()") }, "\(file)")
            #expect(lines.contains { $0.hasPrefix("  transformableCustomArray") && $0.contains("optional, class CustomArray") }, "\(file)")
        }
        let json = try ModelSummary(try XcodeModelFile.read(Fixtures.corpusFile("swiftgen-swiftgen/Model.xcdatamodeld"))).json()
        #expect(json.contains("\"derivationExpression\" : \"oneToMany.@count\""), "\(json.prefix(400))")
    }

    @Test("the JSON summary puts each entity under its name")
    func json() throws {
        let json = try ModelSummary(try XcodeModelFile.read(ModelFixtures.toDo)).json()
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let entities = try #require(root["entities"] as? [String: Any])
        #expect(Set(entities.keys) == ["Category", "ToDo"])
        let todo = try #require(entities["ToDo"] as? [String: Any])
        let attributes = try #require(todo["attributes"] as? [String: Any])
        let due = try #require(attributes["dueDate"] as? [String: Any])
        #expect(due["type"] as? String == "Date")
        #expect(due["indexed"] as? Bool == true)
        let relationships = try #require(todo["relationships"] as? [String: Any])
        let category = try #require(relationships["category"] as? [String: Any])
        #expect(category["inverse"] as? String == "todos")
        #expect(category["toMany"] as? Bool == false)
        #expect(root["currentVersion"] as? String == "ToDo 2")
    }
}
