import Foundation
import ObjectModel
import Predicates
import Synchronization

/// Connects contexts to stores: adds and removes stores, routes each object to the
/// store that holds it, and serialises access to the stores, so contexts on several
/// threads can share one coordinator.
///
/// ```swift
/// let coordinator = PersistentStoreCoordinator(model: model)
/// try coordinator.addStore(type: .xml, at: URL(fileURLWithPath: "todo.xml"))
/// let context = ManagedObjectContext(coordinator: coordinator)
/// ```
public final class PersistentStoreCoordinator: @unchecked Sendable {
    /// Builds a store of a type that is not built in (SQLite registers itself this way).
    public typealias StoreFactory = @Sendable (ManagedObjectModel, URL?, String?, StoreOptions) throws -> any PersistentStore

    /// Brings a store written with an earlier version of the model up to it, for
    /// `addStore` when the store's options ask (`migratesAutomatically`). It is called only
    /// for a store that exists and whose metadata does not fit `model`, and throws when it
    /// cannot migrate (the store left as it was).
    public typealias AutomaticMigration = @Sendable (_ url: URL, _ type: StoreType, _ options: StoreOptions) throws -> Void

    /// The model the coordinator's stores hold objects of and its contexts make objects from.
    public let model: ManagedObjectModel
    /// How this coordinator migrates stores of earlier model versions; nil when it knows
    /// only the current version. `PersistentStoreCoordinator(versions:mappings:)`, in the
    /// Migration target, gives one that plans through every version.
    public let automaticMigration: AutomaticMigration?
    private let lock = NSRecursiveLock()
    /// The stores, behind a lock of their own: looking one up never waits for a save, which
    /// holds `lock` while it writes.
    private var _stores: [any PersistentStore] = []
    private let storeListLock = NSLock()
    /// Registered classes, behind a lock of their own: making an object never waits for a save.
    private var classes: [String: ManagedObject.Type] = [:]
    private let classLock = NSLock()
    /// Who hears of the saves made through the coordinator, under `lock` (`locked`).
    var saveObservers: [UUID: @Sendable (ContextDidSave) -> Void] = [:]
    /// Who hears of other writers' commits, and the watches that tell them, by store.
    let remoteChanges = Mutex(RemoteChangeState())
    /// For `interruptWork()`: a copy of the stores and the depth of interruptible work,
    /// behind `interruptionLock` (not the coordinator's lock, which the running work holds).
    private let interruptionLock = NSLock()
    private var interruptionState = InterruptionState()

    /// Runs `body` with the interruption state to itself.
    func withInterruptionState<T>(_ body: (inout InterruptionState) -> T) -> T {
        interruptionLock.lock()
        defer { interruptionLock.unlock() }
        return body(&interruptionState)
    }

    nonisolated(unsafe) private static var factories: [StoreType: StoreFactory] = [:]
    private static let factoryLock = NSLock()

    /// A coordinator with no stores for a model; without `automaticMigration` it knows only this
    /// version, and refuses stores written with another.
    public init(model: ManagedObjectModel, automaticMigration: AutomaticMigration? = nil) {
        self.model = model
        self.automaticMigration = automaticMigration
    }

    deinit {
        // The watches' threads end with the coordinator.
        let stops = remoteChanges.withLock { state in
            defer { state.watches = [:] }
            return Array(state.watches.values)
        }
        for stop in stops { stop() }
    }

    /// Makes `addStore(type:...)` able to create stores of another type.
    public static func registerStoreType(_ type: StoreType, factory: @escaping StoreFactory) {
        factoryLock.lock()
        defer { factoryLock.unlock() }
        factories[type] = factory
    }

    // MARK: Stores

    /// The stores, in the order they were added.
    public var stores: [any PersistentStore] { storeList { $0 } }

    /// Runs `body` with the list of stores to itself (changes also hold `lock`).
    private func storeList<T>(_ body: (inout [any PersistentStore]) throws -> T) rethrows -> T {
        storeListLock.lock()
        defer { storeListLock.unlock() }
        return try body(&_stores)
    }

