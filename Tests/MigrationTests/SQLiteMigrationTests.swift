import Foundation
import Testing
import GRDB
import Predicates
import ObjectModel
import ObjectGraph
import Migration
import SQLiteStore
import TestSupport

@Suite("Migrating SQLite stores", .serialized)
struct SQLiteMigrationTests {
    let folder: URL
    let versions: ModelVersions

    init() throws {
        SQLiteStore.register()
        folder = try Fixtures.temporaryDirectory()
        versions = try XcodeModelFile.read(ModelFixtures.toDoHistory)
    }

    func versionOneStore(items: Int = 4) throws -> URL {
        let url = folder.appendingPathComponent("todo.sqlite")
        let stack = try TestStack(model: versions.version(named: "ToDo")!, type: .sqlite, url: url)
        let home = try stack.context.insertObject(forEntityName: "Category")
        home["name"] = "Home"
        for i in 0..<items {
            let item = try stack.context.insertObject(forEntityName: "ToDo")
            item["name"] = .string("item \(i)")
            item["dueDate"] = .date(Date(timeIntervalSinceReferenceDate: Double(i)))
            if i % 2 == 0 { item["category"] = .object(home) }
        }
        try stack.context.save()
        return url
    }

    func columns(_ url: URL, table: String) throws -> Set<String> {
        let db = try DatabaseQueue(path: url.path)
        defer { try? db.close() }
        return try db.read { try Set($0.columns(in: table).map(\.name)) }
    }

