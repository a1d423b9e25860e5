import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import Migration
import TestSupport

/// The article's policy: items whose name starts with "a" or "A" get doNotAlert = YES.
final class ArticlePolicy: EntityMigrationPolicy {
    nonisolated(unsafe) static var calls: [String] = []

    override func beginEntityMapping(_ mapping: EntityMapping, manager: MigrationManager) throws { Self.calls.append("begin") }
    override func createDestinationInstances(forSource source: ManagedObject, mapping: EntityMapping, manager: MigrationManager) throws {
        if Self.calls.last != "create" { Self.calls.append("create") }
        try super.createDestinationInstances(forSource: source, mapping: mapping, manager: manager)
        if (source.string("name") ?? "").lowercased().hasPrefix("a") {
            for destination in manager.destinationInstances(forEntityMappingNamed: mapping.name, sourceInstances: [source]) {
                destination["doNotAlert"] = true
            }
        }
    }
    override func endInstanceCreation(forMapping mapping: EntityMapping, manager: MigrationManager) throws { Self.calls.append("endCreate") }
    override func createRelationships(forDestination destination: ManagedObject, mapping: EntityMapping, manager: MigrationManager) throws {
        if Self.calls.last != "relate" { Self.calls.append("relate") }
        try super.createRelationships(forDestination: destination, mapping: mapping, manager: manager)
    }
    override func endRelationshipCreation(forMapping mapping: EntityMapping, manager: MigrationManager) throws { Self.calls.append("endRelate") }
    override func performCustomValidation(forMapping mapping: EntityMapping, manager: MigrationManager) throws { Self.calls.append("validate") }
    override func endEntityMapping(_ mapping: EntityMapping, manager: MigrationManager) throws { Self.calls.append("end") }
}

final class FailingPolicy: EntityMigrationPolicy {
    override func createRelationships(forDestination destination: ManagedObject, mapping: EntityMapping, manager: MigrationManager) throws {
        throw MigrationError.policyFailed(mapping: mapping.name, reason: "refused on purpose")
    }
}

@Suite("Store migration", .serialized)
struct StoreMigrationTests {
    let folder: URL
    let versions: ModelVersions

    init() throws {
        folder = try Fixtures.temporaryDirectory()
        versions = try XcodeModelFile.read(ModelFixtures.toDoHistory)
        MigrationPolicies.register(ArticlePolicy.self, as: "ArticlePolicy")
        MigrationPolicies.register(FailingPolicy.self, as: "FailingPolicy")
    }

    /// A version-1 store with categories and items.
    func versionOneStore(items names: [String] = ["answer mail", "Buy milk", "Ask Bob", "call mom"], type: StoreType = .xml) throws -> URL {
        let url = folder.appendingPathComponent("todo.\(type.rawValue)")
        let stack = try TestStack(model: versions.version(named: "ToDo")!, type: type, url: url)
        let home = try stack.context.insertObject(forEntityName: "Category")
        home["name"] = "Home"
        for (i, name) in names.enumerated() {
            let item = try stack.context.insertObject(forEntityName: "ToDo")
            item["name"] = .string(name)
            item["dueDate"] = .date(Date(timeIntervalSinceReferenceDate: Double(i)))
            if i % 2 == 0 { item["category"] = .object(home) }
        }
        try stack.context.save()
        return url
    }

    func articleMapping() -> MappingModel {
        MappingModel(entityMappings: [EntityMapping(name: "ToDoToToDo", kind: .custom, source: "ToDo", destination: "ToDo",
                                                    policyName: "ArticlePolicy")],
                     sourceVersion: "ToDo", destinationVersion: "ToDo 2")
    }

