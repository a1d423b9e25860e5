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
    @exclusivity(unchecked) private var eventCount = 0
    /// Faults fetched with a batch size, by the batch they load with.
    @exclusivity(unchecked) var faultBatches = FaultBatches()
    /// What fetched results with objects still to make must not make live again.
    @exclusivity(unchecked) var pendingResults = PendingResults()
    var observers: [UUID: (ContextNotification) -> Void] = [:]
    @exclusivity(unchecked) var isApplyingUndo = false
    /// The entity and class last looked up by name: fetches and inserts of one entity in a
    /// row skip two dictionary lookups per object.
    /// (Four fields rather than a tuple: a hit copies nothing but the entity.)
    @exclusivity(unchecked) private var lastKindName = ""
    @exclusivity(unchecked) private var lastKindEntity: Entity?
    @exclusivity(unchecked) private var lastKindType: ManagedObject.Type = ManagedObject.self
    @exclusivity(unchecked) private var lastKindClasses = -1
    /// The relationships of the entity whose fault was made last, shared by its faults until
    /// one changes them (arrays copy on write): a fetch makes no array per object.
    @exclusivity(unchecked) private var lastFaultEntity: Entity?
    @exclusivity(unchecked) private var lastFaultRelationships: [RelationshipValue] = []

    /// The class whose initializer inserted an object last (Core Data's `Item(context:)`),
    /// and its entity: inserts of one class in a row find the entity without a lookup.
    @exclusivity(unchecked) package var lastInitializedClass: (type: ObjectIdentifier, entity: Entity)?

    /// How objects and observations reach the context; cleared as the context goes away.
    let link = ContextLink()

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
    /// changes, or merges what others save, keeps what it was made with.
    package func attach(to coordinator: PersistentStoreCoordinator, parent: ManagedObjectContext?) {
        checkQueue("ManagedObjectContext.attach(to:parent:)")
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

    // MARK: Inserting

    /// Inserts a new object of an entity, with the model's default values.
    ///
    /// - Throws: `ObjectGraphError.unknownEntity` or `.abstractEntity`.
    @discardableResult
    public func insertObject(forEntityName name: String) throws -> ManagedObject {
        checkQueue()
        guard let (entity, type) = kind(named: name) else { throw ObjectGraphError.unknownEntity(name) }
        guard !entity.isAbstract else { throw ObjectGraphError.abstractEntity(name) }
        let object = insertNew(entity, type, id: .temporary(entityName: entity.name), values: entity.defaultAttributeValues)
        object.awakeFromInsert()
        return object
    }

    /// A new object in the inserted state, with empty relationships: registered, in the change
    /// sets, and recorded for undo and the observers.
    func insertNew(_ entity: Entity, _ type: ManagedObject.Type, id: ManagedObjectID, values: [ObjectValue]) -> ManagedObject {
        let object = type.init(entity: entity, objectID: id, context: self)
        enterInserted(object, values: values)
        return object
    }

    /// Inserts an object made by its class's initializer rather than by the context (Core
    /// Data's `Item(context:)` and `insert(_:)`): a new object with a temporary ID, of an
    /// entity of this context's model, in no other context. Gives it the entity's default
    /// values and calls `awakeFromInsert()`.
    package func insertMadeObject(_ object: ManagedObject) {
        checkQueue()
        precondition(object.objectID.isTemporaryID && object.status == .clean && object.attributeValues == nil,
                     "only a new object can be inserted, once")
        precondition(object.managedObjectContext.map { $0 === self } ?? true,
                     "\(object.entity.name) object belongs to another context")
        precondition(model.entity(named: object.entity.name) == object.entity,
                     "entity \(object.entity.name) is not of this context's model")
        object.managedObjectContext = self
        enterInserted(object, values: object.entity.defaultAttributeValues)
        object.awakeFromInsert()
    }

    /// Puts a new object into the inserted state with `values`, its relationships empty.
    private func enterInserted(_ object: ManagedObject, values: [ObjectValue]) {
        let entity = object.entity
        object.attributeValues = values
        if !entity.relationships.isEmpty {
            object.relationshipValues = entity.relationships.map { $0.isToMany ? .toMany([]) : .toOne(nil) }
        }
        object.status = .inserted
        register(object)
        inserted.append(object)
        noteInsertedInEvent(object)
        record(.status(object, from: .invalid, to: .inserted))
    }

    /// Inserts a new object of a registered subclass.
    ///
    /// ```swift
    /// let item = try context.insert(ToDoItem.self, entityName: "ToDo")
    /// ```
    public func insert<T: ManagedObject>(_ type: T.Type, entityName: String) throws -> T {
        let object = try insertObject(forEntityName: entityName)
        guard let typed = object as? T else {
            preconditionFailure("entity \(entityName) is registered with \(Swift.type(of: object)), not \(T.self)")
        }
        return typed
    }

    /// Chooses the store an inserted object will be saved to.
    public func assign(_ object: ManagedObject, to store: any PersistentStore) {
        precondition(object.isInserted, "only inserted objects can be assigned to a store")
        object.assignedStoreIdentifier = store.identifier
    }

    // MARK: Looking up objects

    /// The object for an ID: the registered one, or a fault that loads on first access.
    public func object(with id: ManagedObjectID) -> ManagedObject {
        checkQueue()
        guard let key = id.primaryKey else {
            if let object = registeredObject(for: id) { return object }
            let object = makeObject(with: id)
            register(object)
            return object
        }
        let (found, table) = registry.object(forKey: key, entityName: id.entityName, storeIdentifier: id.storeIdentifier)
        if let found { return found }
        let object = makeObject(with: id)
        registry.enter(object, key: key, table: table)
        return object
    }

    /// The object for an ID a fetch found when the context had been reset `resets` times:
    /// the registered one or a new fault, or an invalid object once the context was reset
    /// or the object's deletion saved or merged since.
    func fetchedObject(with id: ManagedObjectID, madeAt resets: Int) -> ManagedObject {
        guard pendingResults.allowsObject(for: id, madeAt: resets) else { return invalidObject(with: id) }
        return object(with: id)
    }

    /// The object for a key a fetch found when the context had been reset `resets` times,
    /// as `fetchedObject(with:madeAt:)`; a new fault makes its ID only when asked for.
    func fetchedObject(key: Int64, of family: KeyFamily, madeAt resets: Int) -> ManagedObject {
        guard resets == pendingResults.resets, pendingResults.forgotten.isEmpty else {
            return fetchedObject(with: family.objectID(key: key), madeAt: resets)
        }
        checkQueue()
        let (found, table) = registry.object(forKey: key, of: family)
        if let found { return found }
        guard let (entity, type) = kind(named: family.entityName) else {
            preconditionFailure("a fetched key names entity '\(family.entityName)', which the model lacks")
        }
        let object = type == ManagedObject.self
            ? ManagedObject(entity: entity, key: key, family: family, context: self)
            : type.init(entity: entity, objectID: family.objectID(key: key), context: self)
        registry.enter(object, key: key, table: table)
        return object
    }

    /// A new fault for an ID, not registered.
    private func makeObject(with id: ManagedObjectID) -> ManagedObject {
        guard let (entity, type) = kind(named: id.entityName) else {
            preconditionFailure("object ID \(id) names entity '\(id.entityName)', which the model lacks")
        }
        return type.init(entity: entity, objectID: id, context: self)
    }

    /// A fault's relationships for an entity: every to-one empty, every to-many not loaded.
    func faultRelationships(of entity: Entity) -> [RelationshipValue] {
        if lastFaultEntity !== entity {
            lastFaultEntity = entity
            lastFaultRelationships = ManagedObject.faultRelationships(of: entity)
        }
        return lastFaultRelationships
    }

    /// The entity of a name and the class its objects are made of.
    func kind(named name: String) -> (Entity, ManagedObject.Type)? {
        let classes = coordinator.classRegistrations
        if lastKindClasses == classes, lastKindName == name, let entity = lastKindEntity { return (entity, lastKindType) }
        guard let entity = model.entity(named: name) else { return nil }
        let type = coordinator.objectClass(forEntityName: name)
        (lastKindName, lastKindEntity, lastKindType, lastKindClasses) = (name, entity, type, classes)
        return (entity, type)
    }

    /// An object for an ID that is no longer the context's (its deletion was saved or
    /// merged, or the context was reset), as a deleted object held since then would be.
    func invalidObject(with id: ManagedObjectID) -> ManagedObject {
        guard let (entity, type) = kind(named: id.entityName) else {
            preconditionFailure("object ID \(id) names entity '\(id.entityName)', which the model lacks")
        }
        let object = type.init(entity: entity, objectID: id, context: nil)
        object.status = .invalid
        return object
    }

    /// The object for an ID if the context has it in memory; never touches a store.
    public func registeredObject(for id: ManagedObjectID) -> ManagedObject? {
        guard id.isTemporaryID else { return registry.object(for: id) }
        if temporaryIndex == nil {
            var index: [ManagedObjectID: Unmanaged<ManagedObject>] = [:]
            index.reserveCapacity(inserted.count + discarded.count)
            for object in inserted { index[object.objectID] = Unmanaged.passUnretained(object) }
            for object in discarded { index[object.objectID] = Unmanaged.passUnretained(object) }
            temporaryIndex = index
        }
        return temporaryIndex?[id]?.takeUnretainedValue()
    }

    /// The object for an ID with its values loaded.
    ///
    /// - Throws: `ObjectGraphError.objectNotFound` when no store has it.
    public func existingObject(with id: ManagedObjectID) throws -> ManagedObject {
        checkQueue()
        let object = self.object(with: id)
        try object.fireFault()
        return object
    }

    func register(_ object: ManagedObject) {
        if object.objectID.isTemporaryID {
            // Without the index, the change sets hold the object; a child's object that its
            // parent has not saved yet is in no change set, and needs the index.
            if temporaryIndex == nil, object.status != .inserted { _ = registeredObject(for: object.objectID) }
            temporaryIndex?[object.objectID] = Unmanaged.passUnretained(object)
        } else {
            registry.enter(object)
        }
    }

    func unregister(_ object: ManagedObject) {
        if case .id(let id) = object.identityStorage, id.isTemporaryID {
            guard temporaryIndex?[id]?.toOpaque() == Unmanaged.passUnretained(object).toOpaque() else { return }
            temporaryIndex?[id] = nil
            return
        }
        registry.remove(object)
    }

    // MARK: Deleting

    /// Marks an object for deletion at the next save; its delete rules run at the next
    /// `processPendingChanges`. Deleting an unsaved object simply discards it.
    public func delete(_ object: ManagedObject) {
        checkQueue()
        precondition(object.managedObjectContext === self, "\(object) belongs to another context")
        guard object.status == .clean || object.status == .inserted else { return }
        // Its values are kept for an undo, which after a save inserts it again.
        if undoManager != nil, object.isFault { try? object.fireFault() }
        object.prepareForDeletion()
        let from = object.status
        setStatus(object, .deleted, wasInserted: from == .inserted)
        record(.status(object, from: from, to: .deleted))
        pendingDeletes.append(object)
        event.deleted.append(object)
    }

    func setStatus(_ object: ManagedObject, _ status: ManagedObject.Status, wasInserted: Bool) {
        switch object.status {
        case .inserted: inserted.remove(object)
        case .deleted: deleted.remove(object); discarded.remove(object)
        case .clean: updated.remove(object)
        case .invalid: break
        }
        object.status = status
        switch status {
        case .inserted:
            inserted.append(object)
            register(object)
        case .deleted:
            if wasInserted { discarded.append(object) } else { deleted.append(object) }
        case .clean:
            if !object.changedKeys.isEmpty { updated.append(object) }
            register(object)
        case .invalid:
            unregister(object)
        }
    }

    // MARK: Events

    /// Ends the current event: runs delete rules, closes the undo group, and tells
    /// observers which objects were inserted, updated and deleted.
    public func processPendingChanges() {
        checkQueue()
        if propagatesDeletesAtEndOfEvent { propagateDeletes() }
        if let undo = undoManager, undo.groupsByEvent { undo.closeEventGroup() }
        guard !event.isEmpty else { return }
        // Listing the event's objects costs a pass over each list; without an observer, the
        // lists are simply dropped.
        guard !observers.isEmpty else { return startEvent() }
        let changes = ObjectChanges(
            inserted: event.inserted.filter { $0.status == .inserted } + Array(event.merged),
            updated: event.updated.filter {
                ($0.status == .clean || $0.status == .inserted) && $0.insertedInEvent != event.number
            },
            deleted: Array(event.deleted),
            refreshed: Array(event.refreshed),
            invalidated: Array(event.invalidated),
            invalidatedAll: event.invalidatedAll,
            mergedObjectIDs: event.mergedIDs)
        startEvent()
        post(.objectsDidChange(changes))
    }

    /// Begins a new event with empty change sets.
    func startEvent() {
        eventCount += 1
        event = EventChanges(number: eventCount)
    }

    /// Adds an object to the event's insertions; its changes in the same event need no
    /// separate notice, which the object's mark lets change tracking see without a lookup.
    func noteInsertedInEvent(_ object: ManagedObject) {
        guard object.insertedInEvent != event.number else { return }
        event.inserted.append(object)
        object.insertedInEvent = event.number
    }

    /// Adds an object to the event's updates, unless the event inserted it or has it already.
    func noteUpdatedInEvent(_ object: ManagedObject) {
        guard object.insertedInEvent != event.number, object.updatedInEvent != event.number else { return }
        event.updated.append(object)
        object.updatedInEvent = event.number
    }

    /// Runs the delete rules of every object deleted since they last ran.
    func propagateDeletes() {
        // A round at a time, in the order they were deleted; what a Cascade deletes comes in
        // the next round. (Taking them one by one from the front moved the rest each time.)
        while !pendingDeletes.isEmpty {
            let round = pendingDeletes
            pendingDeletes = []
            for object in round { propagateDelete(of: object) }
        }
    }

    private func propagateDelete(of object: ManagedObject) {
        guard object.status == .deleted else { return }
        for (i, relationship) in object.entity.relationships.enumerated() {
            switch relationship.deleteRule {
            case .deny, .noAction:
                continue
            case .nullify, .cascade:
                let destinations: [ManagedObject]
                if relationship.isToMany {
                    destinations = Array((try? object.toManyMembers(i)) ?? [])
                } else {
                    try? object.fireFault()
                    if case .toOne(let d) = object.relationshipValues[i] { destinations = d.map { [$0] } ?? [] } else { destinations = [] }
                }
                if relationship.deleteRule == .cascade {
                    for d in destinations where d.status == .clean || d.status == .inserted { delete(d) }
                }
                if relationship.isToMany {
                    try? replaceToMany(of: object, index: i, with: [])
                } else {
                    try? setToOne(of: object, index: i, to: nil)
                }
            }
        }
    }
}

/// Objects changed during the current event.
struct EventChanges {
    /// Which event of its context this is; objects inserted or updated in it carry the
    /// number, which keeps these two lists free of duplicates without hashing.
    var number: Int
    var inserted: [ManagedObject] = []
    var updated: [ManagedObject] = []
    var deleted: OrderedSet<ManagedObject> = []
    var refreshed: OrderedSet<ManagedObject> = []
    var invalidated: OrderedSet<ManagedObject> = []
    /// Objects another context inserted, brought in by a merge.
    var merged: OrderedSet<ManagedObject> = []
    /// Objects a merge changed or deleted that were not in memory here, and a large
    /// merge's new objects.
    var mergedIDs: [ManagedObjectID] = []
    var invalidatedAll = false

    var isEmpty: Bool {
        inserted.isEmpty && updated.isEmpty && deleted.isEmpty && refreshed.isEmpty && invalidated.isEmpty && merged.isEmpty
            && mergedIDs.isEmpty && !invalidatedAll
    }
}

extension ManagedObjectContext: Hashable {
    /// Contexts are equal when they are the same context.
    public static func == (lhs: ManagedObjectContext, rhs: ManagedObjectContext) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
