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

    @Test("a removed store file: its changes save as a new store, here or elsewhere, with every object keeping its ID", arguments: types)
    func removedSavesAsNewStore(type: StoreType) throws {
        let folder = try Fixtures.temporaryDirectory("relocated")
        let url = folder.appendingPathComponent("ToDo.store")
        let context = try open(type, at: url)
        let first = try context.insertObject(forEntityName: "ToDo")
        first["name"] = "First"
        try context.save()
        let id = first.objectID
        for file in StoreFiles.databaseFiles(forStoreAt: url) { try? FileManager.default.removeItem(at: file) }
        try context.insertObject(forEntityName: "ToDo")["name"] = "Second"
        first["name"] = "First, renamed"
        #expect(throws: ObjectGraphError.storeFileMissing(file: url.path)) { try context.save() }

        let store = try #require(context.coordinator.stores.first)
        let elsewhere = folder.appendingPathComponent("Saved as.store")
        let moved = try context.coordinator.relocateStore(store, to: elsewhere)
        #expect(moved.url == elsewhere && moved.identifier == store.identifier)
        try context.save()
        #expect(first.objectID == id, "the same ID in the new store")
        #expect(try names(type, at: elsewhere) == ["First, renamed", "Second"])
        // A file in the way is never overwritten.
        #expect(throws: ObjectGraphError.self) { try context.coordinator.relocateStore(moved, to: elsewhere) }
        // Back at the original path, which is free again.
        try context.coordinator.relocateStore(moved, to: url)
        try context.insertObject(forEntityName: "ToDo")["name"] = "Third"
        try context.save()
        #expect(try names(type, at: url) == ["First, renamed", "Second", "Third"])
    }

    @Test("a SQLite store replaced by a backup of itself: reopening it saves into it, through the merge policy")
    func replacedByBackupReopens() throws {
        let folder = try Fixtures.temporaryDirectory("reopened")
        let url = folder.appendingPathComponent("ToDo.sqlite")
        let context = try open(.sqlite, at: url)
        let mine = try context.insertObject(forEntityName: "ToDo")
        mine["name"] = "Mine"
        try context.save()
        // A backup now; later saves; then the backup is restored over the file.
        let backup = folder.appendingPathComponent("backup.sqlite")
        try #require(context.coordinator.stores.first).copyStore(to: backup)
        mine["name"] = "Mine 2"
        try context.save()
        try FileManager.default.removeItem(at: url)
        for file in StoreFiles.databaseFiles(forStoreAt: url).dropFirst() { try? FileManager.default.removeItem(at: file) }
        try FileManager.default.copyItem(at: backup, to: url)
        mine["name"] = "Mine 3"
        try context.insertObject(forEntityName: "ToDo")["name"] = "Later"
        #expect(throws: ObjectGraphError.storeFileReplaced(file: url.path)) { try context.save() }

        try context.coordinator.reopenStore(try #require(context.coordinator.stores.first))
        // The restored row is older than the one this context read: a conflict, as with another writer.
        #expect(throws: MergeConflictError.self) { try context.save() }
        context.mergePolicy = .mergeByPropertyObjectTrump
        try context.save()
        #expect(try names(.sqlite, at: url) == ["Later", "Mine 3"])
    }

    @Test("a store replaced by another store is not reopened: the changes save as a new store instead")
    func replacedByAnotherStore() throws {
        let folder = try Fixtures.temporaryDirectory("other-store")
        let url = folder.appendingPathComponent("ToDo.sqlite")
        let context = try open(.sqlite, at: url)
        try context.insertObject(forEntityName: "ToDo")["name"] = "Mine"
        try context.save()
        let other = folder.appendingPathComponent("other.sqlite")
        let otherContext = try open(.sqlite, at: other)
        try otherContext.insertObject(forEntityName: "ToDo")["name"] = "Theirs"
        try otherContext.save()
        for store in otherContext.coordinator.stores { otherContext.coordinator.removeStore(store) }
        for file in StoreFiles.databaseFiles(forStoreAt: url) { try? FileManager.default.removeItem(at: file) }
        try FileManager.default.moveItem(at: other, to: url)
        try context.insertObject(forEntityName: "ToDo")["name"] = "Mine, later"
        let store = try #require(context.coordinator.stores.first)
        #expect(throws: ObjectGraphError.otherStoreAtPath(file: url.path)) { try context.coordinator.reopenStore(store) }
        #expect(context.coordinator.stores.first === store, "the store stays as it was")
        let saved = folder.appendingPathComponent("Mine.sqlite")
        try context.coordinator.relocateStore(store, to: saved)
        try context.save()
        #expect(try names(.sqlite, at: saved) == ["Mine", "Mine, later"])
        #expect(try names(.sqlite, at: url) == ["Theirs"], "the other store is left alone")
    }
}
