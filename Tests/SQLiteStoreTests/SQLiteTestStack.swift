import Foundation
import GRDB
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

/// A SQLite store in a fresh temporary folder, with a coordinator and a context.
struct SQLiteTestStack {
    let model: ManagedObjectModel
    let url: URL
    let coordinator: PersistentStoreCoordinator
    let context: ManagedObjectContext
    var store: SQLiteStore { coordinator.stores[0] as! SQLiteStore }

    init(model: ManagedObjectModel, url: URL? = nil, options: StoreOptions = StoreOptions()) throws {
        SQLiteStore.register()
        self.model = model
        self.url = try url ?? Fixtures.temporaryDirectory("sqlite").appendingPathComponent("Store.sqlite")
        coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(type: .sqlite, at: self.url, options: options)
        context = ManagedObjectContext(coordinator: coordinator)
    }

    /// Another coordinator (as another process would have) on the same file.
    func reopened() throws -> SQLiteTestStack { try SQLiteTestStack(model: model, url: url) }

    func newContext() -> ManagedObjectContext { ManagedObjectContext(coordinator: coordinator) }

    /// Runs raw SQL against the file, outside the store.
    func rawRows(_ sql: String) throws -> [Row] { try Self.rawRows(url, sql) }

    static func rawRows(_ url: URL, _ sql: String) throws -> [Row] {
        let queue = try DatabaseQueue(path: url.path)
        return try queue.read { try Row.fetchAll($0, sql: sql) }
    }

    /// Every CREATE statement of a file, sorted.
    static func schemaStatements(_ url: URL) throws -> [String] {
        try rawRows(url, "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name").map { $0[0] as String }
    }
}
