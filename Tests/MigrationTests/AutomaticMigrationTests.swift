import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import Migration
import SQLiteStore
import TestSupport

/// The versioning article's policy, without the call log of `ArticlePolicy` (which another
/// suite reads): items whose name starts with "a" or "A" get doNotAlert = YES.
final class LeadingAPolicy: EntityMigrationPolicy {
    override func createDestinationInstances(forSource source: ManagedObject, mapping: EntityMapping, manager: MigrationManager) throws {
        try super.createDestinationInstances(forSource: source, mapping: mapping, manager: manager)
        guard (source.string("name") ?? "").lowercased().hasPrefix("a") else { return }
        for destination in manager.destinationInstances(forEntityMappingNamed: mapping.name, sourceInstances: [source]) {
            destination["doNotAlert"] = true
        }
    }
}

/// The stack migrates by itself, as Core Data's container does: a store written with an
/// earlier version is found among the model's versions and brought up to the current one
/// when it is loaded, unless the store description says otherwise.
@Suite("Automatic migration by the container and the coordinator", .serialized)
struct AutomaticMigrationTests {
    let folder: URL
    /// The ToDo model's versions 1 and 2.
    let versions: ModelVersions

    init() throws {
        folder = try Fixtures.temporaryDirectory()
        let all = try XcodeModelFile.read(ModelFixtures.toDoHistory)
        versions = try ModelVersions(versions: Array(all.versions.prefix(2)), currentVersionName: "ToDo 2")
        SQLiteStore.register()
        MigrationPolicies.register(LeadingAPolicy.self, as: "LeadingAPolicy")
    }

    /// A version-1 store of four items, two in a category.
    func versionOneStore(_ type: StoreType) throws -> URL {
        let url = folder.appendingPathComponent("todo-\(UUID().uuidString).\(type.rawValue.lowercased())")
        let stack = try TestStack(model: versions.version(named: "ToDo")!, type: type, url: url)
        let home = try stack.context.insertObject(forEntityName: "Category")
        home["name"] = "Home"
        for (i, name) in ["answer mail", "Buy milk", "Ask Bob", "call mom"].enumerated() {
            let item = try stack.context.insertObject(forEntityName: "ToDo")
            item["name"] = .string(name)
            if i % 2 == 0 { item["category"] = .object(home) }
        }
        try stack.context.save()
        return url
    }

