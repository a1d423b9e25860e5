import Foundation
import Testing
import ObjectModel
import ObjectGraph
import Migration
import Predicates
import SQLiteStore
import TestSupport

/// A compiled mapping model (`.cdm`, as Xcode puts one in an app) read, placed among a
/// compiled model's versions by Apple's entity hashes, and used on a store Core Data wrote.
@Suite("Compiled mapping models")
struct CompiledMappingModelTests {
    static let folder = Fixtures.corpusFile("coredataplus-samplemodel")
    static let cdm = folder.appendingPathComponent("V2toV3.cdm")

    init() { SQLiteStore.register() }

    @Test("the entity mappings, their kinds, policies, expressions and Apple's entity hashes are read")
    func readsTheArchive() throws {
        let mapping = try MappingModel.read(Self.cdm)
        #expect(mapping.entityMappings.map(\.name) == ["CarToCar", "LuxuryCarToLuxuryCar", "PersonToPerson", "SportCarToSportCar", "Maker"])
        #expect(mapping.entityMappings.map(\.kind) == [.custom, .custom, .copy, .custom, .add])
        #expect(mapping.sourceVersion == nil && mapping.destinationVersion == nil, "a .cdm names no versions")
        #expect(Set(mapping.sourceEntityVersionHashes.keys) == ["Car", "LuxuryCar", "Person", "SportCar"])
        #expect(Set(mapping.destinationEntityVersionHashes.keys) == ["Car", "LuxuryCar", "Person", "SportCar", "Maker"])
        let car = mapping.entityMappings[0]
        #expect(car.policyName == "REPLACE_AT_RUNTIME.V2to3MakerPolicy")
        #expect(car.sourcePredicate == nil, "the source fetch is TRUEPREDICATE")
        #expect(car.attributeMappings.first { $0.name == "numberPlate" }?.valueExpression == .member(.variable("source"), keyPath: "numberPlate"))
        let createdBy = try #require(car.relationshipMappings.first { $0.name == "createdBy" })
        #expect(createdBy.valueExpression == nil, "no expression: the destination keeps its default")
        let owner = try #require(car.relationshipMappings.first { $0.name == "owner" }?.valueExpression)
        #expect(owner.description == #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:" , "PersonToPerson", $source.owner)"#)
        let cars = try #require(mapping.entityMappings[2].relationshipMappings.first { $0.name == "cars" }?.valueExpression)
        #expect(cars.description == #"FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:" , "cars", $source.cars)"#)
    }

    @Test("the hashes place it between the compiled model's versions 2 and 3; a model from its Xcode source cannot place it, and says why")
    func placedByHashes() throws {
        let mapping = try MappingModel.read(Self.cdm)
        var compiled = try CompiledModelFile.read(Self.folder.appendingPathComponent("SampleModel.momd"))
        compiled.currentVersionName = "SampleModel3"
        MigrationPolicies.register(MakerPolicy.self, as: "REPLACE_AT_RUNTIME.V2to3MakerPolicy")
        let steps = try StoreMigrator(versions: compiled, mappings: [mapping]).plan(from: "SampleModel2")
        #expect(steps.map { "\($0.from) → \($0.to) \($0.inferred)" } == ["SampleModel2 → SampleModel3 false"])

        // Two versions with the same hashes (they differ in what hashes leave out): the one
        // next to the destination is the source; with none next to it, the mapping is refused.
        let v2 = try #require(compiled.version(named: "SampleModel2")), v3 = try #require(compiled.version(named: "SampleModel3"))
        var twins = try ModelVersions(versions: [.init(name: "A", model: v2), .init(name: "B", model: v2), .init(name: "C", model: v3)],
                                      currentVersionName: "C")
        twins.appleVersionHashes = ["A": compiled.appleVersionHashes["SampleModel2"]!, "B": compiled.appleVersionHashes["SampleModel2"]!,
                                    "C": compiled.appleVersionHashes["SampleModel3"]!]
        let placed = try mapping.placed(among: twins)
        #expect(placed.sourceVersion == "B" && placed.destinationVersion == "C")
        twins.appleVersionHashes["D"] = compiled.appleVersionHashes["SampleModel3"]!
        twins.versions.append(.init(name: "D", model: v3))
        twins.appleVersionHashes["B"] = nil
        let ambiguous = #expect(throws: MigrationError.self) { try mapping.placed(among: twins) }
        #expect(ambiguous?.description.contains("its hashes fit several steps (A → C, A → D)") == true, "\(String(describing: ambiguous))")

        var source = try XcodeModelFile.read(Self.folder.appendingPathComponent("SampleModel.xcdatamodeld"))
        source.currentVersionName = "SampleModel3"
        let error = #expect(throws: MigrationError.self) { try StoreMigrator(versions: source, mappings: [mapping]).plan(from: "SampleModel2") }
        #expect(error?.description.contains("only a compiled model (.momd, its VersionInfo.plist) lists") == true, "\(String(describing: error))")
    }

