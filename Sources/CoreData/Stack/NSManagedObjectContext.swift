import Foundation
import ObjectGraph
import ObjectModel

/// Core Data's context is the engine's: the extension gives it Core Data's initializer,
/// coordinator and parent setters, and fetches through `NSFetchRequest`.
public typealias NSManagedObjectContext = ManagedObjectContext

/// Where a context may be used, under Core Data's names.
public typealias NSManagedObjectContextConcurrencyType = ManagedObjectContext.ConcurrencyType

extension ManagedObjectContext.ConcurrencyType {
    /// The main thread; work from other threads reaches it through `perform`.
    public static let mainQueueConcurrencyType = Self.mainQueue
    /// A serial queue of the context's own, reached through `perform` and `performAndWait`.
    public static let privateQueueConcurrencyType = Self.privateQueue
    /// The thread that made the context (deprecated in Core Data; kept for old code).
    public static let confinementConcurrencyType = Self.confined
}

/// How a save settles a conflict with what others saved, under Core Data's names.
public typealias NSMergePolicy = MergePolicy

/// Core Data's merge policies as values for `mergePolicy`.
public let NSErrorMergePolicy = MergePolicy.error
/// Property by property, the store's newer values win over the context's.
public let NSMergeByPropertyStoreTrumpMergePolicy = MergePolicy.mergeByPropertyStoreTrump
/// Property by property, the context's values win over the store's.
public let NSMergeByPropertyObjectTrumpMergePolicy = MergePolicy.mergeByPropertyObjectTrump
/// The context's objects overwrite the store's rows entirely.
public let NSOverwriteMergePolicy = MergePolicy.overwrite
/// The context's changes to conflicting objects are discarded.
public let NSRollbackMergePolicy = MergePolicy.rollback

/// The kinds of merge policy, for `NSMergePolicy(merge:)`.
public enum NSMergePolicyType: UInt, Sendable {
    /// The save fails and reports each conflict: `NSErrorMergePolicy`.
    case errorMergePolicyType = 0
    /// The store's newer values win, property by property:
    /// `NSMergeByPropertyStoreTrumpMergePolicy`.
    case mergeByPropertyStoreTrumpMergePolicyType = 1
    /// The context's values win, property by property: `NSMergeByPropertyObjectTrumpMergePolicy`.
    case mergeByPropertyObjectTrumpMergePolicyType = 2
    /// The context's objects overwrite the store's rows: `NSOverwriteMergePolicy`.
    case overwriteMergePolicyType = 3
    /// The context's changes to conflicting objects are discarded: `NSRollbackMergePolicy`.
    case rollbackMergePolicyType = 4
}

extension MergePolicy {
    /// The policy of a kind.
    public init(merge type: NSMergePolicyType) {
        switch type {
        case .errorMergePolicyType: self = .error
        case .mergeByPropertyStoreTrumpMergePolicyType: self = .mergeByPropertyStoreTrump
        case .mergeByPropertyObjectTrumpMergePolicyType: self = .mergeByPropertyObjectTrump
        case .overwriteMergePolicyType: self = .overwrite
        case .rollbackMergePolicyType: self = .rollback
        }
    }
}

extension ManagedObjectContext {
    /// A context over no coordinator yet: set `persistentStoreCoordinator` or `parent`
    /// before its first use, as Core Data code does.
    ///
    /// ```swift
    /// let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
    /// context.persistentStoreCoordinator = coordinator
    /// ```
    public convenience init(concurrencyType: NSManagedObjectContextConcurrencyType) {
        self.init(coordinator: Unattached.coordinator, concurrencyType: concurrencyType)
        postingNotifications()
    }

    /// The coordinator whose stores the context reads and saves (its parent's, for a child).
    /// Set it once, before the context's first use.
    public var persistentStoreCoordinator: NSPersistentStoreCoordinator? {
        get { coordinator === Unattached.coordinator ? nil : coordinator }
        set {
            guard let newValue else { preconditionFailure("a context's coordinator cannot be taken away") }
            attach(to: newValue, parent: nil)
        }
    }

    /// The context a child fetches from and saves into. Set it once, before the context's
    /// first use; the child then uses its parent's coordinator.
    public var parent: NSManagedObjectContext? {
        get { parentContext }
        set {
            guard let newValue else { preconditionFailure("a context's parent cannot be taken away") }
            attach(to: newValue.coordinator, parent: newValue)
        }
    }

    /// Whether the context has a coordinator, given directly or through a parent.
    var isAttached: Bool { coordinator !== Unattached.coordinator }

    /// Chooses the store an inserted object will be saved to.
    public func assign(_ object: NSManagedObject, to store: NSPersistentStore) {
        assign(object, to: store.engineStore)
    }

    /// Inserts an object made with `NSManagedObject(entity:insertInto: nil)`.
    public func insert(_ object: NSManagedObject) {
        insertMadeObject(object)
    }
}

/// The coordinator of a context made by `init(concurrencyType:)` until it is given one: a
/// model with no entities, so that a fetch before then fails naming the entity.
private enum Unattached {
    static let coordinator = PersistentStoreCoordinator(model: try! ManagedObjectModel(entities: []))
}