    /// `name=doNotAlert/category` for every item, by name.
    func items(_ context: ManagedObjectContext) throws -> [String] {
        try context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")])).map {
            "\($0.string("name")!)=\($0.bool("doNotAlert").map(String.init) ?? "nil")/\($0.object("category")?.string("name") ?? "-")"
        }
    }

    static let migrated = ["Ask Bob=false/Home", "Buy milk=false/-", "answer mail=false/Home", "call mom=false/-"]

    @Test("a container made with the model's versions migrates a version-1 store as it loads it, by default", arguments: [StoreType.sqlite, .xml, .binary])
    func containerMigratesByDefault(type: StoreType) throws {
        let url = try versionOneStore(type)
        let container = PersistentContainer(name: "ToDo", versions: versions,
                                            storeDescriptions: [.init(type: type, url: url)])
        #expect(container.storeDescriptions[0].shouldMigrateStoreAutomatically)
        #expect(container.storeDescriptions[0].shouldInferMappingModelAutomatically)
        try container.loadPersistentStores()
        #expect(try items(container.viewContext) == Self.migrated)
        #expect(FileManager.default.fileExists(atPath: url.path + ".backup"), "the original is kept")
        // Saved at version 2: a coordinator of version 2 alone opens it now.
        let reopened = PersistentStoreCoordinator(model: versions.current)
        #expect(throws: Never.self) { try reopened.addStore(type: type, at: url) }
    }

    @Test("the container runs a given mapping's custom policy and infers the rest")
    func containerRunsGivenMapping() throws {
        let url = try versionOneStore(.sqlite)
        let mapping = MappingModel(entityMappings: [EntityMapping(name: "ToDoToToDo", kind: .custom, source: "ToDo", destination: "ToDo",
                                                                  policyName: "LeadingAPolicy")],
                                   sourceVersion: "ToDo", destinationVersion: "ToDo 2")
        let container = PersistentContainer(name: "ToDo", versions: versions, mappings: [mapping],
                                            storeDescriptions: [.init(type: .sqlite, url: url)])
        try container.loadPersistentStores()
        #expect(try items(container.viewContext) == ["Ask Bob=true/Home", "Buy milk=false/-", "answer mail=true/Home", "call mom=false/-"])
    }

    @Test("with shouldMigrateStoreAutomatically off the store is refused and left byte for byte")
    func migrationTurnedOff() throws {
        let url = try versionOneStore(.xml)
        let before = try Data(contentsOf: url)
        var description = PersistentContainer.StoreDescription(type: .xml, url: url)
        description.shouldMigrateStoreAutomatically = false
        let container = PersistentContainer(name: "ToDo", versions: versions, storeDescriptions: [description])
        #expect(throws: ObjectGraphError.self) { try container.loadPersistentStores() }
        #expect(try Data(contentsOf: url) == before)
        #expect(container.coordinator.stores.isEmpty)
    }

    @Test("with shouldInferMappingModelAutomatically off a step without a mapping is refused, named, and nothing changes")
    func inferenceTurnedOff() throws {
        let url = try versionOneStore(.xml)
        let before = try Data(contentsOf: url)
        var description = PersistentContainer.StoreDescription(type: .xml, url: url)
        description.shouldInferMappingModelAutomatically = false
        let container = PersistentContainer(name: "ToDo", versions: versions, storeDescriptions: [description])
        let error = #expect(throws: MigrationError.self) { try container.loadPersistentStores() }
        #expect(error == .noMapping(from: "ToDo", to: "ToDo 2"))
        #expect(error?.description.contains("inferring one is turned off") == true)
        #expect(try Data(contentsOf: url) == before)
        #expect(!FileManager.default.fileExists(atPath: url.path + ".backup"))
    }

    @Test("a container that knows only the current version says what it needs to migrate, and changes nothing")
    func currentVersionOnly() throws {
        let url = try versionOneStore(.xml)
        let before = try Data(contentsOf: url)
        let container = PersistentContainer(name: "ToDo", model: versions.current, storeDescriptions: [.init(type: .xml, url: url)])
        let error = #expect(throws: ObjectGraphError.self) { try container.loadPersistentStores() }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.contains("cannot be migrated"), "\(text)")
        #expect(text.contains("entities differing: ToDo"), "\(text)")
        #expect(text.contains("PersistentStoreCoordinator(versions:)"), "\(text)")
        #expect(try Data(contentsOf: url) == before)
    }

    @Test("the coordinator's plain addStore migrates when its options ask; without them it refuses")
    func coordinatorAddStore() throws {
        let url = try versionOneStore(.sqlite)
        let refusing = PersistentStoreCoordinator(versions: versions)
        #expect(throws: ObjectGraphError.self) { try refusing.addStore(type: .sqlite, at: url) }
        let coordinator = PersistentStoreCoordinator(versions: versions)
        try coordinator.addStore(type: .sqlite, at: url, options: StoreOptions(migratesAutomatically: true, infersMappingModel: true))
        #expect(try items(ManagedObjectContext(coordinator: coordinator)) == Self.migrated)
    }

    @Test("an empty file opens as a new store, migration on as it is by default", arguments: [StoreType.sqlite, .xml, .binary])
    func emptyFileIsNew(type: StoreType) throws {
        let url = folder.appendingPathComponent("empty-\(UUID().uuidString).\(type.rawValue.lowercased())")
        FileManager.default.createFile(atPath: url.path, contents: Data())
        let container = PersistentContainer(name: "ToDo", versions: versions, storeDescriptions: [.init(type: type, url: url)])
        try container.loadPersistentStores()
        try container.viewContext.insertObject(forEntityName: "ToDo")["name"] = "first"
        try container.viewContext.save()
        #expect(try items(container.viewContext) == ["first=false/-"])
    }

    @Test("a store already at the current version opens without a migration or a backup")
    func currentStoreUntouched() throws {
        let url = folder.appendingPathComponent("current.sqlite")
        let stack = try TestStack(model: versions.current, type: .sqlite, url: url)
        try stack.context.insertObject(forEntityName: "ToDo")["name"] = "already there"
        try stack.context.save()
        let container = PersistentContainer(name: "ToDo", versions: versions, storeDescriptions: [.init(type: .sqlite, url: url)])
        try container.loadPersistentStores()
        #expect(try items(container.viewContext) == ["already there=false/-"])
        #expect(!FileManager.default.fileExists(atPath: url.path + ".backup"))
    }

    @Test("mapping files beside a model are found when they name it; another model's are passed over; a broken one is named")
    func bundledMappings() throws {
        let bundle = folder.appendingPathComponent("bundle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let model = bundle.appendingPathComponent("ToDo.xcdatamodeld")
        try FileManager.default.copyItem(at: ModelFixtures.toDoHistory, to: model)
        func write(_ name: String, _ text: String) throws { try Data(text.utf8).write(to: bundle.appendingPathComponent(name)) }
        try write("b.termdata-mapping", #"{"format": "termdata-mapping", "version": 1, "model": "ToDo", "source": "ToDo 2", "destination": "ToDo 3", "entityMappings": []}"#)
        try write("a.termdata-mapping", #"{"format": "termdata-mapping", "version": 1, "model": "ToDo", "source": "ToDo", "destination": "ToDo 2", "entityMappings": [{"name": "ToDoToToDo", "source": "ToDo", "destination": "ToDo", "policy": "LeadingAPolicy"}]}"#)
        try write("other.termdata-mapping", #"{"format": "termdata-mapping", "version": 1, "model": "Garden", "entityMappings": []}"#)
        try write("notes.json", "not a mapping")
        let found = try MappingModel.bundled(with: model)
        #expect(found.map { "\($0.sourceVersion!)→\($0.destinationVersion!)" } == ["ToDo→ToDo 2", "ToDo 2→ToDo 3"])
        #expect(found[0].entityMappings.first?.policyName == "LeadingAPolicy")

        try write("c.termdata-mapping", #"{"format": "termdata-mapping", "version": 1, "model": "ToDo", "entityMappings": [{"name": 3}]}"#)
        let error = #expect(throws: MigrationError.self) { try MappingModel.bundled(with: model) }
        #expect("\(error!)".contains("c.termdata-mapping: entity mapping 0 has no name"), "\(error!)")
    }

    @Test("a mapping file keeps the model it goes with when written and read back")
    func modelNameRoundTrips() throws {
        let url = folder.appendingPathComponent("m.termdata-mapping")
        try MappingModel(entityMappings: [], sourceVersion: "ToDo", destinationVersion: "ToDo 2", modelName: "ToDo").write(to: url)
        #expect(try MappingModel.read(url).modelName == "ToDo")
    }
}
