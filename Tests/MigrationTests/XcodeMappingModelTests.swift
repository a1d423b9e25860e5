import Foundation
import Testing
import ObjectModel
import ObjectGraph
import Migration
import Predicates
import SQLiteStore
import TestSupport

/// Mapping models made in Xcode's mapping editor (`.xcmappingmodel`), read as they are and
/// used to migrate a store Apple's Core Data wrote.
@Suite("Xcode's mapping models")
struct XcodeMappingModelTests {
    static let wibosco = Fixtures.corpusFile("wibosco-coredatamigration-example")
    static let corestore = Fixtures.corpusFile("johnestropia-corestore")

    init() { SQLiteStore.register() }

    @Test("a mapping model's versions, entity mappings and the expressions set in the editor are read; defaults are left to inference")
    func readsWiboscoMappings() throws {
        let oneToTwo = try MappingModel.read(Self.wibosco.appendingPathComponent("Migration1to2.xcmappingmodel"))
        #expect(oneToTwo.modelName == "CoreDataMigration_Example")
        #expect(oneToTwo.sourceVersion == "CoreDataMigration_Example")
        #expect(oneToTwo.destinationVersion == "CoreDataMigration_Example 2")
        let post = try #require(oneToTwo.entityMappings.first)
        #expect(oneToTwo.entityMappings.count == 1)
        #expect(post.name == "PostToPost" && post.kind == .transform && post.sourceEntityName == "Post" && post.destinationEntityName == "Post")
        // date and postID keep Xcode's default expressions: not listed, inference gives $source.date.
        #expect(post.attributeMappings.map(\.name) == ["hexColor"])
        #expect(post.attributeMappings.first?.valueExpression == .member(.variable("source"), keyPath: "color"))

        // The xcmapping.xml inside the folder reads the same.
        let file = try MappingModel.read(Self.wibosco.appendingPathComponent("Migration1to2.xcmappingmodel/xcmapping.xml"))
        #expect(file == oneToTwo)

        let twoToThree = try MappingModel.read(Self.wibosco.appendingPathComponent("Migration2to3.xcmappingmodel"))
        #expect(twoToThree.entityMappings.map(\.name) == ["Color", "PostToPost"], "in the editor's order (mappingnumber)")
        #expect(twoToThree.entityMappings[0].kind == .add && twoToThree.entityMappings[0].sourceEntityName == nil)
        #expect(twoToThree.entityMappings[1].kind == .custom)
        #expect(twoToThree.entityMappings[1].policyName == "CoreDataMigration_Example.Post2ToPost3MigrationPolicy")
    }

