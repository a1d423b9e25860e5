import Foundation
import Migration
import ObjectGraph
import ObjectModel
import Predicates
import PostgresStore
import SQLiteStore
import TermDataResources

/// The ToDo application's data: its store, opened (and created, and migrated from
/// version 1) at start, and the context the windows work in.
///
/// ```swift
/// let store = try ToDoStore.open(at: ToDoStore.defaultURL(), type: .sqlite)
/// store.context.insertObject(forEntityName: "ToDo")
/// ```
public final class ToDoStore {
    public let versions: ModelVersions
    public let coordinator: PersistentStoreCoordinator
    public let context: ManagedObjectContext
    /// The store's file; another one once the store is saved as a new store.
    public internal(set) var url: URL
    public let type: StoreType
    /// What the open migrated, if the store was written with version 1.
    public let migrations: [MigrationReport]
    /// Whether the store was created by this open.
    public let isNew: Bool

    /// `$XDG_DATA_HOME/termdata/ToDo.sqlite`, or `~/.local/share/termdata/ToDo.sqlite`.
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        PersistentContainer.defaultDirectory(environment: environment).appendingPathComponent("ToDo.sqlite")
    }

    /// The bundled model's versions.
    public static func bundledVersions() throws -> ModelVersions {
        try XcodeModelFile.read(BundledResources.toDoModelURL)
    }

    /// The mappings bundled beside the model (version 1 to 2 through the article's policy).
    public static func bundledMappings() throws -> [MappingModel] {
        try MappingModel.bundled(with: BundledResources.toDoModelURL)
    }

    /// Opens the store, creating it (with a welcome item and three categories unless
    /// `seeded` is false) when missing, and migrating a version-1 store with the article's
    /// policy. `now` dates the welcome item (due tomorrow at nine).
    public static func open(at url: URL, type: StoreType, seeded: Bool = true, now: Date = Date(),
                            progress: ((Double, String) -> Void)? = nil) throws -> ToDoStore {
        let versions = try bundledVersions()
        SQLiteStore.register()
        PostgresStore.register()
        DoNotAlertMigrationPolicy.register()
        if url.isFileURL { try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true) }
        var isNew = url.isFileURL && !FileManager.default.fileExists(atPath: url.path)
        let coordinator = PersistentStoreCoordinator(model: versions.current)
        ToDoClasses.register(in: coordinator)
        let (_, migrations) = try coordinator.addStore(
            type: type, at: url, versions: versions, mappings: try bundledMappings(),
            options: StoreOptions(migratesAutomatically: true, infersMappingModel: true, tracksHistory: true), progress: progress)
        // A store on a server is new when opening it made it.
        if let server = coordinator.stores.first as? PostgresStore { isNew = server.madeStore }
        let store = ToDoStore(versions: versions, coordinator: coordinator, url: url, type: type,
                              migrations: migrations, isNew: isNew)
        if isNew && seeded { try store.seed(now: now) }
        store.context.undoManager = UndoStack()
        return store
    }

    private init(versions: ModelVersions, coordinator: PersistentStoreCoordinator, url: URL, type: StoreType,
                 migrations: [MigrationReport], isNew: Bool) {
        self.versions = versions
        self.coordinator = coordinator
        self.context = ManagedObjectContext(coordinator: coordinator)
        context.transactionAuthor = "ToDo"
        self.url = url
        self.type = type
        self.migrations = migrations
        self.isNew = isNew
    }

    /// A welcome item and the categories Home, Work and Errands, saved.
    func seed(now: Date = Date()) throws {
        var categories: [String: ToDoCategory] = [:]
        for name in ["Home", "Work", "Errands"] {
            let category = try context.insert(ToDoCategory.self)
            category.name = name
            categories[name] = category
        }
        let welcome = try context.insert(ToDoItem.self)
        welcome.name = "Welcome! Press a to add an item, c for categories, ? for help"
        welcome.dueDate = Calendar.current.startOfDay(for: now).addingTimeInterval(86_400 + 9 * 3600)
        welcome.category = categories["Home"]
        try context.save()
    }

    /// How many unsaved changes the context holds (inserted, updated and deleted objects).
    /// The store as a title shows it: a file's name, or a server store's schema, database and host.
    public var displayName: String {
        guard !url.isFileURL, let location = try? PostgresLocation(url: url) else { return url.lastPathComponent }
        return "\(location.schema) in \(location.database) on \(location.host)"
    }

    public var unsavedChangeCount: Int {
        context.insertedObjects.count + context.updatedObjects.count + context.deletedObjects.count
    }
}


