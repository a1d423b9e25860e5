import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

/// What SQLite cannot do is said in the model's terms, before anything is made.
@Suite("SQLite's limits, said in the model's terms")
struct StoreLimitTests {
    @Test("an entity with more columns than SQLite takes is refused before a file is made")
    func tooManyColumns() throws {
        let attributes = (0..<2_100).map { #"<attribute name="a\#($0)" optional="YES" attributeType="String"/>"# }.joined()
        let model = try XcodeModelFile.readVersion(try ModelFixtures.writeModelFile(ModelFixtures.modelXML(#"<entity name="Wide">\#(attributes)</entity>"#)))
        SQLiteStore.register()
        let folder = try Fixtures.temporaryDirectory("wide")
        let url = folder.appendingPathComponent("Wide.sqlite")
        let coordinator = PersistentStoreCoordinator(model: model)
        let error = try #require(throws: ObjectGraphError.self) { try coordinator.addStore(type: .sqlite, at: url) }
        #expect("\(error)".contains("the entity Wide and its sub-entities need 2103 columns in one table, and SQLite takes at most 2000"), "\(error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "no half-made store is left")
    }

    @Test("a key path through more to-one steps than SQLite joins is a limit message, not SQLite's")
    func tooManyJoins() throws {
        let model = try XcodeModelFile.readVersion(try ModelFixtures.writeModelFile(ModelFixtures.modelXML("""
            <entity name="Node">
                <attribute name="value" optional="YES" attributeType="String"/>
                <relationship name="next" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Node"/>
            </entity>
            """)))
        let stack = try SQLiteTestStack(model: model)
        try stack.context.insertObject(forEntityName: "Node")["value"] = "x"
        try stack.context.save()
        let deep = Array(repeating: "next", count: 64).joined(separator: ".") + ".value == 'x'"
        let error = try #require(throws: SQLiteStoreError.self) {
            try stack.newContext().fetch(FetchRequest(entityName: "Node", predicate: try ObjectPredicate(format: deep)))
        }
        #expect("\(error)".contains("follow more than 63 to-one relationships, and SQLite joins at most 64 tables"), "\(error)")
        let deepest = Array(repeating: "next", count: 63).joined(separator: ".") + ".value == 'x'"
        #expect(try stack.newContext().fetch(FetchRequest(entityName: "Node", predicate: try ObjectPredicate(format: deepest))).isEmpty)
    }
}

@Suite("Files that are not yet stores, and stores of other models")
struct OtherFileTests {
    @Test("an empty file is a new store for every store type, as touch makes it", arguments: [StoreType.sqlite, .xml, .binary])
    func emptyFileIsNew(type: StoreType) throws {
        SQLiteStore.register()
        let url = try Fixtures.temporaryDirectory("empty").appendingPathComponent("ToDo.store")
        FileManager.default.createFile(atPath: url.path, contents: Data())
        let coordinator = PersistentStoreCoordinator(model: try ModelFixtures.toDoModel())
        try coordinator.addStore(type: type, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.insertObject(forEntityName: "ToDo")["name"] = "first"
        try context.save()
        let reopened = PersistentStoreCoordinator(model: try ModelFixtures.toDoModel())
        try reopened.addStore(type: type, at: url)
        #expect(try ManagedObjectContext(coordinator: reopened).count(for: FetchRequest(entityName: "ToDo")) == 1)
    }

    @Test("a store of another model altogether says so, naming both sides' entities, not 'another version'", arguments: [StoreType.sqlite, .xml, .binary])
    func otherModel(type: StoreType) throws {
        SQLiteStore.register()
        let url = try Fixtures.temporaryDirectory("other").appendingPathComponent("Company.store")
        let company = PersistentStoreCoordinator(model: try ModelFixtures.companyModel())
        try company.addStore(type: type, at: url)
        let context = ManagedObjectContext(coordinator: company)
        try context.insertObject(forEntityName: "Tag")["label"] = "x"
        try context.save()
        for store in company.stores { company.removeStore(store) }
        let error = try #require(throws: ObjectGraphError.self) {
            try PersistentStoreCoordinator(model: try ModelFixtures.toDoModel()).addStore(type: type, at: url)
        }
        guard case .otherModel(let file, let stored, let model) = error else {
            Issue.record("not said to be another model: \(error)")
            return
        }
        #expect(file == url.path)
        #expect(stored.contains("Tag") && model == ["Category", "ToDo"])
        #expect("\(error)".contains("give the store's own model with --model"))
    }
}