    @Test("the article's custom policy marks items starting with 'a' as do-not-alert, with Core Data's callback order")
    func articlePolicy() throws {
        let url = try versionOneStore()
        ArticlePolicy.calls = []
        let v2 = try ModelVersions(versions: Array(versions.versions.prefix(2)), currentVersionName: "ToDo 2")
        let coordinator = PersistentStoreCoordinator(model: v2.current)
        let (_, reports) = try coordinator.addStore(type: .xml, at: url, versions: v2, mappings: [articleMapping()],
                                                    options: StoreOptions(migratesAutomatically: true, infersMappingModel: true))
        #expect(reports.first?.objectCount == 5)
        #expect(ArticlePolicy.calls == ["begin", "create", "endCreate", "relate", "endRelate", "validate", "end"])
        let context = ManagedObjectContext(coordinator: coordinator)
        let items = try context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "dueDate")]))
        #expect(items.map { $0.string("name")! } == ["answer mail", "Buy milk", "Ask Bob", "call mom"])
        #expect(items.map { $0.bool("doNotAlert")! } == [true, false, true, false])
        #expect(items.map { $0.object("category")?.string("name") } == ["Home", nil, "Home", nil])
        #expect(FileManager.default.fileExists(atPath: url.path + ".backup"))
    }

    @Test("v1 goes to v3 through v2, each step inferred")
    func multiStep() throws {
        let url = try versionOneStore()
        let migrator = StoreMigrator(versions: versions)
        let plan = try migrator.plan(forStoreAt: url, type: .xml)
        #expect(plan.map { "\($0.from)→\($0.to)" } == ["ToDo→ToDo 2", "ToDo 2→ToDo 3"])
        #expect(plan[0].changes.contains("ToDo: adds doNotAlert, lastAlertDate"))
        #expect(plan[1].changes.contains("List: renamed from Category"))
        #expect(plan[1].changes.contains { $0.hasPrefix("ToDo: adds priority; title from name") })
        let reports = try migrator.migrateStore(at: url, type: .xml)
        #expect(reports.count == 2)
        let stack = try TestStack(model: versions.current, type: .xml, url: url)
        let items = try stack.context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "dueDate")]))
        #expect(items.map { $0.string("title")! } == ["answer mail", "Buy milk", "Ask Bob", "call mom"])
        #expect(items.map { $0.int("priority")! } == [2, 2, 2, 2])
        #expect(items.first?.object("list")?.string("name") == "Home")
        #expect(try stack.context.fetch(FetchRequest(entityName: "List")).first?.objects("items").count == 2)
    }

    @Test("a mapping that names a version the model lacks is refused, not left unused")
    func mappingForUnknownVersion() throws {
        let url = try versionOneStore()
        let before = try Data(contentsOf: url)
        let typo = MappingModel(entityMappings: [], sourceVersion: "ToDo 1", destinationVersion: "ToDo 2")
        let migrator = StoreMigrator(versions: versions, mappings: [typo])
        #expect(throws: MigrationError.unknownMappingVersion("ToDo 1", versions: ["ToDo", "ToDo 2", "ToDo 3"])) {
            try migrator.migrateStore(at: url, type: .xml)
        }
        #expect(try Data(contentsOf: url) == before)
        let named = MappingModel(entityMappings: [], sourceVersion: "ToDo 2", destinationVersion: "ToDo 3")
        #expect(throws: Never.self) { try StoreMigrator(versions: versions, mappings: [named]).plan(forStoreAt: url, type: .xml) }
    }

    @Test("a failed migration leaves the original store exactly as it was")
    func failure() throws {
        let url = try versionOneStore()
        let before = try Data(contentsOf: url)
        let failing = MappingModel(entityMappings: [EntityMapping(name: "ToDoToToDo", kind: .custom, source: "ToDo", destination: "ToDo",
                                                                  policyName: "FailingPolicy")],
                                   sourceVersion: "ToDo", destinationVersion: "ToDo 2")
        let migrator = StoreMigrator(versions: versions, mappings: [failing])
        #expect(throws: MigrationError.policyFailed(mapping: "ToDoToToDo", reason: "refused on purpose")) {
            try migrator.migrateStore(at: url, type: .xml)
        }
        #expect(try Data(contentsOf: url) == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != url.lastPathComponent }
        #expect(leftovers.isEmpty, "no temporary files remain: \(leftovers)")
    }

    @Test("a store of no known version is refused and untouched")
    func unknownVersion() throws {
        let other = try ManagedObjectModel(entities: [EntityDescription(name: "Thing", attributes: [AttributeDescription(name: "x", type: .string)])])
        let url = folder.appendingPathComponent("thing.xml")
        let stack = try TestStack(model: other, type: .xml, url: url)
        try stack.context.insertObject(forEntityName: "Thing")
        try stack.context.save()
        let before = try Data(contentsOf: url)
        #expect(throws: MigrationError.self) { try StoreMigrator(versions: versions).migrateStore(at: url, type: .xml) }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test("without the migrate option a store of an older version is refused, untouched")
    func withoutOption() throws {
        let url = try versionOneStore()
        let before = try Data(contentsOf: url)
        let coordinator = PersistentStoreCoordinator(model: versions.current)
        #expect(throws: ObjectGraphError.self) { try coordinator.addStore(type: .xml, at: url, versions: versions) }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test("a current store is opened without migration")
    func current() throws {
        let url = folder.appendingPathComponent("current.xml")
        let stack = try TestStack(model: versions.current, type: .xml, url: url)
        try stack.context.insertObject(forEntityName: "ToDo")
        try stack.context.save()
        let coordinator = PersistentStoreCoordinator(model: versions.current)
        let (_, reports) = try coordinator.addStore(type: .xml, at: url, versions: versions,
                                                    options: StoreOptions(migratesAutomatically: true))
        #expect(reports.isEmpty)
    }

    @Test("a store of 100,000 items migrates, with progress reported")
    func large() throws {
        let url = folder.appendingPathComponent("large.xml")
        let stack = try TestStack(model: versions.version(named: "ToDo")!, type: .xml, url: url)
        for i in 0..<100_000 {
            let item = try stack.context.insertObject(forEntityName: "ToDo")
            item["name"] = .string(i % 10 == 0 ? "a\(i)" : "item \(i)")
        }
        try stack.context.save()
        let v2 = try ModelVersions(versions: Array(versions.versions.prefix(2)), currentVersionName: "ToDo 2")
        var migrator = StoreMigrator(versions: v2, mappings: [articleMapping()])
        let fractions = LockedBox<[Double]>([])
        migrator.progress = { fraction, _ in fractions.value.append(fraction) }
        let reports = try migrator.migrateStore(at: url, type: .xml)
        #expect(reports.first?.objectCount == 100_000)
        #expect(fractions.value.count > 10 && fractions.value.last == 1)
        let reader = try TestStack(model: v2.current, type: .xml, url: url)
        #expect(try reader.context.count(for: FetchRequest(entityName: "ToDo", predicate: try ObjectPredicate(format: "doNotAlert == YES"))) == 10_000)
    }
}