    @Test("an inferred step changes the SQLite file in place, keeps a backup, and fills new columns with defaults")
    func inPlace() throws {
        let url = try versionOneStore()
        let v2 = try ModelVersions(versions: Array(versions.versions.prefix(2)), currentVersionName: "ToDo 2")
        let reports = try StoreMigrator(versions: v2).migrateStore(at: url, type: .sqlite)
        #expect(reports.count == 1)
        #expect(reports.first?.inPlace == true)
        #expect(reports[0].entities.first { $0.destination == "ToDo" }?.objects == 4)
        #expect(try columns(url, table: "ZTODO").isSuperset(of: ["ZDONOTALERT", "ZLASTALERTDATE", "ZNAME", "ZCATEGORY"]))
        #expect(FileManager.default.fileExists(atPath: url.path + ".backup"))
        #expect(try !columns(URL(fileURLWithPath: url.path + ".backup"), table: "ZTODO").contains("ZDONOTALERT"), "the backup is the original")
        let stack = try TestStack(model: v2.current, type: .sqlite, url: url)
        let items = try stack.context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "dueDate")]))
        #expect(items.map { $0.string("name")! } == ["item 0", "item 1", "item 2", "item 3"])
        #expect(items.allSatisfy { $0.bool("doNotAlert") == false && $0["lastAlertDate"] == .null })
        #expect(items.map { $0.object("category")?.string("name") } == ["Home", nil, "Home", nil])
    }

    @Test("a step that renames entities takes the general path; v1 reaches v3")
    func generalPath() throws {
        let url = try versionOneStore()
        let reports = try StoreMigrator(versions: versions).migrateStore(at: url, type: .sqlite)
        #expect(reports.count == 2)
        #expect(!reports.allSatisfy { $0.inPlace })
        let stack = try TestStack(model: versions.current, type: .sqlite, url: url)
        let lists = try stack.context.fetch(FetchRequest(entityName: "List"))
        #expect(lists.map { $0.string("name") } == ["Home"])
        #expect(lists.first?.objects("items").count == 2)
        #expect(try stack.context.count(for: FetchRequest(entityName: "ToDo", predicate: try ObjectPredicate(format: "priority == 2"))) == 4)
    }

    @Test("renamed attributes and relationships are renamed columns")
    func renames() throws {
        let old = try ManagedObjectModel(entities: [
            EntityDescription(name: "Note", attributes: [AttributeDescription(name: "text", type: .string)],
                              relationships: [RelationshipDescription(name: "folder", destination: "Folder", inverse: "notes")]),
            EntityDescription(name: "Folder", attributes: [AttributeDescription(name: "title", type: .string)],
                              relationships: [RelationshipDescription(name: "notes", destination: "Note", inverse: "folder", isToMany: true)]),
        ])
        var body = AttributeDescription(name: "body", type: .string)
        body.renamingIdentifier = "text"
        var parent = RelationshipDescription(name: "parent", destination: "Folder", inverse: "notes")
        parent.renamingIdentifier = "folder"
        let new = try ManagedObjectModel(entities: [
            EntityDescription(name: "Note", attributes: [body], relationships: [parent]),
            EntityDescription(name: "Folder", attributes: [AttributeDescription(name: "title", type: .string)],
                              relationships: [RelationshipDescription(name: "notes", destination: "Note", inverse: "parent", isToMany: true)]),
        ])
        let url = folder.appendingPathComponent("notes.sqlite")
        let stack = try TestStack(model: old, type: .sqlite, url: url)
        let f = try stack.context.insertObject(forEntityName: "Folder")
        f["title"] = "Inbox"
        let n = try stack.context.insertObject(forEntityName: "Note")
        n["text"] = "hello"
        n["folder"] = .object(f)
        try stack.context.save()
        let mapping = try MappingModel.inferred(from: old, to: new)
        #expect(try SQLiteStore.migrateInPlace(at: url, from: old, to: new, renames: ["Note": ["body": "text", "parent": "folder"]]))
        #expect(try columns(url, table: "ZNOTE").isSuperset(of: ["ZBODY", "ZPARENT"]))
        #expect(try !columns(url, table: "ZNOTE").contains("ZTEXT"))
        _ = mapping
        let reopened = try TestStack(model: new, type: .sqlite, url: url)
        let note = try #require(try reopened.context.fetch(FetchRequest(entityName: "Note")).first)
        #expect(note.string("body") == "hello")
        #expect(note.object("parent")?.string("title") == "Inbox")
    }

    @Test("an in-place migration that drops and renames columns remakes the history triggers, and history goes on")
    func historyAcrossInPlaceMigration() throws {
        let old = try ManagedObjectModel(entities: [EntityDescription(name: "Note", attributes: [
            AttributeDescription(name: "text", type: .string), AttributeDescription(name: "draft", type: .boolean)])])
        var body = AttributeDescription(name: "body", type: .string)
        body.renamingIdentifier = "text"
        let new = try ManagedObjectModel(entities: [EntityDescription(name: "Note", attributes: [body])])
        let url = folder.appendingPathComponent("history.sqlite")
        do {
            let coordinator = PersistentStoreCoordinator(model: old)
            try coordinator.addStore(type: .sqlite, at: url, options: StoreOptions(tracksHistory: true))
            let context = ManagedObjectContext(coordinator: coordinator)
            let note = try context.insertObject(forEntityName: "Note")
            note["text"] = "hello"
            try context.save()
            coordinator.removeStore(coordinator.stores[0])
        }
        // SQLite refuses to drop a column a trigger names: the triggers are remade around it.
        #expect(try SQLiteStore.migrateInPlace(at: url, from: old, to: new, renames: ["Note": ["body": "text"]]))
        let coordinator = PersistentStoreCoordinator(model: new)
        try coordinator.addStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let note = try #require(try context.fetch(FetchRequest(entityName: "Note")).first)
        note["body"] = "hello again"
        try context.save()
        let history = try coordinator.fetchHistory(HistoryRequest())
        #expect(history.count == 2)
        #expect(history.last?.changes.first?.updatedProperties == ["body"])
    }

    @Test("the article's custom policy runs on a SQLite store through the general path")
    func customPolicyOnSQLite() throws {
        let url = try versionOneStore(items: 3)
        let v2 = try ModelVersions(versions: Array(versions.versions.prefix(2)), currentVersionName: "ToDo 2")
        MigrationPolicies.register(ArticlePolicy.self, as: "ArticlePolicy")
        let mapping = MappingModel(entityMappings: [EntityMapping(name: "ToDoToToDo", kind: .custom, source: "ToDo", destination: "ToDo",
                                                                  policyName: "ArticlePolicy")], sourceVersion: "ToDo", destinationVersion: "ToDo 2")
        let reports = try StoreMigrator(versions: v2, mappings: [mapping]).migrateStore(at: url, type: .sqlite)
        #expect(reports.first?.inPlace == false)
        let stack = try TestStack(model: v2.current, type: .sqlite, url: url)
        #expect(try stack.context.count(for: FetchRequest(entityName: "ToDo")) == 3)
    }

    static let photoXML = """
        <entity name="Photo" representedClassName="Photo">
            <attribute name="name" optional="YES" attributeType="String"/>
            <attribute name="image" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
        </entity>
        """

    /// Two versions of a photo model; the second adds `extra` (an in-place step) or an entity
    /// (a general one).
    func photoVersions(inPlace: Bool) throws -> ModelVersions {
        let one = try XcodeModelFile.read(try ModelFixtures.writeModelFile(ModelFixtures.modelXML(Self.photoXML), name: "Photos")).current
        let added = inPlace
            ? Self.photoXML.replacingOccurrences(of: "</entity>", with: "    <attribute name=\"extra\" optional=\"YES\" attributeType=\"String\"/>\n</entity>")
            : Self.photoXML + "\n<entity name=\"Album\" representedClassName=\"Album\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"
        let two = try XcodeModelFile.read(try ModelFixtures.writeModelFile(ModelFixtures.modelXML(added), name: "Photos 2")).current
        return try ModelVersions(versions: [.init(name: "Photos", model: one), .init(name: "Photos 2", model: two)],
                                 currentVersionName: "Photos 2")
    }

    @Test("binary values kept in files stay readable in the migrated store and its backup, named with or without an extension",
          arguments: [("Photos.sqlite", false), ("Photos", false), ("Photos.sqlite", true), ("Photos", true)])
    func externalDataMigrates(name: String, inPlace: Bool) throws {
        let versions = try photoVersions(inPlace: inPlace)
        let url = folder.appendingPathComponent(name)
        let image = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        do {
            let stack = try TestStack(model: versions.versions[0].model, type: .sqlite, url: url)
            let item = try stack.context.insertObject(forEntityName: "Photo")
            item["image"] = .data(image)
            try stack.context.save()
        }
        let reports = try StoreMigrator(versions: versions).migrateStore(at: url, type: .sqlite)
        #expect(reports.first?.inPlace == inPlace)
        let stack = try TestStack(model: versions.current, type: .sqlite, url: url)
        #expect(try stack.context.fetch(FetchRequest(entityName: "Photo")).first?["image"] == .data(image))
        let backup = try TestStack(model: versions.versions[0].model, type: .sqlite, url: url.appendingPathExtension("backup"))
        #expect(try backup.context.fetch(FetchRequest(entityName: "Photo")).first?["image"] == .data(image))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("migrating") }
        #expect(leftovers.isEmpty, "no temporary store or support folder is left: \(leftovers)")
    }
}
