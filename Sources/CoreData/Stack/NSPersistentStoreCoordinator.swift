import Foundation
import Migration
import ObjectGraph
import ObjectModel
import SQLiteStore
import Synchronization

/// Core Data's coordinator is the engine's; the extension gives it Core Data's initializer,
/// store types and options.
public typealias NSPersistentStoreCoordinator = PersistentStoreCoordinator

// The store types, under Core Data's names and with its strings.
/// A SQLite file in Core Data's layout, whose rows are read and written as needed (`"SQLite"`).
public let NSSQLiteStoreType = StoreType.sqlite.rawValue
/// A store in memory only, gone when the process ends (`"InMemory"`).
public let NSInMemoryStoreType = StoreType.inMemory.rawValue
/// A binary property list file, read and written whole (`"Binary"`).
public let NSBinaryStoreType = StoreType.binary.rawValue
/// Core Data has an XML store on macOS only; here it is on Linux too.
public let NSXMLStoreType = StoreType.xml.rawValue

// The options of `addPersistentStore(ofType:configurationName:at:options:)` that mean
// something here; others are accepted and ignored, as Core Data ignores keys it does not know.
/// Migrates a store written with an earlier version of the model when it is added.
public let NSMigratePersistentStoresAutomaticallyOption = "NSMigratePersistentStoresAutomaticallyOption"
/// Infers the mapping for an automatic migration where it can.
public let NSInferMappingModelAutomaticallyOption = "NSInferMappingModelAutomaticallyOption"
/// Opens the store read-only; saves to it fail.
public let NSReadOnlyPersistentStoreOption = "NSReadOnlyPersistentStoreOption"
/// Records every transaction in the store's persistent history (each save, batch request and other
/// program's write), for history requests and for other processes to merge.
public let NSPersistentHistoryTrackingKey = "NSPersistentHistoryTrackingKey"
/// Opens a store written with another model version without checking its version hashes.
public let NSIgnorePersistentStoreVersioningOption = "NSIgnorePersistentStoreVersioningOption"
/// Accepted for code that sets it; saves through other coordinators are seen here anyway.
public let NSPersistentStoreRemoteChangeNotificationPostOptionKey = "NSPersistentStoreRemoteChangeNotificationOptionKey"
/// Accepted and ignored: SQLite's settings are the store's own (write-ahead log, foreign keys off).
public let NSSQLitePragmasOption = "NSSQLitePragmasOption"
/// Accepted and ignored: files are protected by their permissions on Linux.
public let NSPersistentStoreFileProtectionKey = "NSPersistentStoreFileProtectionKey"

// Keys of a store's metadata dictionary.
/// The type of store that wrote the metadata (`NSSQLiteStoreType`, …).
public let NSStoreTypeKey = "NSStoreType"
/// The store's UUID, its `identifier`, which permanent object IDs and their URIs carry.
public let NSStoreUUIDKey = "NSStoreUUID"
/// The entity version hashes of the model the store was last saved with, by entity name
/// (`[String: Data]`).
public let NSStoreModelVersionHashesKey = "NSStoreModelVersionHashes"
/// The version identifiers of the model the store was saved with (`[String]`).
public let NSStoreModelVersionIdentifiersKey = "NSStoreModelVersionIdentifiers"

extension PersistentStoreCoordinator {
    /// A coordinator for a model. A model read from a file with several versions migrates
    /// stores written with an earlier one when they are added with
    /// `NSMigratePersistentStoresAutomaticallyOption`.
    public convenience init(managedObjectModel model: NSManagedObjectModel) {
        CoreDataStores.registerOnce()
        if let versions = model.versions {
            self.init(versions: versions)
        } else {
            self.init(model: model.engineModel)
        }
        CoordinatorDirectory.add(self)
        ManagedClasses.resolveAllByName(in: self)
    }

    /// The coordinator's model.
    public var managedObjectModel: NSManagedObjectModel { NSManagedObjectModel(model) }

    /// Opens (or creates) a store and adds it.
    ///
    /// - Parameters:
    ///   - storeType: `NSSQLiteStoreType`, `NSInMemoryStoreType`, `NSBinaryStoreType`,
    ///     `NSXMLStoreType`, or a type registered with the engine.
    ///   - configuration: the model configuration whose entities the store holds; `nil` for all.
    ///   - storeURL: the store's file; `nil` keeps an in-memory or SQLite store in memory.
    ///   - options: the keys above; `true`/`false` as `Bool` or `NSNumber`.
    /// - Throws: the store's error (a file that is no store of this model, a store written
    ///   with a version that cannot be migrated, …).
    @discardableResult
    public func addPersistentStore(ofType storeType: String, configurationName configuration: String?,
                                   at storeURL: URL?, options: [AnyHashable: Any]? = nil) throws -> NSPersistentStore {
        CoreDataStores.registerOnce()
        let store = try addStore(type: StoreType(rawValue: storeType), configuration: configuration,
                                 at: storeURL, options: CoreDataStores.storeOptions(options ?? [:]))
        return NSPersistentStore(store)
    }

    /// The stores added, in order.
    public var persistentStores: [NSPersistentStore] { stores.map(NSPersistentStore.init) }

    /// Removes a store; its objects can no longer be fetched or saved.
    public func remove(_ store: NSPersistentStore) throws { removeStore(store.engineStore) }

    /// The store at a URL.
    public func persistentStore(for url: URL) -> NSPersistentStore? {
        stores.first { $0.url?.standardizedFileURL == url.standardizedFileURL }.map(NSPersistentStore.init)
    }

    /// The ID a URI from `uriRepresentation()` stands for, when one of the stores holds its entity.
    public func managedObjectID(forURIRepresentation url: URL) -> NSManagedObjectID? { managedObjectID(forURI: url) }