    @Test("beside a compiled model, as Xcode puts it in an app, the .cdm is bundled with the model, placed; beside the Xcode source it is not")
    func bundledBesideTheMomd() throws {
        let beside = try MappingModel.bundled(with: Self.folder.appendingPathComponent("SampleModel.momd"))
        #expect(beside.map { "\($0.sourceVersion ?? "?") → \($0.destinationVersion ?? "?")" } == ["SampleModel2 → SampleModel3"])
        #expect(try MappingModel.bundled(with: Self.folder.appendingPathComponent("SampleModel.xcdatamodeld")).isEmpty)
    }

    /// The app's policy for cars, written here as CoreDataPlus's tests have it: the make,
    /// a string in version 2, becomes a `Maker` object, one per name.
    final class MakerPolicy: EntityMigrationPolicy {
        override func createDestinationInstances(forSource source: ManagedObject, mapping: EntityMapping,
                                                 manager: MigrationManager) throws {
            try super.createDestinationInstances(forSource: source, mapping: mapping, manager: manager)
            guard let car = manager.destinationInstances(forEntityMappingNamed: mapping.name, sourceInstances: [source]).first,
                  let name = source.string("maker") else { return }
            let context = manager.destinationContext!
            let maker = try context.fetch(FetchRequest(entityName: "Maker", predicate: try ObjectPredicate(format: "name == %@", name))).first
                ?? context.insertObject(forEntityName: "Maker")
            maker["name"] = .string(name)
            try car.setValue(maker, forKey: "createdBy")
        }
    }

    @Test("a store Core Data wrote with version 2 migrates to version 3 by the compiled mapping and the app's policy")
    func migratesAppleStore() throws {
        MigrationPolicies.register(MakerPolicy.self, as: "REPLACE_AT_RUNTIME.V2to3MakerPolicy")
        let url = try Fixtures.copyOfCorpusFile(ModelFixtures.sampleStoreV2)
        var versions = try CompiledModelFile.read(Self.folder.appendingPathComponent("SampleModel.momd"))
        versions.currentVersionName = "SampleModel3"
        let migrator = StoreMigrator(versions: versions, mappings: [try MappingModel.read(Self.cdm)])
        try migrator.migrateStore(at: url, type: .sqlite)

        let coordinator = PersistentStoreCoordinator(model: versions.current)
        try coordinator.addStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        #expect(try context.count(for: FetchRequest(entityName: "Car")) == 125)
        #expect(try context.count(for: FetchRequest(entityName: "Person")) == 20)
        // Ten makes in version 2's strings (FIAT on 103 cars): ten makers, each car made by one.
        #expect(try context.count(for: FetchRequest(entityName: "Maker")) == 10)
        let fiat = try #require(try context.fetch(FetchRequest(entityName: "Maker", predicate: try ObjectPredicate(format: "name == 'FIAT'"))).first)
        #expect(try context.count(for: FetchRequest(entityName: "Car", predicate: try ObjectPredicate(format: "createdBy == %@", fiat))) == 103)
        // Sub-entities kept (Xcode's mappings per entity), owners kept, and the previous owners
        // the mapping makes from them.
        #expect(try context.count(for: FetchRequest(entityName: "SportCar")) == 10)
        let owned = try context.count(for: FetchRequest(entityName: "Car", predicate: try ObjectPredicate(format: "owner != nil")))
        #expect(owned == 118)
        #expect(try context.count(for: FetchRequest(entityName: "Car", predicate: try ObjectPredicate(format: "previousOwners.@count == 1"))) == owned)
        #expect(try context.count(for: FetchRequest(entityName: "Person", predicate: try ObjectPredicate(format: "cars.@count > 0")))
                == context.count(for: FetchRequest(entityName: "Person", predicate: try ObjectPredicate(format: "previousCars.@count > 0"))))
    }
}