    /// Opens (or creates) a store and adds it.
    ///
    /// A store written with an earlier model version is first migrated when
    /// `options.migratesAutomatically` is set and the coordinator has an
    /// `automaticMigration`; otherwise it is refused, untouched.
    ///
    /// - Parameters:
    ///   - type: the kind of store: a built-in type, or one made known with
    ///     `registerStoreType(_:factory:)`.
    ///   - configuration: the configuration whose entities the store holds; `nil` for all.
    ///   - url: where the store lives (a file, or a server's address); `nil` keeps an
    ///     in-memory or SQLite store in memory (XML and binary stores need a file).
    ///   - options: how the store is opened (read-only, automatic migration, …).
    /// - Returns: the store, open and added.
    /// - Throws: the store's error when its file cannot be read or belongs to another model
    ///   version; the migration's error when it cannot be brought up to this one.
    @discardableResult
    public func addStore(type: StoreType, configuration: String? = nil, at url: URL? = nil,
                         options: StoreOptions = StoreOptions()) throws -> any PersistentStore {
        if let configuration, configuration != ModelConfiguration.defaultName, model.configuration(named: configuration) == nil {
            throw ObjectGraphError.noConfiguration(configuration)
        }
        if let url, url.isFileURL, type != .inMemory {
            try StoreFiles.checkIsRegularFile(url)
            try StoreFiles.checkPermissions(url, readOnly: options.readOnly)
        }
        if let url, options.migratesAutomatically, !options.readOnly, type != .inMemory {
            try migrateIfNeeded(url, type: type, options: options)
        }
        let store = try openStore(type: type, configuration: configuration, at: url, options: options)
        try addStore(store)
        return store
    }

    /// Migrates the store at `url` when it exists and its metadata says it was written with
    /// another model version; refuses it, naming what is missing, when this coordinator
    /// knows no earlier versions.
    private func migrateIfNeeded(_ url: URL, type: StoreType, options: StoreOptions) throws {
        // A file is there or not; a server's store is there when its metadata can be read.
        if url.isFileURL && !FileManager.default.fileExists(atPath: url.path) { return }
        // Metadata that cannot be read (an empty file, which every store takes as new; or no
        // store at all, which opening it says in its own words) asks for no migration.
        guard let metadata = try? Self.metadataForStore(ofType: type, at: url) else { return }
        // Hashes of this model's own making decide at once; a store written by Apple's Core
        // Data keeps hashes only a compiled model lists, so the migration plan decides.
        if !metadata.versionHashes.isEmpty && model.isCompatible(withVersionHashes: metadata.versionHashes) { return }
        if metadata.versionHashes.isEmpty && metadata.appleVersionHashes.isEmpty { return }
        guard let automaticMigration else {
            guard metadata.versionHashes.isEmpty else {
                throw ObjectGraphError.cannotMigrate(
                    file: url.path, reason: "it was written with another version of the model (entities differing: "
                        + model.entitiesDiffering(fromVersionHashes: metadata.versionHashes).joined(separator: ", ")
                        + "), and this coordinator knows only the current version: create it with the model's versions, "
                        + "PersistentStoreCoordinator(versions:) or PersistentContainer(name:versions:)")
            }
            return
        }
        try automaticMigration(url, type, options)
    }

    /// Opens (or creates) a store of a type: the built-in ones here, others through their
    /// registered factory.
    private func openStore(type: StoreType, configuration: String?, at url: URL?, options: StoreOptions) throws -> any PersistentStore {
        switch type {
        case .inMemory:
            return try InMemoryStore(model: model, configurationName: configuration)
        case .xml:
            guard let url else { throw ObjectGraphError.storeNeedsFile(.xml) }
            return try XMLStore(model: model, url: url, configurationName: configuration, options: options)
        case .binary:
            guard let url else { throw ObjectGraphError.storeNeedsFile(.binary) }
            return try BinaryStore(model: model, url: url, configurationName: configuration, options: options)
        default:
            Self.factoryLock.lock()
            let factory = Self.factories[type]
            Self.factoryLock.unlock()
            guard let factory else { throw ObjectGraphError.storeTypeNotRegistered(type) }
            return try factory(model, url, configuration, options)
        }
    }

