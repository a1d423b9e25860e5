import Dispatch
import Foundation
import GRDB
import ObjectGraph
import ObjectModel
import SQLiteStore
import Testing
import TestSupport

/// Another connection holding the store's file: a store being opened or read waits for it,
/// up to `SQLiteStore.lockTimeout`, rather than failing with "database is locked".
@Suite("Waiting for another connection's lock")
struct LockWaitTests {
    /// A ToDo store in rollback-journal mode, held by another connection's exclusive
    /// transaction for `seconds` from the moment this returns: in that mode a writer's lock
    /// keeps readers out too (as the checkpoint of the last connection to close a WAL file
    /// does for a moment).
    func lockedStore(for seconds: Double) throws -> URL {
        let url = try {
            let stack = try SQLiteTestStack(model: try ModelFixtures.toDoModel())
            try ToDoFixture.fill(stack.context)
            return stack.url
        }()
        let holder = try DatabaseQueue(path: url.path)
        let mode = try holder.inDatabase { try String.fetchOne($0, sql: "PRAGMA journal_mode = DELETE") }
        #expect(mode == "delete")
        let locked = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? holder.inTransaction(.exclusive) { _ in
                locked.signal()
                Thread.sleep(forTimeInterval: seconds)
                return .commit
            }
        }
        locked.wait()
        return url
    }

    @Test("reading a store's metadata waits for the lock, then reads")
    func metadataWaits() throws {
        let url = try lockedStore(for: 0.5)
        let start = Date()
        let metadata = try SQLiteStore.readMetadata(at: url)
        #expect(!metadata.uuid.isEmpty)
        #expect(Date().timeIntervalSince(start) >= 0.3, "it waited for the lock rather than reading through it")
    }

    @Test("opening a store as a migrating open does (its metadata first, then the store) waits for the lock")
    func openWaits() throws {
        let url = try lockedStore(for: 0.5)
        SQLiteStore.register()
        let model = try ModelFixtures.toDoModel()
        let metadata = try PersistentStoreCoordinator.metadataForStore(ofType: .sqlite, at: url)
        #expect(model.isCompatible(withVersionHashes: metadata.versionHashes))
        let coordinator = PersistentStoreCoordinator(model: model)
        _ = try coordinator.addStore(type: .sqlite, at: url)
        #expect(try ManagedObjectContext(coordinator: coordinator).count(for: FetchRequest(entityName: "ToDo")) > 0)
    }
}
