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
    open var url: URL?
    /// `NSSQLiteStoreType` (the default), `NSInMemoryStoreType`, `NSBinaryStoreType`, `NSXMLStoreType`.
    open var type = NSSQLiteStoreType
    /// The model configuration whose entities the store holds; nil for all.
    open var configuration: String?
    open var isReadOnly = false
    /// Kept for code that sets it: a store waits for another writer as its engine decides.
    open var timeout: TimeInterval = 240
    /// Kept for code that sets it: stores are added one after the other, before
    /// `loadPersistentStores` returns, and the handler is called for each.
    open var shouldAddStoreAsynchronously = false
    open var shouldMigrateStoreAutomatically = true
    open var shouldInferMappingModelAutomatically = true
    /// The options `addPersistentStore(ofType:configurationName:at:options:)` takes.
    open private(set) var options: [String: NSObject] = [:]

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

    open func setValue(_ value: NSObject?, forPragmaNamed name: String) { sqlitePragmas[name] = value }

    /// The options for the coordinator, with this description's switches.
    var coordinatorOptions: [AnyHashable: Any] {
        var all: [AnyHashable: Any] = options
        all[NSReadOnlyPersistentStoreOption] = isReadOnly
        all[NSMigratePersistentStoresAutomaticallyOption] = shouldMigrateStoreAutomatically
        all[NSInferMappingModelAutomaticallyOption] = shouldInferMappingModelAutomatically
        return all
    }

    open override var description: String {
        "<NSPersistentStoreDescription> (type: \(type), url: \(url?.path ?? "nil"))"
    }
}
