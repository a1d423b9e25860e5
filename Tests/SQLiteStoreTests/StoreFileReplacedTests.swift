import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

/// A store file removed or replaced under an open store (a sync tool, `git checkout`, a
/// restore from backup): a save never reports success for data that is not at the path.
@Suite("Store files that change underneath")
struct StoreFileReplacedTests {
    static let types: [StoreType] = [.sqlite, .xml, .binary]

    func open(_ type: StoreType, at url: URL) throws -> ManagedObjectContext {
        SQLiteStore.register()
        let coordinator = PersistentStoreCoordinator(model: try ModelFixtures.toDoModel())
        try coordinator.addStore(type: type, at: url)
        return ManagedObjectContext(coordinator: coordinator)
    }

    func names(_ type: StoreType, at url: URL) throws -> [String] {
        try open(type, at: url).fetch(FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")]))
            .compactMap { $0.string("name") }
    }

    @Test("a removed store file: the save is refused, saying so, and the changes stay in memory", arguments: types)
    func removed(type: StoreType) throws {
        let folder = try Fixtures.temporaryDirectory("replaced")
        let url = folder.appendingPathComponent("ToDo.store")
        let context = try open(type, at: url)
        try context.insertObject(forEntityName: "ToDo")["name"] = "First"
        try context.save()
        for file in StoreFiles.databaseFiles(forStoreAt: url) { try? FileManager.default.removeItem(at: file) }
        try context.insertObject(forEntityName: "ToDo")["name"] = "Second"
        #expect(throws: ObjectGraphError.storeFileMissing(file: url.path)) { try context.save() }
        #expect(context.insertedObjects.count == 1, "the change is kept to save elsewhere")
        #expect(!FileManager.default.fileExists(atPath: url.path), "nothing made anew behind the user's back")
    }

    @Test("a SQLite store file replaced by another: the save is refused and the file put there is left as it was")
    func replacedSQLite() throws {
        let folder = try Fixtures.temporaryDirectory("replaced")
        let url = folder.appendingPathComponent("ToDo.sqlite")
        let context = try open(.sqlite, at: url)
        try context.insertObject(forEntityName: "ToDo")["name"] = "Mine"
        try context.save()
        // A restore: another store moved into place, as sync tools and checkouts do.
        let backup = folder.appendingPathComponent("backup.sqlite")
        let other = try open(.sqlite, at: backup)
        try other.insertObject(forEntityName: "ToDo")["name"] = "From the backup"
        try other.save()
        for store in other.coordinator.stores { other.coordinator.removeStore(store) }
        for (from, to) in zip(StoreFiles.databaseFiles(forStoreAt: backup), StoreFiles.databaseFiles(forStoreAt: url)) {
            try? FileManager.default.removeItem(at: to)
            if FileManager.default.fileExists(atPath: from.path) { try FileManager.default.moveItem(at: from, to: to) }
        }
        try context.insertObject(forEntityName: "ToDo")["name"] = "Mine, later"
        #expect(throws: ObjectGraphError.storeFileReplaced(file: url.path)) { try context.save() }
        #expect(context.hasChanges)
        #expect(try names(.sqlite, at: url) == ["From the backup"], "the restored file is untouched")
    }

    @Test("an XML or binary store file replaced by another: the save reads it and keeps both sides' objects", arguments: [StoreType.xml, .binary])
    func replacedAtomic(type: StoreType) throws {
        let folder = try Fixtures.temporaryDirectory("replaced")
        let url = folder.appendingPathComponent("ToDo.store")
        let context = try open(type, at: url)
        try context.insertObject(forEntityName: "ToDo")["name"] = "Mine"
        try context.save()
        let other = try open(type, at: url)
        try other.insertObject(forEntityName: "ToDo")["name"] = "Theirs"
        try other.save()
        try context.insertObject(forEntityName: "ToDo")["name"] = "Mine, later"
        try context.save()
        #expect(try names(type, at: url) == ["Mine", "Mine, later", "Theirs"])
    }
}
