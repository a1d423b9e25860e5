import Foundation
import ObjectModel

/// The whole stack for a model in one object: coordinator, stores and a main context.
///
/// ```swift
/// let container = PersistentContainer(name: "ToDo", versions: try ModelFile.read(modelURL))   // Migration
/// try container.loadPersistentStores()            // ~/.local/share/termdata/ToDo.xml, migrated if older
/// let context = container.viewContext
/// ```
///
/// Made with a model alone (`PersistentContainer(name:model:)`) it knows no earlier
/// versions, and refuses a store written with one.
public final class PersistentContainer {
    /// Where and how one store is opened. As in Core Data's container, a store written with
    /// an earlier model version is migrated when it is loaded, its mapping inferred where no
    /// mapping is given: both switches are on unless turned off.
    public struct StoreDescription: Sendable {
        /// The kind of store to open: XML, binary, in-memory, or a registered type such as SQLite.
        public var type: StoreType
        /// Where the store lives: a file, or a server's URL; `nil` for an in-memory store.
        public var url: URL?
        /// The model configuration whose entities the store holds; `nil` for every entity.
        public var configuration: String?
        /// The options the store is opened with; `defaultOptions` unless given.
        public var options: StoreOptions

        /// The options a store description starts with: migrate, inferring mappings.
        public static let defaultOptions = StoreOptions(migratesAutomatically: true, infersMappingModel: true)

        /// A store of a type at a URL, holding a configuration's entities (all by default),
        /// migrated when loaded unless `options` say otherwise.
        public init(type: StoreType, url: URL?, configuration: String? = nil, options: StoreOptions = defaultOptions) {
            self.type = type
            self.url = url
            self.configuration = configuration
            self.options = options
        }

        /// Whether a store of an earlier model version is migrated when loaded (true by default).
        public var shouldMigrateStoreAutomatically: Bool {
            get { options.migratesAutomatically }
            set { options.migratesAutomatically = newValue }
        }

        /// Whether a migration step with no mapping given infers one (true by default); off,
        /// such a step is refused.
        public var shouldInferMappingModelAutomatically: Bool {
            get { options.infersMappingModel }
            set { options.infersMappingModel = newValue }
        }
    }

    /// The container's name, which names its default store file (`<name>.xml`).
    public let name: String
    /// The model the container's stores and contexts use: its coordinator's.
    public let model: ManagedObjectModel
    /// The coordinator that holds the loaded stores and that every context of the container uses.
    public let coordinator: PersistentStoreCoordinator
    /// The stores `loadPersistentStores` opens; by default one XML store named after the
    /// container in `defaultDirectory`.
    public var storeDescriptions: [StoreDescription]

    /// The context for the main thread, created on first use.
    public private(set) lazy var viewContext = ManagedObjectContext(coordinator: coordinator)

    /// A container for one model version; see the type's description on migration.
    public convenience init(name: String, model: ManagedObjectModel, storeDescriptions: [StoreDescription]? = nil) {
        self.init(name: name, coordinator: PersistentStoreCoordinator(model: model), storeDescriptions: storeDescriptions)
    }

    /// A container over a coordinator made elsewhere (with its versions, for migration).
    public init(name: String, coordinator: PersistentStoreCoordinator, storeDescriptions: [StoreDescription]? = nil) {
        self.name = name
        self.model = coordinator.model
        self.coordinator = coordinator
        self.storeDescriptions = storeDescriptions
            ?? [StoreDescription(type: .xml, url: Self.defaultDirectory().appendingPathComponent("\(name).xml"))]
    }

    /// `$XDG_DATA_HOME/termdata`, or `~/.local/share/termdata` when the variable is unset or empty.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        directory(xdg: "XDG_DATA_HOME", home: ".local/share", environment: environment)
    }

    /// `$<xdg>/termdata`, or `~/<home>/termdata` when the variable is unset, empty or not an
    /// absolute path, as the XDG base directory rules ask.
    ///
    ///     PersistentContainer.directory(xdg: "XDG_STATE_HOME", home: ".local/state")
    public static func directory(xdg variable: String, home path: String,
                                 environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment[variable], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("termdata", isDirectory: true)
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(path, isDirectory: true).appendingPathComponent("termdata", isDirectory: true)
    }

    /// Opens every described store, creating folders as needed.
    ///
    /// - Throws: the first store's error; stores opened before it stay open.
    public func loadPersistentStores() throws {
        for description in storeDescriptions {
            if let folder = description.url?.deletingLastPathComponent() {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            try coordinator.addStore(type: description.type, configuration: description.configuration,
                                     at: description.url, options: description.options)
        }
    }

    /// A new private-queue context for work off the main thread; use it through `perform`
    /// and merge its saves into `viewContext`.
    public func newBackgroundContext() -> ManagedObjectContext {
        ManagedObjectContext(coordinator: coordinator, concurrencyType: .privateQueue)
    }

    /// Runs `body` on a new background context's queue, and returns at once.
    ///
    /// ```swift
    /// container.performBackgroundTask { context in ... try? context.save() }
    /// ```
    public func performBackgroundTask(_ body: @escaping @Sendable (ManagedObjectContext) -> Void) {
        let context = newBackgroundContext()
        context.perform { body(context) }
    }

    /// Runs `body` on a new background context's queue and returns its value, or throws its
    /// error, when it has run.
    public func performBackgroundTask<T: Sendable, E: Error>(_ body: @escaping @Sendable (ManagedObjectContext) throws(E) -> T) async throws(E) -> T {
        let context = newBackgroundContext()
        return try await context.perform { () throws(E) -> T in try body(context) }
    }
}
