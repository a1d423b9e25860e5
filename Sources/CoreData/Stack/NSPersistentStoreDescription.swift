import Foundation
import ObjectGraph

/// Where and how a container opens one store, under Core Data's name: a SQLite file by
/// default, migrated automatically (inferring mappings) when it was written with an
/// earlier version of the model.
///
/// ```swift
/// let description = NSPersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))
/// description.type = NSInMemoryStoreType
/// description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
/// container.persistentStoreDescriptions = [description]
/// ```
///
/// Mutable, as Core Data's is: set it up before `loadPersistentStores`.
open class NSPersistentStoreDescription: NSObject {
    /// Where the store is: its file, whose folder `loadPersistentStores` creates if missing (except
    /// for a store in memory).
    open var url: URL?
    /// `NSSQLiteStoreType` (the default), `NSInMemoryStoreType`, `NSBinaryStoreType`, `NSXMLStoreType`.
    open var type = NSSQLiteStoreType
    /// The model configuration whose entities the store holds; nil for all.
    open var configuration: String?
    /// Whether the store opens read-only, so that saves to it fail: the option
    /// `NSReadOnlyPersistentStoreOption`, read and set here (false when not set).
    open var isReadOnly: Bool {
        get { flag(NSReadOnlyPersistentStoreOption, otherwise: false) }
        set { options[NSReadOnlyPersistentStoreOption] = newValue as NSNumber }
    }
    /// Kept for code that sets it: a store waits for another writer as its engine decides.
    open var timeout: TimeInterval = 240
    /// Kept for code that sets it: stores are added one after the other, before
    /// `loadPersistentStores` returns, and the handler is called for each.
    open var shouldAddStoreAsynchronously = false
    /// Whether a store written with an earlier version of the model is migrated when it loads:
    /// the option `NSMigratePersistentStoresAutomaticallyOption`, read and set here (true when
    /// not set).
    open var shouldMigrateStoreAutomatically: Bool {
        get { flag(NSMigratePersistentStoresAutomaticallyOption, otherwise: true) }
        set { options[NSMigratePersistentStoresAutomaticallyOption] = newValue as NSNumber }
    }
    /// Whether that migration infers its mapping where it can: the option
    /// `NSInferMappingModelAutomaticallyOption`, read and set here (true when not set).
    open var shouldInferMappingModelAutomatically: Bool {
        get { flag(NSInferMappingModelAutomaticallyOption, otherwise: true) }
        set { options[NSInferMappingModelAutomaticallyOption] = newValue as NSNumber }
    }
    /// The options `addPersistentStore(ofType:configurationName:at:options:)` takes.
    open private(set) var options: [String: NSObject] = [:]

    /// A description of a SQLite store with no URL yet.
    public override init() { super.init() }

    /// A description of a SQLite store at a URL.
    public convenience init(url: URL) {
        self.init()
        self.url = url
    }

    /// Sets an option (`NSPersistentHistoryTrackingKey`, …); nil removes it.
    open func setOption(_ option: NSObject?, forKey key: String) { options[key] = option }

    /// SQLite settings (`journal_mode`, …), kept for code that sets them: the SQLite store
    /// uses its own (write-ahead log).
    open private(set) var sqlitePragmas: [String: NSObject] = [:]

    /// Records a SQLite setting in `sqlitePragmas`, where it has no effect; nil removes it.
    open func setValue(_ value: NSObject?, forPragmaNamed name: String) { sqlitePragmas[name] = value }

    /// An option's Boolean value, or `otherwise` when it is not set.
    private func flag(_ key: String, otherwise: Bool) -> Bool {
        (options[key] as? NSNumber)?.boolValue ?? otherwise
    }

    /// The options for the coordinator, with this description's switches (an option set with
    /// `setOption` and the property are one setting, as in Core Data).
    var coordinatorOptions: [AnyHashable: Any] {
        var all: [AnyHashable: Any] = options
        all[NSReadOnlyPersistentStoreOption] = isReadOnly
        all[NSMigratePersistentStoresAutomaticallyOption] = shouldMigrateStoreAutomatically
        all[NSInferMappingModelAutomaticallyOption] = shouldInferMappingModelAutomatically
        return all
    }

    /// The store's type and file path in one line.
    open override var description: String {
        "<NSPersistentStoreDescription> (type: \(type), url: \(url?.path ?? "nil"))"
    }
}