    /// Adds a store that is already open.
    public func addStore(_ store: any PersistentStore) throws {
        try locked {
            try storeList { stores in
                if stores.contains(where: { $0.identifier == store.identifier }) {
                    throw ObjectGraphError.storeAlreadyAdded(store.identifier)
                }
                stores.append(store)
            }
            shareStoresForInterruption()
        }
    }

    /// Removes a store; its objects can no longer be fetched or saved.
    public func removeStore(_ store: any PersistentStore) {
        locked {
            storeList { $0.removeAll { $0 === store } }
            shareStoresForInterruption()
            store.close()
        }
    }

    /// Called under the coordinator's lock whenever the stores change.
    private func shareStoresForInterruption() {
        let stores = storeList { $0 }
        withInterruptionState { $0.stores = stores }
        watchStores(stores)
    }

    /// The store with this UUID.
    public func store(withIdentifier identifier: String) -> (any PersistentStore)? {
        storeList { $0.first { $0.identifier == identifier } }
    }

    /// The stores that hold an entity: those whose configuration includes it.
    public func stores(forEntityName name: String) -> [any PersistentStore] {
        storeList { stores in
            stores.filter { store in
                guard let c = store.configurationName, c != ModelConfiguration.defaultName else { return true }
                return model.configuration(named: c)?.entityNames.contains(name) ?? false
            }
        }
    }

    /// The store an object ID belongs to.
    func store(for id: ManagedObjectID) throws -> any PersistentStore {
        guard let storeID = id.storeIdentifier else { throw ObjectGraphError.objectNotFound(entity: id.entityName, objectID: id.description) }
        guard let store = store(withIdentifier: storeID) else { throw ObjectGraphError.unknownStore(storeID) }
        return store
    }

    /// The object ID a URI names, if it names a store of this coordinator and an entity of its model.
    public func managedObjectID(forURI uri: URL) -> ManagedObjectID? {
        guard let id = ManagedObjectID.parse(uri: uri), model.entity(named: id.entityName) != nil,
              let storeID = id.storeIdentifier, store(withIdentifier: storeID) != nil else { return nil }
        return id
    }

    /// Copies a store's objects into a new store of another type or location, removes the
    /// old store and adds the new one. The old file is left as it was.
    @discardableResult
    public func migrateStore(_ store: any PersistentStore, to url: URL?, type: StoreType,
                             options: StoreOptions = StoreOptions()) throws -> any PersistentStore {
        let rows = try allRows(of: store)
        let target = try openStore(type: type, configuration: store.configurationName, at: url, options: options)
        // Rows go in as inserts with temporary IDs, then references are mapped to the new keys.
        var temporary: [ManagedObjectID: ManagedObjectID] = [:]
        for row in rows { temporary[row.objectID] = .temporary(entityName: row.objectID.entityName) }
        let inserted = rows.map { row in
            StoredRow(objectID: temporary[row.objectID]!, attributes: row.attributes,
                      toOne: row.toOne.compactMapValues { temporary[$0] },
                      toMany: row.toMany.mapValues { $0.compactMap { temporary[$0] } })
        }
        _ = try target.save(StoreChanges(inserted: inserted))
        locked {
            storeList { stores in
                stores.removeAll { $0 === store }
                stores.append(target)
            }
            store.close()
            shareStoresForInterruption()
        }
        return target
    }

    /// Saves a store as it is now to a new file and puts the copy in its place: the same UUID
    /// and keys, so that every object and ID of the contexts stays valid, and their unsaved
    /// changes then save to the copy. For a store whose file was removed or replaced under it
    /// (`ObjectGraphError.storeFileMissing`, `.storeFileReplaced`): "save as a new store".
    /// `url` may be the store's own path when nothing is there any more.
    ///
    /// - Throws: when `url` holds a file already, or the copy cannot be written or opened;
    ///   the store stays as it was.
    @discardableResult
    public func relocateStore(_ store: any PersistentStore, to url: URL, options: StoreOptions = StoreOptions()) throws -> any PersistentStore {
        try locked {
            if FileManager.default.fileExists(atPath: url.path) {
                throw ObjectGraphError.storeFormat(file: url.path, reason: "a file is there already; choose a new name")
            }
            try store.copyStore(to: url)
            return try swap(store, forStoreAt: url, type: store.type, options: options)
        }
    }

