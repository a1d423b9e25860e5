import Foundation
import OrderedCollections
import ObjectModel
import Predicates
import Synchronization

/// A scratch pad of managed objects over a coordinator: insert, change and delete
/// objects, then save them to the stores in one step, or roll back.
///
/// A context and its objects belong to its queue (`concurrencyType`): the thread that made
/// it, the main thread, or a private queue reached through `perform` and `performAndWait`.
/// Work on another queue uses a context of its own and merges through
/// `mergeChanges(fromContextDidSave:)`; object IDs and saves' notices cross queues, objects
/// do not.
///
/// ```swift
/// let context = ManagedObjectContext(coordinator: coordinator)
/// let item = try context.insertObject(forEntityName: "ToDo")
/// item["name"] = "Water the plants"
/// try context.save()
/// ```
///
/// `@unchecked Sendable`: a context is handed to other threads only so that they can call
/// `perform` and `performAndWait`, which run on the context's queue; every other use
/// traps off the queue when `checksQueues` is on (debug builds and the tests), and the
/// concurrency suites run under ThreadSanitizer.
public final class ManagedObjectContext: @unchecked Sendable {
    /// The coordinator whose stores the context reads and saves. Set once, when the context
    /// is made (or, for Core Data's API, before its first use: `attach(to:parent:)`); read on
    /// every fetch, so no run-time exclusivity checks.
    @exclusivity(unchecked) public private(set) var coordinator: PersistentStoreCoordinator
    /// The context a child context fetches from and saves into; `nil` for a context over
    /// the coordinator's stores. Set as `coordinator` is. (Disfavoured only where Core Data's
    /// settable `parent` is visible too, under `import CoreData`.)
    @_disfavoredOverload @exclusivity(unchecked) public private(set) var parent: ManagedObjectContext?
    /// `parent` by a name Core Data's API does not shadow.
    package var parentContext: ManagedObjectContext? { parent }
    /// Whether the context brings in, as they happen, the changes its parent commits: a
    /// sibling's save into the parent and the parent's save to the stores (for a child), or
    /// other contexts' saves on the coordinator (for a context without a parent, which then
    /// needs a queue: `mainQueue` or `privateQueue`).
    public var automaticallyMergesChangesFromParent: Bool {
        get { mergesFromParent.withLock { $0.merges } }
        set { setMergesFromParent(newValue) }
    }
    /// Whether the context merges its parent's commits, and its save observer on the
    /// coordinator when it has no parent; behind a lock, as the parent reads it on its queue.
    let mergesFromParent = Mutex(MergeFromParent())
    /// The remote-change observer of `automaticallyMergesRemoteChanges`, behind a lock.
    let remoteMerging = Mutex<UUID?>(nil)
    /// Children that merge what this context commits, behind a lock: a child is made, and
    /// goes away, on its own queue.
    let mergingChildren = Mutex<[WeakContext]>([])
    /// Where the context may be used.
    public let concurrencyType: ConcurrencyType
    /// The queue of a private-queue context, or the main queue.
    let queue: DispatchQueue?
    /// The token a private queue holds under `queueKey`, naming this context.
    let queueToken: Int
    /// A confined context's thread.
    let owner: pthread_t
    /// The thread that made the context, as stores know it.
    let confinedThread = WorkThread.current
    /// The thread running a block of the context's queue now, for `interruptWork()`.
    let runningThread = Mutex<WorkThread?>(nil)
    /// A name for messages and debugging; a store that keeps history records it with each save.
    public var name: String?
    /// Who saves, as a store that keeps history records it with each of this context's
    /// saves ("ToDo", "import"): others tell their own saves from this context's by it.
    public var transactionAuthor: String?
    /// How far this context has merged the stores' history (`mergeRemoteChanges`); set it
    /// to `coordinator.currentHistoryToken()` to start there, or to a token kept from before.
    public var historyToken: HistoryToken?
    /// The history transactions this context's own saves recorded and it has not merged
    /// past yet, by store: they are not merged again.
    var ownTransactions: [String: Set<Int64>] = [:]
    /// Records changes for undo and redo; `nil` (the default) records nothing.
    @exclusivity(unchecked) public var undoManager: UndoStack?
    /// How a save resolves conflicts with changes saved by others.
    public var mergePolicy: MergePolicy = .error
    /// Whether delete rules run at `processPendingChanges` (else at save).
    public var propagatesDeletesAtEndOfEvent = true