    @Test("a constant set in the editor and paths outside ASCII are read; a policy no program registered is named in the plan's refusal")
    func corestoreMappings() throws {
        let forward = try MappingModel.read(Self.corestore.appendingPathComponent("Advanced.EvolutionDemo.V2.FromV1.xcmappingmodel"))
        #expect(forward.sourceVersion == "Advanced.EvolutionDemo.V1" && forward.destinationVersion == "Advanced.EvolutionDemo.V2")
        #expect(forward.modelName == "Advanced.EvolutionDemo.V1")
        let creature = try #require(forward.entityMappings.first)
        let values = Dictionary(uniqueKeysWithValues: creature.attributeMappings.map { ($0.name, $0.valueExpression) })
        #expect(values == ["hasHead": .constant(.bool(true)),
                           "numberOfFlippers": .member(.variable("source"), keyPath: "numberOfFlagella")])

        let backward = try MappingModel.read(Self.corestore.appendingPathComponent("Advanced.EvolutionDemo.V1.FromV2.xcmappingmodel"))
        #expect(backward.entityMappings.first?.attributeMappings.map(\.name) == ["numberOfFlagella"])
        #expect(backward.entityMappings.first?.policyName == nil)

        // The policy is the app's class: until a program registers one under its name, the plan says which.
        var versions = try XcodeModelFile.read(Self.corestore.appendingPathComponent("Advanced.EvolutionDemo.V1.xcdatamodeld"))
        versions.currentVersionName = "Advanced.EvolutionDemo.V2"
        let migrator = StoreMigrator(versions: versions, mappings: [forward])
        let error = #expect(throws: MigrationError.self) { try migrator.plan(from: "Advanced.EvolutionDemo.V1") }
        #expect(error?.description.contains("no migration policy is registered as 'Advanced_EvolutionDemo_V2_FromV1MigrationPolicy'") == true,
                "\(String(describing: error))")
    }

    /// The app's policy for the step from version 2 to 3, written here as the app has it: each
    /// post gets a colour made from its hex string.
    final class PostToPostWithColor: EntityMigrationPolicy {
        override func createDestinationInstances(forSource source: ManagedObject, mapping: EntityMapping,
                                                 manager: MigrationManager) throws {
            try super.createDestinationInstances(forSource: source, mapping: mapping, manager: manager)
            guard let post = manager.destinationInstances(forEntityMappingNamed: mapping.name, sourceInstances: [source]).first else { return }
            let color = try manager.destinationContext.insertObject(forEntityName: "Color")
            color["colorID"] = .string(UUID().uuidString)
            color["hex"] = source["hexColor"]
            try post.setValue(color, forKey: "color")
        }
    }

    @Test("a store Core Data wrote with version 1 migrates through both Xcode mappings and a lightweight step to version 4")
    func migratesAppleStoreThroughXcodeMappings() throws {
        MigrationPolicies.register(PostToPostWithColor.self, as: "CoreDataMigration_Example.Post2ToPost3MigrationPolicy")
        let url = try Fixtures.copyOfCorpusFile(Self.wibosco.appendingPathComponent("CoreDataMigration_Example_1.sqlite"))
        let versions = try XcodeModelFile.read(Self.wibosco.appendingPathComponent("CoreDataMigration_Example.xcdatamodeld"))
        let mappings = try MappingModel.bundled(with: Self.wibosco.appendingPathComponent("CoreDataMigration_Example.xcdatamodeld"))
        #expect(mappings.count == 2, "the two .xcmappingmodel folders beside the model are its mappings")
        let migrator = StoreMigrator(versions: versions, mappings: mappings)
        #expect(try migrator.sourceVersion(forStoreAt: url, type: .sqlite) == "CoreDataMigration_Example")
        let steps = try migrator.plan(forStoreAt: url, type: .sqlite)
        #expect(steps.map { "\($0.from) → \($0.to) \($0.inferred)" } == [
            "CoreDataMigration_Example → CoreDataMigration_Example 2 false",
            "CoreDataMigration_Example 2 → CoreDataMigration_Example 3 false",
            "CoreDataMigration_Example 3 → CoreDataMigration_Example 4 true",
        ])
        try migrator.migrateStore(at: url, type: .sqlite)

        let coordinator = PersistentStoreCoordinator(model: versions.current)
        try coordinator.addStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let posts = try context.fetch(FetchRequest(entityName: "Post"))
        #expect(posts.count == 1001)
        let first = try #require(try context.fetch(FetchRequest(entityName: "Post",
            predicate: try ObjectPredicate(format: "postID == %@", "F3848AF4-92F0-45B1-9748-51782253BEC0"))).first)
        #expect(first.object("color")?.string("hex") == "6343E2", "color → hexColor → Color.hex")
        #expect(first.bool("hide") == false, "version 4's default")
        #expect(try context.count(for: FetchRequest(entityName: "Color")) == 1001)
        #expect(try context.count(for: FetchRequest(entityName: "Post", predicate: try ObjectPredicate(format: "color == nil"))) == 0)
    }

    @Test("Core Data's document type is read as a name; any other declaration, and a folder that is no mapping, are refused with where and why")
    func refusesWhatItMustNotRead() throws {
        let folder = try Fixtures.temporaryDirectory("xcmapping")
        let original = try String(contentsOf: Self.wibosco.appendingPathComponent("Migration1to2.xcmappingmodel/xcmapping.xml"), encoding: .utf8)
        let doctype = #"<!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">"#
        let hostile = original.replacingOccurrences(of: doctype, with: #"<!DOCTYPE database [<!ENTITY x SYSTEM "file:///etc/passwd">]>"#)
        let mapping = folder.appendingPathComponent("Hostile.xcmappingmodel")
        try FileManager.default.createDirectory(at: mapping, withIntermediateDirectories: true)
        try hostile.write(to: mapping.appendingPathComponent("xcmapping.xml"), atomically: true, encoding: .utf8)
        let refused = #expect(throws: MigrationError.self) { try MappingModel.read(mapping) }
        #expect(refused?.description.contains("xcmapping.xml:2: not an Xcode mapping model: malformed XML: a document type declaration") == true,
                "\(String(describing: refused))")

        // UTF-16 would hide a declaration from a byte search: refused as not UTF-8.
        let wide = folder.appendingPathComponent("Wide.xcmappingmodel")
        try FileManager.default.createDirectory(at: wide, withIntermediateDirectories: true)
        try hostile.data(using: .utf16LittleEndian)!.write(to: wide.appendingPathComponent("xcmapping.xml"))
        let notUTF8 = #expect(throws: MigrationError.self) { try MappingModel.read(wide) }
        #expect(notUTF8?.description.contains("a NUL byte: the file is not UTF-8 text") == true, "\(String(describing: notUTF8))")

        let empty = folder.appendingPathComponent("Empty.xcmappingmodel")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let noFile = #expect(throws: MigrationError.self) { try MappingModel.read(empty) }
        #expect(noFile?.description.contains("a folder that is not an Xcode mapping model (it holds no xcmapping.xml)") == true,
                "\(String(describing: noFile))")
    }
}
