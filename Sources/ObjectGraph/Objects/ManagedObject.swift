import Foundation
import OrderedCollections
import ObjectModel
import Predicates

/// An object in the graph: an instance of an entity, owned by one context.
///
/// Values are read and written by key; relationships keep their inverses; changes are
/// tracked until the context saves or rolls back. A fetched object starts as a fault and
/// loads its values on first access.
///
/// ```swift
/// let item = try context.insertObject(forEntityName: "ToDo")
/// item["name"] = "Buy milk"
/// try item.setValue(category, forKey: "category")   // also adds item to category.todos
/// ```
///
/// Subclass to add typed accessors; register the class with
/// `PersistentStoreCoordinator.register(_:forEntityName:)`.
open class ManagedObject: KeyValueObject, Hashable, CustomStringConvertible {
    /// The object's entity, with inherited properties. (Disfavoured only where Core Data's
    /// `entity: NSEntityDescription` is visible too, under `import CoreData`.)
    @_disfavoredOverload public let entity: Entity
    /// `entity` by a name Core Data's API does not shadow.
    package var modelEntity: Entity { entity }
    /// The object's identity; temporary until its first save.
    ///
    /// Read it on the context's queue, like the object's other properties (a fault from a
    /// fetch makes its ID on first read); the ID itself is `Sendable`, for other queues.
    public internal(set) var objectID: ManagedObjectID {
        get {
            switch identityStorage {
            case .id(let id):
                return id
            case .key(let key, let family):
                let id = family.objectID(key: key)
                identityStorage = .id(id)
                return id
            }
        }
        set { identityStorage = .id(newValue) }
    }
    /// The object's ID, or for a fault made from a fetched key, the key and its entity and
    /// store until the ID is first asked for (a fetch of many faults makes no ID each).
    @exclusivity(unchecked) var identityStorage: IdentityStorage
    /// The context the object belongs to; `nil` once the object was deleted and saved,
    /// or its context reset.
    public internal(set) var managedObjectContext: ManagedObjectContext? {
        get { contextLink?.context }
        set { contextLink = newValue?.link }
    }
    @exclusivity(unchecked) private var contextLink: ContextLink?

    // The state below is read and written on every change, fetch and save. An object and
    // its context belong to one thread and no access spans a call that could reach the same
    // property again, so the run-time exclusivity checks (about 70 instructions each, many
    // per object) are left out.

    /// Attribute values by `entity.attributes` index; `nil` while the object is a fault.
    @exclusivity(unchecked) var attributeValues: [ObjectValue]?
    /// Relationship values by `entity.relationships` index.
    @exclusivity(unchecked) var relationshipValues: [RelationshipValue]
    /// Values as last read from or written to the store.
    @exclusivity(unchecked) var snapshot: Snapshot?
    @exclusivity(unchecked) var status: Status = .clean
    /// What the object keeps once a saved object changes (see `ChangeState`); `nil` until then.
    @exclusivity(unchecked) private var changeState: ChangeState?
    /// The number of the context's event that inserted the object; -1 when none.
    @exclusivity(unchecked) var insertedInEvent = -1
    /// The number of the context's last event that listed the object as updated; -1 when none.
    @exclusivity(unchecked) var updatedInEvent = -1
    /// The object's place in each of its context's change sets.
    @exclusivity(unchecked) var changeSlots = ChangeSlots()
    /// Whether `awakeFromFetch()` is running: values set then through Core Data's primitive
    /// setter are the object's as fetched, not changes.
    @exclusivity(unchecked) package private(set) var isAwakingFromFetch = false

    enum Status { case clean, inserted, deleted, invalid }

    /// Creates an object for a context; use the context's insert methods rather than this.
    public required init(entity: Entity, objectID: ManagedObjectID, context: ManagedObjectContext?) {
        self.entity = entity
        self.identityStorage = .id(objectID)
        self.contextLink = context?.link
        self.relationshipValues = entity.relationships.isEmpty
            ? [] : context?.faultRelationships(of: entity) ?? Self.faultRelationships(of: entity)
    }

    /// A fault for a fetched key of `family`'s entity (`entity`) and store, whose ID is made
    /// when first asked for. For `ManagedObject` itself: a registered class is made through
    /// the required initializer, which its subclass may override.
    ///
    /// `@usableFromInline` though nothing inlines it: Swift lets a subclass in another module
    /// inherit convenience initializers (Core Data's `Item(context:)`) only when every
    /// designated initializer of its superclass is visible to it.
    @usableFromInline
    init(entity: Entity, key: Int64, family: KeyFamily, context: ManagedObjectContext) {
        self.entity = entity
        self.identityStorage = .key(key, family)
        self.contextLink = context.link
        self.relationshipValues = entity.relationships.isEmpty ? [] : context.faultRelationships(of: entity)
    }

    /// A fault's relationships: every to-one empty, every to-many not loaded.
    static func faultRelationships(of entity: Entity) -> [RelationshipValue] {
        entity.relationships.map { $0.isToMany ? .toManyFault(.init()) : .toOne(nil) }
    }

    deinit {
        guard let contextLink else { return }
        // The link lives as long as this object holds it: borrowed, not retained.
        Unmanaged.passUnretained(contextLink)._withUnsafeGuaranteedRef { $0.unregister(self) }
    }

    /// Called once when the object is first inserted; override to set initial values.
    open func awakeFromInsert() {}

    /// Called when a fault loads its values from the store.
    open func awakeFromFetch() {}

    /// Calls `awakeFromFetch()`, marked as running.
    func awakeFromFetchMarked() {
        isAwakingFromFetch = true
        defer { isAwakingFromFetch = false }
        awakeFromFetch()
    }

