import Foundation
import Testing
import ObjectModel
import TestSupport

@Suite("Merging models")
struct ModelMergingTests {
    @Test("the models of several folders merge into one: every entity, relationship, template and configuration")
    func foldersMerge() throws {
        let one = try Fixtures.temporaryDirectory(), two = try Fixtures.temporaryDirectory()
        try FileManager.default.copyItem(at: ModelFixtures.employeeDirectory, to: one.appendingPathComponent("EmployeeDirectory.xcdatamodeld"))
        try FileManager.default.copyItem(at: ModelFixtures.xcodeServer.deletingLastPathComponent().appendingPathComponent("XcodeServer.momd"),
                                        to: two.appendingPathComponent("XcodeServer.momd"))
        try FileManager.default.copyItem(at: ModelFixtures.allFeatures, to: two.appendingPathComponent("AllFeatures.xcdatamodeld"))
        try Data("not a model".utf8).write(to: two.appendingPathComponent("notes.txt"))

        let employees = try ModelFile.read(ModelFixtures.employeeDirectory).current
        let server = try ModelFile.read(two.appendingPathComponent("XcodeServer.momd")).current
        let features = try ModelFile.read(ModelFixtures.allFeatures).current
        let merged = try ModelFile.mergedModel(inFolders: [one, two])
        #expect(Set(merged.entityNames) == Set(employees.entityNames + server.entityNames + features.entityNames))
        #expect(merged.entityNames.count == employees.entityNames.count + server.entityNames.count + features.entityNames.count)
        // Each entity keeps what its own model says of it, inheritance and inverses included.
        for part in [employees, server, features] {
            for entity in part.entities {
                let mergedEntity = try #require(merged.entity(named: entity.name))
                #expect(mergedEntity.parentName == entity.parentName)
                #expect(mergedEntity.attributes == entity.attributes && mergedEntity.relationships == entity.relationships, "\(entity.name)")
                #expect(merged.entityVersionHashes[entity.name] == part.entityVersionHashes[entity.name], "\(entity.name)")
            }
        }
        #expect(merged.fetchRequestTemplates.map(\.name).sorted()
                == (employees.fetchRequestTemplates + server.fetchRequestTemplates + features.fetchRequestTemplates).map(\.name).sorted())
        for configuration in features.configurations {
            #expect(merged.configuration(named: configuration.name)?.entityNames == configuration.entityNames)
        }
    }

    @Test("configurations of one name are joined")
    func configurationsJoin() throws {
        func model(_ entity: String, configuration: String) throws -> ManagedObjectModel {
            try ManagedObjectModel(entities: [EntityDescription(name: entity, attributes: [AttributeDescription(name: "name", type: .string)])],
                                   configurations: [ModelConfiguration(name: configuration, entityNames: [entity])])
        }
        let merged = try ManagedObjectModel(merging: [model("Note", configuration: "Cloud"), model("Draft", configuration: "Local"),
                                                      model("Tag", configuration: "Cloud")])
        #expect(merged.configuration(named: "Cloud")?.entityNames == ["Note", "Tag"])
        #expect(merged.configuration(named: "Local")?.entityNames == ["Draft"])
    }

    @Test("two models that define one entity are refused, naming the entity and both files")
    func clashNamesBothFiles() throws {
        // The corpus folder holds one model twice: compiled and as source.
        let folder = ModelFixtures.sampleModel.deletingLastPathComponent()
        let error = #expect(throws: ModelError.self) { try ModelFile.mergedModel(inFolders: [folder]) }
        let text = "\(error!)"
        #expect(text.contains("SampleModel.momd") && text.contains("SampleModel.xcdatamodeld"), "\(text)")
        #expect(text.contains("entity '"), "\(text)")
        #expect(text.contains("is defined both in"), "\(text)")
    }

    @Test("entity names that differ only in case clash too, as they would share a table")
    func caseClash() throws {
        let a = try ManagedObjectModel(entities: [EntityDescription(name: "Item")])
        let b = try ManagedObjectModel(entities: [EntityDescription(name: "ITEM")])
        let error = #expect(throws: ModelError.self) { try ManagedObjectModel(merging: [("A.xcdatamodeld", a), ("B.xcdatamodeld", b)]) }
        #expect(error?.description == "entity 'ITEM': the entity is defined both in A.xcdatamodeld and in B.xcdatamodeld; models merge only when their names differ")
    }

    @Test("a folder without a model says so")
    func emptyFolder() throws {
        let folder = try Fixtures.temporaryDirectory()
        let error = #expect(throws: ModelError.self) { try ModelFile.mergedModel(inFolders: [folder]) }
        #expect("\(error!)".contains("no .xcdatamodeld, .xcdatamodel, .momd or .mom in \(folder.path)"))
    }
}