    /// Opens the file now at a store's path in the store's place, when it is the same store
    /// (the same UUID: a restored backup, a synced copy); a save then meets its rows through the
    /// merge policy. For `ObjectGraphError.storeFileReplaced`: "save into what is there now".
    ///
    /// - Throws: `ObjectGraphError.otherStoreAtPath` when the file is another store; the store
    ///   stays as it was.
    @discardableResult
    public func reopenStore(_ store: any PersistentStore, options: StoreOptions = StoreOptions()) throws -> any PersistentStore {
        guard let url = store.url else { return store }
        return try locked { try swap(store, forStoreAt: url, type: store.type, options: options) }
    }

    /// Opens the store at `url` and puts it in `store`'s place, if it has `store`'s UUID.
    private func swap(_ store: any PersistentStore, forStoreAt url: URL, type: StoreType,
                      options: StoreOptions) throws -> any PersistentStore {
        guard type != .inMemory else { return store }
        let opened = try openStore(type: type, configuration: store.configurationName, at: url, options: options)
        guard opened.identifier == store.identifier else {
            opened.close()
            throw ObjectGraphError.otherStoreAtPath(file: url.path)
        }
        storeList { stores in
            if let i = stores.firstIndex(where: { $0 === store }) { stores[i] = opened } else { stores.append(opened) }
        }
        shareStoresForInterruption()
        store.close()
        return opened
    }

    /// Every row of a store, with to-many relationships filled in.
    public func allRows(of store: any PersistentStore) throws -> [StoredRow] {
        try locked {
            var rows: [StoredRow] = []
            for entity in model.entities where !entity.isAbstract {
                let request = StoreRequest(fetch: FetchRequest(entityName: entity.name, includesSubentities: false),
                                           entityNames: [entity.name])
                guard case .rows(let ids, let fetched) = try store.execute(request) else { continue }
                for (i, id) in ids.enumerated() {
                    guard var row = try fetched?[i] ?? store.row(for: id) else { continue }
                    for r in entity.relationships where r.isToMany && row.toMany[r.name] == nil {
                        row.toMany[r.name] = try store.relatedObjectIDs(of: id, relationship: r)
                    }
                    rows.append(row)
                }
            }
            return rows
        }
    }

    // MARK: Classes

    /// Makes contexts create instances of `type` for an entity (and, unless they have their
    /// own, its sub-entities).
    public func register(_ type: ManagedObject.Type, forEntityName name: String) {
        classLock.lock()
        defer { classLock.unlock() }
        classes[name] = type
        registrationCount.add(1, ordering: .releasing)
    }

    /// How many classes were registered: contexts that cache an entity's class check it,
    /// once for every object they make, so it is read without taking the lock.
    var classRegistrations: Int { registrationCount.load(ordering: .acquiring) }
    private let registrationCount = Atomic<Int>(0)

    /// The class registered for this very entity, not inherited from an ancestor; nil for none.
    public func registeredClass(forEntityName name: String) -> ManagedObject.Type? {
        classLock.lock()
        defer { classLock.unlock() }
        return classes[name]
    }

    /// The class a context makes an entity's objects of: the one registered for it or its
    /// nearest ancestor, or `ManagedObject`.
    public func objectClass(forEntityName name: String) -> ManagedObject.Type {
        classLock.lock()
        defer { classLock.unlock() }
        if let type = classes[name] { return type }
        for ancestor in model.entity(named: name)?.ancestorNames ?? [] {
            if let type = classes[ancestor] { return type }
        }
        return ManagedObject.self
    }

    // MARK: Locking

    /// Runs a read of one store: under the coordinator's lock, unless the store answers
    /// reads on several threads at once (`readsConcurrently`), when readers on other threads
    /// and a save in progress do not hold it up.
    ///
    /// - Throws: `ObjectGraphError.stopped` when the calling thread's interruptible work was
    ///   stopped (`interruptWork`), or the store's error.
    public func reading<T>(_ store: any PersistentStore, _ body: () throws -> T) throws -> T {
        try checkNotStopped()
        if store.readsConcurrently { return try body() }
        return try locked(body)
    }

    /// Runs `body` with the stores to itself.
    public func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