    /// Called before the object's delete rules run.
    open func prepareForDeletion() {}

    /// Called after an attribute was set to a different value, to keep values that depend
    /// on it in step (a ToDo item's alert mark belongs to its due date). Changes made here
    /// undo together with the one that caused them. Not called for values loaded from the
    /// store, nor while undo or redo puts values back.
    open func didChangeValue(forKey key: String) {}

    /// Called before the object is saved; changes made here are saved too.
    open func willSave() {}

    /// Called after the object was saved.
    open func didSave() {}

    /// Checks one attribute value beyond the model's rules, as Core Data's `validate<Key>`
    /// methods do: returns why the value is refused ("cannot be only spaces"), or nil. Called
    /// when an editor checks a value before setting it, and at save for the attributes of
    /// each inserted or changed object.
    open func validationReason(for value: ObjectValue, forKey key: String) -> String? { nil }

    /// Checks an inserted object before it is saved. Override to add rules: call `super`,
    /// and throw a `ValidationError` holding every failure.
    open func validateForInsert() throws { try validateModelRules(onlyChanged: false) }

    /// Checks a changed object before it is saved.
    open func validateForUpdate() throws { try validateModelRules(onlyChanged: true) }

    /// Checks a deleted object before the deletion is saved.
    open func validateForDelete() throws { try validateDenyRules() }

    // MARK: State

    /// Whether the object's values have not been loaded yet.
    public var isFault: Bool { attributeValues == nil && status != .inserted }

    /// Whether the object was inserted and not yet saved.
    public var isInserted: Bool { status == .inserted }

    /// Whether the object was deleted and the deletion not yet saved.
    public var isDeleted: Bool { status == .deleted }

    /// Whether a saved object has unsaved changes.
    public var isUpdated: Bool { status == .clean && !changedKeys.isEmpty }

    /// Whether the object was inserted, deleted or changed since the last save.
    public var hasChanges: Bool { status == .inserted || status == .deleted || !changedKeys.isEmpty }

    /// Whether the object still belongs to a context.
    public var isValid: Bool { status != .invalid && managedObjectContext != nil }

    // MARK: Hashable, KeyValueObject

    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// The hash sets of objects use: the object's address mixed with the table's seed
    /// (the change sets hash every object that changes).
    public func _rawHashValue(seed: Int) -> Int {
        ManagedObjectID.mix(Int(bitPattern: ObjectIdentifier(self)), seed)
    }

    /// An object equals its object ID in predicates (`SELF == %@`).
    public var identity: AnyHashable { AnyHashable(objectID) }

    public var keyValueTypeName: String { entity.name }

    public var keyValueEntityName: String? { entity.name }

    open var description: String {
        let state = isFault ? " (fault)" : ""
        return "<\(entity.name) \(objectID)\(state)>"
    }
}

// MARK: Change state

extension ManagedObject {
    /// The change state, made on first use.
    private var changes: ChangeState {
        if let changeState { return changeState }
        let made = ChangeState()
        changeState = made
        return made
    }

    /// Keys changed since the last save.
    var changedKeys: Set<String> {
        get { changeState?.changedKeys ?? [] }
        set { if changeState != nil || !newValue.isEmpty { changes.changedKeys = newValue } }
        _modify { yield &changes.changedKeys }
    }

    /// The value each changed key had at the last save, to tell whether it still differs.
    var originals: [String: OriginalValue] {
        get { changeState?.originals ?? [:] }
        set { if changeState != nil || !newValue.isEmpty { changes.originals = newValue } }
        _modify { yield &changes.originals }
    }

    /// The store an inserted object will be saved to, when chosen before the save.
    var assignedStoreIdentifier: String? {
        get { changeState?.assignedStoreIdentifier }
        set { if changeState != nil || newValue != nil { changes.assignedStoreIdentifier = newValue } }
    }
}

/// What an object keeps once a saved object changes, or an inserted one is assigned a
/// store: its changed keys and their values at the last save. A fault or an object only
/// read carries none of it (one empty reference rather than three fields that need
/// releasing), nor does an inserted object (saved whole, its changes are not tracked), so
/// that making and freeing a fetch's objects costs less.
final class ChangeState {
    // Like the object's own state, reached on one thread and never across a call that
    // could reach it again: no run-time exclusivity checks.
    @exclusivity(unchecked) var changedKeys = Set<String>()
    @exclusivity(unchecked) var originals = [String: OriginalValue]()
    @exclusivity(unchecked) var assignedStoreIdentifier: String?
}

/// An object's ID, or what makes it.
enum IdentityStorage {
    case id(ManagedObjectID)
    /// A fetched key, with its entity and store.
    case key(Int64, KeyFamily)
}

/// What a relationship holds in memory.
enum RelationshipValue {
    /// A to-one relationship's destination.
    case toOne(ManagedObject?)
    /// A loaded to-many relationship.
    case toMany(OrderedSet<ManagedObject>)
    /// A to-many relationship not loaded yet, with changes made before it was.
    case toManyFault(PendingMembership)
}

/// Members added to or removed from a to-many relationship before it was loaded.
struct PendingMembership {
    var added: OrderedSet<ManagedObject> = []
    var removed: Set<ManagedObject> = []
}

/// A property's value before its first change since the last save.
enum OriginalValue {
    case attribute(ObjectValue)
    case toOne(ManagedObject?)
    /// `nil`: the relationship was a fault, so its original members are the store's.
    case toMany(OrderedSet<ManagedObject>?)
}

/// An object's stored state: attribute values and to-one destinations, with its version.
struct Snapshot {
    var attributes: [ObjectValue]
    var toOne: [Int: ManagedObjectID]
    var version: Int64
}