    // The registry and change sets are touched for every object; like the objects' own state
    // they skip the run-time exclusivity checks (see `ManagedObject`).

    /// Every object the context has in memory with a permanent ID, by ID. Entries do not
    /// keep objects alive: an object leaves the registry in its `deinit`, so every entry is
    /// a live object.
    @exclusivity(unchecked) var registry = ObjectRegistry()
    /// Objects with temporary IDs, by ID, once a lookup by a temporary ID asked for them;
    /// until then they are the inserted and discarded objects, and an insert hashes nothing.
    @exclusivity(unchecked) var temporaryIndex: [ManagedObjectID: Unmanaged<ManagedObject>]?
    @exclusivity(unchecked) var inserted = ChangeSet(.inserted)
    @exclusivity(unchecked) var updated = ChangeSet(.updated)
    @exclusivity(unchecked) var deleted = ChangeSet(.deleted)
    /// Objects inserted and deleted again before a save: they never reach a store.
    @exclusivity(unchecked) var discarded = ChangeSet(.discarded)
    @exclusivity(unchecked) var pendingDeletes: [ManagedObject] = []
    @exclusivity(unchecked) var event = EventChanges(number: 0)
    @exclusivity(unchecked) var eventCount = 0
    /// Faults fetched with a batch size, by the batch they load with.
    @exclusivity(unchecked) var faultBatches = FaultBatches()
    /// What fetched results with objects still to make must not make live again.
    @exclusivity(unchecked) var pendingResults = PendingResults()
    var observers: [UUID: (ContextNotification) -> Void] = [:]
    @exclusivity(unchecked) var isApplyingUndo = false
    /// The entity and class last looked up by name: fetches and inserts of one entity in a
    /// row skip two dictionary lookups per object.
    /// (Four fields rather than a tuple: a hit copies nothing but the entity.)
    @exclusivity(unchecked) var lastKindName = ""
    @exclusivity(unchecked) var lastKindEntity: Entity?
    @exclusivity(unchecked) var lastKindType: ManagedObject.Type = ManagedObject.self
    @exclusivity(unchecked) var lastKindClasses = -1
    /// The relationships of the entity whose fault was made last, shared by its faults until
    /// one changes them (arrays copy on write): a fetch makes no array per object.
    @exclusivity(unchecked) var lastFaultEntity: Entity?
    @exclusivity(unchecked) var lastFaultRelationships: [RelationshipValue] = []

    /// The class whose initializer inserted an object last (Core Data's `Item(context:)`),
    /// and its entity: inserts of one class in a row find the entity without a lookup.
    @exclusivity(unchecked) package var lastInitializedClass: (type: ObjectIdentifier, entity: Entity)?

    /// How objects and observations reach the context; cleared as the context goes away.
    let link = ContextLink()

    /// A context over the coordinator's stores, on the queue `concurrencyType` names (by default,
    /// the thread that makes it).
    public convenience init(coordinator: PersistentStoreCoordinator, concurrencyType: ConcurrencyType = .confined) {
        self.init(coordinator: coordinator, parent: nil, concurrencyType: concurrencyType)
    }

