import Foundation
import Testing
import Predicates
import ObjectModel
import Migration
import TestSupport

@Suite("Mapping files")
struct MappingFileTests {
    @Test("a mapping file reads back as written")
    func roundTrip() throws {
        let versions = try XcodeModelFile.read(ModelFixtures.toDoHistory)
        let mapping = try MappingModel.inferred(from: versions.version(named: "ToDo 2")!, to: versions.current,
                                                sourceVersion: "ToDo 2", destinationVersion: "ToDo 3")
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("m.json")
        try mapping.write(to: url)
        #expect(try MappingModel.read(url) == mapping)
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains("\"format\" : \"termdata-mapping\""))
        #expect(text.contains("$source.name"))
    }

    @Test("a property mapping without an expression (the destination keeps its default) reads back without one, not as the value nil")
    func mappingWithoutExpression() throws {
        let mapping = MappingModel(entityMappings: [EntityMapping(
            name: "ToDoToToDo", kind: .transform, source: "ToDo", destination: "ToDo", sourcePredicate: nil,
            attributeMappings: [PropertyMapping(name: "name", value: try ObjectExpression(format: "$source.name")),
                                PropertyMapping(name: "priority", value: nil),
                                PropertyMapping(name: "notes", value: try ObjectExpression(format: "nil"))],
            relationshipMappings: [], policyName: nil, userInfo: [:])],
            sourceVersion: "ToDo", destinationVersion: "ToDo 2", modelName: "ToDo")
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("m.json")
        try mapping.write(to: url)
        let read = try MappingModel.read(url)
        let attributes = try #require(read.entityMappings.first?.attributeMappings)
        #expect(attributes == mapping.entityMappings[0].attributeMappings.sorted { $0.name < $1.name }, "the file lists them by name")
        #expect(attributes.first { $0.name == "priority" }?.valueExpression == nil)
        #expect(attributes.first { $0.name == "notes" }?.valueExpression != nil)
    }

    @Test("a value expression like the article's relationship mapping parses")
    func expressions() throws {
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("m.json")
        try Data(#"""
        {"format": "termdata-mapping", "version": 1, "source": "ToDo", "destination": "ToDo 2",
         "entityMappings": [{"name": "ToDoToToDo", "source": "ToDo", "destination": "ToDo",
           "attributes": {"name": "$source.name"},
           "relationships": {"category": "FUNCTION($manager, 'destinationInstancesForEntityMappingNamed:sourceInstances:', 'CategoryToCategory', $source.category)"}}]}
        """#.utf8).write(to: url)
        let mapping = try MappingModel.read(url)
        let relationship = try #require(mapping.entityMappings.first?.relationshipMappings.first)
        guard case .customFunction(_, let selector, let arguments)? = relationship.valueExpression else {
            Issue.record("not a FUNCTION expression"); return
        }
        #expect(selector == "destinationInstancesForEntityMappingNamed:sourceInstances:")
        #expect(arguments.count == 2)
        #expect(mapping.entityMappings.first?.kind == .transform)
    }

    @Test("a broken mapping file names the file and what is wrong", arguments: [
        ("{\"format\": \"other\"}", "not a mapping file"),
        ("{\"format\": \"termdata-mapping\", \"version\": 9, \"entityMappings\": []}", "format version 9"),
        ("{\"format\": \"termdata-mapping\", \"version\": 1, \"entityMappings\": [{\"name\": \"X\", \"attributes\": {\"a\": \"$source.\"}}]}", "entity mapping X, attributes.a"),
        ("not json", "not JSON"),
    ])
    func broken(text: String, fragment: String) throws {
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("bad.json")
        try Data(text.utf8).write(to: url)
        #expect {
            try MappingModel.read(url)
        } throws: { error in
            "\(error)".contains(fragment) && "\(error)".contains(url.path)
        }
    }
}