    /// A store's metadata as Core Data gives it: `NSStoreType`, `NSStoreUUID`, the model's
    /// version hashes and identifiers, and what was set with `setMetadata`.
    public static func metadataForPersistentStore(ofType storeType: String, at url: URL,
                                                  options: [AnyHashable: Any]? = nil) throws -> [String: Any] {
        CoreDataStores.registerOnce()
        return CoreDataStores.dictionary(try metadataForStore(ofType: StoreType(rawValue: storeType), at: url))
    }

    /// Removes a store's files (the database, its write-ahead log, a SQLite store's folder of
    /// external data). A store in use by this coordinator is removed from it first.
    public func destroyPersistentStore(at url: URL, ofType storeType: String, options: [AnyHashable: Any]? = nil) throws {
        if let store = stores.first(where: { $0.url?.standardizedFileURL == url.standardizedFileURL }) { removeStore(store) }
        StoreFiles.remove(forStoreAt: url, type: StoreType(rawValue: storeType))
    }
}

/// A store a coordinator holds, under Core Data's name.
///
/// `@unchecked Sendable`: its one stored property is a `let`, and the engine's stores are
/// used under their coordinator's lock.
public final class NSPersistentStore: NSObject, @unchecked Sendable {
    /// The store in the engine's terms.
    public let engineStore: any PersistentStore

    init(_ store: any PersistentStore) {
        engineStore = store
        super.init()
    }

    /// `NSSQLiteStoreType`, `NSInMemoryStoreType`, …
    public var type: String { engineStore.type.rawValue }
    /// Where the store is: its file, or a server store's URL; nil for a store in memory.
    public var url: URL? { engineStore.url }
    /// The store's UUID, as its metadata holds it.
    public var identifier: String! { engineStore.identifier }
    /// The configuration whose entities the store holds ("PF_DEFAULT_CONFIGURATION_NAME" for all, as in Core Data).
    public var configurationName: String { engineStore.configurationName ?? "PF_DEFAULT_CONFIGURATION_NAME" }
    /// Whether the store was opened read-only (`NSReadOnlyPersistentStoreOption`); saves to
    /// it fail.
    public var isReadOnly: Bool { engineStore.isReadOnly }
    /// The store's metadata as Core Data gives it: `NSStoreType`, `NSStoreUUID`, the model's
    /// version hashes and identifiers, and the application's own keys.
    public var metadata: [String: Any]! { CoreDataStores.dictionary(engineStore.metadata) }

    /// Whether the other stands for the same store.
    public override func isEqual(_ object: Any?) -> Bool { (object as? NSPersistentStore)?.engineStore === engineStore }
    /// A hash of the store, the same for every `NSPersistentStore` standing for it.
    public override var hash: Int { ObjectIdentifier(engineStore).hashValue }
}

/// What Core Data's API needs of the stores: the SQLite store registered before the first
/// one is added, and Core Data's options and metadata in the engine's terms.
enum CoreDataStores {
    private static let registered = Atomic<Bool>(false)

    static func registerOnce() {
        if registered.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
            SQLiteStore.register()
        }
    }

    /// The engine's options for Core Data's dictionary.
    static func storeOptions(_ options: [AnyHashable: Any]) -> StoreOptions {
        func flag(_ key: String) -> Bool {
            switch options[key] {
            case let b as Bool: return b
            case let n as NSNumber: return n.boolValue
            default: return false
            }
        }
        return StoreOptions(readOnly: flag(NSReadOnlyPersistentStoreOption),
                            ignoresVersioning: flag(NSIgnorePersistentStoreVersioningOption),
                            migratesAutomatically: flag(NSMigratePersistentStoresAutomaticallyOption),
                            infersMappingModel: flag(NSInferMappingModelAutomaticallyOption),
                            tracksHistory: flag(NSPersistentHistoryTrackingKey))
    }

    /// Core Data's metadata dictionary for the engine's.
    static func dictionary(_ metadata: StoreMetadata) -> [String: Any] {
        var dictionary: [String: Any] = metadata.userInfo
        dictionary[NSStoreTypeKey] = metadata.storeType.rawValue
        dictionary[NSStoreUUIDKey] = metadata.uuid
        dictionary[NSStoreModelVersionHashesKey] = metadata.appleVersionHashes.isEmpty ? metadata.versionHashes : metadata.appleVersionHashes
        dictionary[NSStoreModelVersionIdentifiersKey] = metadata.versionIdentifiers
        return dictionary
    }
}

/// The coordinators Core Data's API made, without keeping them alive: `Item.entity()` finds
/// the model of its class among theirs, as Core Data finds it among the models in use.
enum CoordinatorDirectory {
    private struct Weak: Sendable {
        weak var coordinator: PersistentStoreCoordinator?
        init(_ coordinator: PersistentStoreCoordinator) { self.coordinator = coordinator }
    }

    private static let coordinators = Mutex<[Weak]>([])

    static func add(_ coordinator: PersistentStoreCoordinator) {
        coordinators.withLock { list in
            list.removeAll { $0.coordinator == nil }
            list.append(Weak(coordinator))
        }
    }

    /// The coordinators still in use.
    static var all: [PersistentStoreCoordinator] { coordinators.withLock { $0.compactMap(\.coordinator) } }

    /// The model of the most recent coordinator whose model has an entity standing for `type`.
    static func model(for type: ManagedObject.Type) -> ManagedObjectModel? {
        let models = coordinators.withLock { $0.compactMap { $0.coordinator?.model } }
        return models.reversed().first { model in
            model.entities.contains { entity in
                entity.declaration.className.map { ManagedClasses.className($0, names: type) }
                    ?? (entity.name == String(describing: type))
            }
        }
    }
}
