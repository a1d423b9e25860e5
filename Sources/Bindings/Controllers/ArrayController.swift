import Foundation
import ObjectGraph
import ObjectModel
import Predicates

/// A list of managed objects arranged for display — fetched from a context or taken from
/// a to-many relationship of another controller's selection — with a selection, sorting,
/// filtering, and add and remove; Core Data's `NSArrayController`.
///
/// The content follows the context: objects inserted, changed or deleted there (or merged
/// into it) appear, update, move or disappear, and observers receive the changes as row
/// indexes.
///
/// ```swift
/// let items = try ArrayController(context: context, entityName: "ToDo")
/// items.sortDescriptors = [ObjectSortDescriptor(key: "dueDate")]
/// let observation = items.observe { changes in table.redraw(changes) }
/// let new = try items.add()        // inserted, arranged and selected
/// ```
public final class ArrayController {
    /// The context whose objects the controller arranges, and where it inserts and deletes them.
    public let context: ManagedObjectContext
    /// The entity of the content's objects: the fetched entity, or a relationship's destination.
    public let entityName: String

    /// Which objects the content holds (entity mode); applied by the store.
    public var fetchPredicate: ObjectPredicate? {
        didSet { if isPrepared { refetch() } }
    }

    /// Which of the content's objects are arranged (shown); applied in memory, or by the
    /// store when fetching lazily.
    public var filterPredicate: ObjectPredicate? {
        didSet { if isPrepared && !isApplying { rearrange(reload: true) } }
    }

    /// The order of the arranged objects.
    public var sortDescriptors: [ObjectSortDescriptor] = [] {
        didSet { if isPrepared && !isApplying { rearrange(reload: true) } }
    }

    /// Keep something selected whenever there are objects (Apple's default: true).
    public var avoidsEmptySelection = true
    /// Keep the selected objects selected when the arrangement changes (default: true).
    public var preservesSelection = true
    /// Select objects as they are added (default: true).
    public var selectsInsertedObjects = true
    /// Clear the filter before adding, so the new object shows (default: true).
    public var clearsFilterPredicateOnInsertion = true
    /// Re-sort and re-filter when objects change, not only when asked (default: false).
    public var automaticallyRearrangesObjects = false
    /// Whether add, insert and remove are allowed.
    public var isEditable = true
    /// In relationship mode, whether removing deletes the object rather than only taking
    /// it out of the relationship (default: false; entity mode always deletes).
    public var deletesObjectsOnRemove = false

    /// The last error met while following the context (a failed refetch); `nil` after a success.
    public internal(set) var lastError: Error?

    /// The arranged indexes of the selected objects; change them with `setSelectionIndexes(_:)`.
    public internal(set) var selectionIndexes = IndexSet() {
        didSet { if lazy != nil { rememberedSelection = selectionIndexes.compactMap { arrangedObject(at: $0) } } }
    }
    /// With lazy fetching, the selected objects as of the last selection change: the fetched
    /// results are read again before the controller hears of a change, and by then the
    /// indexes may name other objects (an edited item that sorts elsewhere).
    var rememberedSelection: [ManagedObject] = []

    let mode: Mode
    var content: [ManagedObject] = []
    var arranged: [ManagedObject] = []
    var lazy: FetchedResultsController?
    /// In relationship mode with lazy fetching: the destination's key back to the owner.
    var lazyInverseKey: String?
    private var lazyObservation: BindingObservation?
    var isPrepared = false
    /// While `apply` sets the filter and sort that results read elsewhere already follow.
    var isApplying = false
    /// While `apply` installs results: where the selected objects sort in them.
    var located: [ManagedObjectID: Int]?
    var observers: [UUID: (ArrangedChanges) -> Void] = [:]
    var contextObservation: ContextObservation?
    private var masterObservation: BindingObservation?
    let editors = EditorRegistry()
    let kinds: Set<String>

    enum Mode {
        case entity
        case relationship(master: ArrayController, key: String)
    }

    /// A controller over every object of an entity that matches `fetchPredicate`.
    ///
    /// - Parameters:
    ///   - context: the context the objects are fetched from and live in.
    ///   - entityName: the entity whose objects are the content.
    ///   - fetchPredicate: which of the entity's objects are the content; `nil` for all of them.
    ///   - sortDescriptors: the order of the arranged objects.
    ///   - usesLazyFetching: keep only the visible window of objects in memory;
    ///     filtering and sorting go to the store. For large stores.
    ///   - automaticallyPreparesContent: fetch the content now; when false, `fetch()` reads it.
    /// - Throws: `ObjectGraphError.unknownEntity`, or the first fetch's error.
    public init(context: ManagedObjectContext, entityName: String, fetchPredicate: ObjectPredicate? = nil,
                sortDescriptors: [ObjectSortDescriptor] = [], usesLazyFetching: Bool = false,
                automaticallyPreparesContent: Bool = true) throws {
        guard let entity = context.model.entity(named: entityName) else { throw ObjectGraphError.unknownEntity(entityName) }
        self.context = context
        self.entityName = entityName
        self.kinds = Set(entity.kindNames)
        self.mode = .entity
        self.fetchPredicate = fetchPredicate
        self.sortDescriptors = sortDescriptors
        if usesLazyFetching {
            lazy = FetchedResultsController(fetchRequest: FetchRequest(entityName: entityName), context: context)
        }
        if automaticallyPreparesContent { try fetch() }
    }