    /// A child context: it fetches through `parent`, seeing the parent's unsaved changes,
    /// and its save pushes its changes into the parent rather than to the stores. Dropping a
    /// child drops its changes.
    ///
    /// ```swift
    /// let sheet = ManagedObjectContext(parent: viewContext)
    /// let item = sheet.object(with: selected.objectID)
    /// item["name"] = "Water the plants"
    /// try sheet.save()            // viewContext now has the change, unsaved
    /// ```
    public convenience init(parent: ManagedObjectContext, concurrencyType: ConcurrencyType = .confined) {
        self.init(coordinator: parent.coordinator, parent: parent, concurrencyType: concurrencyType)
    }

    private init(coordinator: PersistentStoreCoordinator, parent: ManagedObjectContext?, concurrencyType: ConcurrencyType) {
        self.coordinator = coordinator
        self.parent = parent
        self.concurrencyType = concurrencyType
        owner = pthread_self()
        queueToken = Self.nextQueueToken.add(1, ordering: .relaxed).newValue
        if concurrencyType == .privateQueue {
            let queue = DispatchQueue(label: "termdata.context.\(queueToken)")
            queue.setSpecific(key: Self.queueKey, value: queueToken)
            self.queue = queue
        } else {
            queue = concurrencyType == .mainQueue ? .main : nil
            if concurrencyType == .mainQueue { _ = Self.markedMainQueue }
        }
        link.context = self
    }

    /// Puts a context made without its coordinator (Core Data's `init(concurrencyType:)`,
    /// then `persistentStoreCoordinator` or `parent` set) over a coordinator, or under a
    /// parent and its coordinator. Only before first use: a context that holds objects or
    /// changes, or merges what others save, keeps what it was made with. From any thread, as
    /// Core Data's setters of a queue's context are (an app makes a private-queue context and
    /// sets its coordinator on the thread that made it): the queue's first block, started
    /// after, sees what was set.
    package func attach(to coordinator: PersistentStoreCoordinator, parent: ManagedObjectContext?) {
        precondition(registry.isEmpty && temporaryIndex == nil && !hasChanges && discarded.isEmpty,
                     "a context's coordinator and parent are set before it holds objects")
        precondition(!automaticallyMergesChangesFromParent && remoteMerging.withLock({ $0 }) == nil,
                     "a context's coordinator and parent are set before it merges others' saves")
        precondition(parent !== self, "a context cannot be its own parent")
        self.coordinator = coordinator
        self.parent = parent
        lastKindClasses = -1
        lastFaultEntity = nil
        lastInitializedClass = nil
    }

    /// Tokens for private queues, one per context.
    private static let nextQueueToken = Atomic<Int>(0)

    deinit {
        link.context = nil
        stopMergingFromParent()
        if let observer = remoteMerging.withLock({ $0 }) { coordinator.removeRemoteChangeObserver(observer) }
    }

    /// The model the context's objects are instances of.
    public var model: ManagedObjectModel { coordinator.model }

    // MARK: Change sets

    /// Objects inserted since the last save.
    public var insertedObjects: Set<ManagedObject> { Set(inserted) }
    /// Saved objects changed since the last save.
    public var updatedObjects: Set<ManagedObject> { Set(updated) }
    /// Saved objects deleted since the last save.
    public var deletedObjects: Set<ManagedObject> { Set(deleted) }
    /// Every object the context knows and that is still in memory.
    public var registeredObjects: Set<ManagedObject> {
        var objects = Set(registry.objects)
        if let temporaryIndex {
            objects.formUnion(temporaryIndex.values.map { $0.takeUnretainedValue() })
        } else {
            objects.formUnion(inserted)
            objects.formUnion(discarded)
        }
        return objects
    }

    /// Whether anything was inserted, changed or deleted since the last save.
    public var hasChanges: Bool {
        !inserted.isEmpty || !updated.isEmpty || !deleted.isEmpty || !pendingDeletes.isEmpty
    }
}

extension ManagedObjectContext: Hashable {
    /// Contexts are equal when they are the same context.
    public static func == (lhs: ManagedObjectContext, rhs: ManagedObjectContext) -> Bool { lhs === rhs }

    /// Hashes the context by its identity, as `==` compares it.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
