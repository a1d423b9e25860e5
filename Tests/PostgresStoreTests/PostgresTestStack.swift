import Foundation
import ObjectGraph
import ObjectModel
import PostgresStore
import TestSupport

/// A PostgreSQL store in a schema of its own on the tests' server, with a coordinator and a
/// context.
struct PostgresTestStack {
    let model: ManagedObjectModel
    let url: URL
    let coordinator: PersistentStoreCoordinator
    let context: ManagedObjectContext
    var store: PostgresStore { coordinator.stores[0] as! PostgresStore }

    init(model: ManagedObjectModel, url: URL? = nil, options: StoreOptions = StoreOptions()) throws {
        PostgresStore.register()
        self.model = model
        self.url = try url ?? PostgresServer.shared().storeURL()
        coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(type: .postgres, at: self.url, options: options)
        context = ManagedObjectContext(coordinator: coordinator)
    }

    /// Another coordinator (as another client would have) on the same store.
    func reopened(options: StoreOptions = StoreOptions()) throws -> PostgresTestStack {
        try PostgresTestStack(model: model, url: url, options: options)
    }

    func newContext() -> ManagedObjectContext { ManagedObjectContext(coordinator: coordinator) }
}