    /// A controller over a to-many relationship of another controller's selected object:
    /// a detail list that follows the master's selection.
    ///
    /// ```swift
    /// let items = try ArrayController(contentOf: categories, relationship: "todos")
    /// ```
    ///
    /// - Parameters:
    ///   - master: the controller whose selected object owns the relationship.
    ///   - key: the name of the to-many relationship of the master's entity.
    ///   - usesLazyFetching: read the owner's objects from the store a window at a
    ///     time (through the relationship's to-one inverse) instead of loading the whole
    ///     relationship; for relationships that may hold many objects.
    ///   - automaticallyPreparesContent: read the content now; when false, `fetch()` reads it
    ///     (a detail list that is not shown yet costs nothing).
    public init(contentOf master: ArrayController, relationship key: String, usesLazyFetching: Bool = false,
                automaticallyPreparesContent: Bool = true) throws {
        guard let entity = master.context.model.entity(named: master.entityName),
              let relationship = entity.relationship(named: key), relationship.isToMany,
              let destination = master.context.model.entity(named: relationship.destinationEntityName) else {
            throw KeyValueError.unknownKey(key, typeName: master.entityName)
        }
        self.context = master.context
        self.entityName = destination.name
        self.kinds = Set(destination.kindNames)
        self.mode = .relationship(master: master, key: key)
        if usesLazyFetching {
            guard let inverse = relationship.inverseName, destination.relationship(named: inverse)?.isToMany == false else {
                throw ControllerError.lazyFetchingNeedsToOneInverse(entity: master.entityName, key: key)
            }
            lazyInverseKey = inverse
            lazy = FetchedResultsController(fetchRequest: FetchRequest(entityName: destination.name), context: context)
        }
        masterObservation = master.observe { [weak self] changes in
            guard let self, self.isPrepared, changes.selectionChanged || changes.reloaded else { return }
            self.ownerChanged()
        }
        if automaticallyPreparesContent { try fetch() }
    }

    /// Whether the content has been read (by `fetch()`, or at creation).
    public var isContentPrepared: Bool { isPrepared }

    // MARK: Content

    /// Reads the content again: from the store (entity mode) or from the master's selected
    /// object (relationship mode).
    public func fetch() throws {
        if let lazy {
            let observing = lazyObservation != nil
            try lazy.update(predicate: combinedPredicate, sortDescriptors: sortDescriptors)
            isPrepared = true
            if !observing {
                // Later updates reach `lazyChanged`; this first one is followed here.
                lazyObservation = lazy.observe { [weak self] changes in self?.lazyChanged(changes) }
                restoreSelection(selectedObjects, oldFirst: selectionIndexes.first, changes: ArrangedChanges(reloaded: true))
            }
            return
        }
        content = try loadContent()
        isPrepared = true
        followContext()
        rearrange(reload: true)
    }

    /// In relationship mode with lazy fetching: reads a new owner's objects elsewhere. Set,
    /// a change of the master's selection empties the controller and hands this the
    /// arrangement to read (on a background context; its results go to `apply`), rather than
    /// reading them here. It gets `nil` when the controller read the owner's objects itself
    /// (its context has unsaved changes to them, which no other context sees): a read still
    /// under way for an earlier owner is then of no use.
    ///
    /// ```swift
    /// items.readsOwnersElsewhere = { arrangement in
    ///     guard let arrangement else { return arranger.cancel() }
    ///     arranger.read(arrangement, into: items)
    /// }
    /// ```
    public var readsOwnersElsewhere: ((Arrangement?) -> Void)?

    private func ownerChanged() {
        guard let elsewhere = readsOwnersElsewhere, let lazy, lazyInverseKey != nil else { return refetch() }
        guard let arrangement = arrangement(filterPredicate: filterPredicate) else {
            elsewhere(nil)
            return refetch()
        }
        // Nothing of the last owner shows under the new one while its objects are read; a
        // change meanwhile reads the new owner's here.
        var request = arrangement.request
        request.predicate = combinedPredicate
        lazy.install(FetchedResultsController.Results(request: request, count: 0, sections: [], windows: [:], located: [:]))
        restoreSelection([], oldFirst: nil, changes: ArrangedChanges(reloaded: true))
        elsewhere(arrangement)
    }

    func refetch() {
        do {
            try fetch()
            lastError = nil
        } catch {
            lastError = error
        }
    }

    private func loadContent() throws -> [ManagedObject] {
        switch mode {
        case .entity:
            return Array(try context.fetch(FetchRequest(entityName: entityName, predicate: fetchPredicate)))
        case .relationship(let master, let key):
            guard master.selectionIndexes.count == 1, let owner = master.selectedObjects.first else { return [] }
            return owner.objects(key)
        }
    }

    var combinedPredicate: ObjectPredicate? { combinedPredicate(filter: filterPredicate) }

    func combinedPredicate(filter: ObjectPredicate?) -> ObjectPredicate? {
        var parts = [fetchPredicate, filter].compactMap { $0 }
        if let inverse = lazyInverseKey {
            guard let owner else { return .false }
            parts.insert(.comparison(inverse, .equalTo, owner), at: 0)
        }
        switch parts.count {
        case 0: return nil
        case 1: return parts[0]
        default: return .and(parts)
        }
    }

    /// The object a relationship-mode controller's content belongs to.
    public var owner: ManagedObject? {
        guard case .relationship(let master, _) = mode, master.selectionIndexes.count == 1 else { return nil }
        return master.selectedObjects.first
    }
}
