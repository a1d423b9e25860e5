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
    public let context: ManagedObjectContext
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
    public private(set) var lastError: Error?

    public private(set) var selectionIndexes = IndexSet() {
        didSet { if lazy != nil { rememberedSelection = selectionIndexes.compactMap { arrangedObject(at: $0) } } }
    }
    /// With lazy fetching, the selected objects as of the last selection change: the fetched
    /// results are read again before the controller hears of a change, and by then the
    /// indexes may name other objects (an edited item that sorts elsewhere).
    private var rememberedSelection: [ManagedObject] = []

    private let mode: Mode
    private var content: [ManagedObject] = []
    private var arranged: [ManagedObject] = []
    private var lazy: FetchedResultsController?
    /// In relationship mode with lazy fetching: the destination's key back to the owner.
    private var lazyInverseKey: String?
    private var lazyObservation: BindingObservation?
    private var isPrepared = false
    /// While `apply` sets the filter and sort that results read elsewhere already follow.
    private var isApplying = false
    /// While `apply` installs results: where the selected objects sort in them.
    private var located: [ManagedObjectID: Int]?
    private var observers: [UUID: (ArrangedChanges) -> Void] = [:]
    private var contextObservation: ContextObservation?
    private var masterObservation: BindingObservation?
    private let editors = EditorRegistry()
    private let kinds: Set<String>

    private enum Mode {
        case entity
        case relationship(master: ArrayController, key: String)
    }

    /// A controller over every object of an entity that matches `fetchPredicate`.
    ///
    /// - Parameter usesLazyFetching: keep only the visible window of objects in memory;
    ///   filtering and sorting go to the store. For large stores.
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
    /// - Parameter usesLazyFetching: read the owner's objects from the store a window at a
    ///   time (through the relationship's to-one inverse) instead of loading the whole
    ///   relationship; for relationships that may hold many objects.
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

    private func refetch() {
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

    private var combinedPredicate: ObjectPredicate? { combinedPredicate(filter: filterPredicate) }

    private func combinedPredicate(filter: ObjectPredicate?) -> ObjectPredicate? {
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

    // MARK: Arranged objects

    /// How many objects are arranged.
    public var arrangedCount: Int { lazy?.count ?? arranged.count }

    /// The arranged object at an index; `nil` when a lazy read fails (see `lastError`).
    public func arrangedObject(at index: Int) -> ManagedObject? {
        guard index >= 0 && index < arrangedCount else { return nil }
        if let lazy {
            do { return try lazy.object(at: index) } catch { lastError = error; return nil }
        }
        return arranged[index]
    }

    /// Every arranged object. With lazy fetching this reads them all; prefer
    /// `arrangedObject(at:)` for what is on screen.
    public var arrangedObjects: [ManagedObject] {
        if lazy != nil { return (0..<arrangedCount).compactMap { arrangedObject(at: $0) } }
        return arranged
    }

    /// The arranged index of an object, if it is arranged.
    public func arrangedIndex(of object: ManagedObject) -> Int? {
        if let located { return located[object.objectID] }
        if let lazy { return try? lazy.index(of: object) }
        return arranged.firstIndex { $0 === object }
    }

    /// Filters and sorts the content again.
    public func rearrangeObjects() { rearrange(reload: false) }

    // MARK: Arranging elsewhere

    /// A new filter or sort for a lazily fetching controller, to be read on another
    /// context's queue (`run(in:)`) while this one goes on answering, then `apply`d here.
    public struct Arrangement: Sendable {
        public let filterPredicate: ObjectPredicate?
        public let sortDescriptors: [ObjectSortDescriptor]
        let request: FetchRequest<ManagedObject>
        let windowSize: Int
        let selected: [ManagedObjectID]
        /// Over a relationship: whose objects these are.
        let owner: ManagedObjectID?

        /// Reads the results in `context`, a context of the same stores on any queue.
        public func run(in context: ManagedObjectContext) throws -> ArrangedResults {
            ArrangedResults(filterPredicate: filterPredicate, sortDescriptors: sortDescriptors,
                            results: try FetchedResultsController.results(of: request, windowSize: windowSize,
                                                                          locating: selected, in: context), owner: owner)
        }
    }

    /// What an arrangement read, for `apply`.
    public struct ArrangedResults: Sendable {
        public let filterPredicate: ObjectPredicate?
        public let sortDescriptors: [ObjectSortDescriptor]
        public let results: FetchedResultsController.Results
        public var count: Int { results.count }
        let owner: ManagedObjectID?
    }

    /// The filter and sort to read elsewhere, or `nil` when only this controller's context
    /// can read them: the controller keeps its objects in memory, or its context has unsaved
    /// changes to the entity, which no other context sees. Then set `filterPredicate` and
    /// `sortDescriptors` as usual. A controller over a relationship reads its owner's objects
    /// (the owner named by its ID).
    ///
    /// ```swift
    /// if let arrangement = items.arrangement(filterPredicate: predicate) {
    ///     let found = try await background.perform { try arrangement.run(in: background) }
    ///     items.apply(found)
    /// }
    /// ```
    public func arrangement(filterPredicate: ObjectPredicate?, sortDescriptors: [ObjectSortDescriptor]? = nil) -> Arrangement? {
        guard let lazy, isPrepared else { return nil }
        // A new owner not saved yet is this context's alone: no other can name it.
        if lazyInverseKey != nil, owner?.objectID.isTemporaryID == true { return nil }
        let unsaved = context.insertedObjects.union(context.updatedObjects).union(context.deletedObjects)
        guard !unsaved.contains(where: { kinds.contains($0.entity.name) }) else { return nil }
        let sorts = sortDescriptors ?? self.sortDescriptors
        var request = lazy.fetchRequest
        // Objects in a predicate (a scope: "owner == this one") belong to this context's
        // queue; the other context is given their IDs.
        request.predicate = combinedPredicate(filter: filterPredicate)?.mappingConstants(Self.objectsAsIDs)
        request.sortDescriptors = sorts
        return Arrangement(filterPredicate: filterPredicate, sortDescriptors: sorts, request: request,
                           windowSize: lazy.windowSize, selected: selectedObjects.map(\.objectID),
                           owner: lazyInverseKey == nil ? nil : owner?.objectID)
    }

    private static func objectsAsIDs(_ value: ObjectValue) -> ObjectValue {
        switch value {
        case .object(let object as ManagedObject): return .object(object.objectID)
        case .array(let values): return .array(values.map(objectsAsIDs))
        case .set(let values): return .set(values.map(objectsAsIDs))
        default: return value
        }
    }

    /// Shows what an arrangement read: its filter and sort become the controller's, and the
    /// selected objects stay selected where they still show. Over a relationship, results
    /// read for an owner that is no longer the master's selection are dropped.
    public func apply(_ arranged: ArrangedResults) {
        guard let lazy else { return }
        if lazyInverseKey != nil, arranged.owner != owner?.objectID { return }
        isApplying = true
        filterPredicate = arranged.filterPredicate
        sortDescriptors = arranged.sortDescriptors
        isApplying = false
        located = arranged.results.located
        defer { located = nil }
        var results = arranged.results
        if lazyInverseKey != nil {
            // The owner, named by its ID for the other context, is the object again here, so
            // that the fetches after changes still find its objects.
            var request = results.request
            request.predicate = combinedPredicate
            results = FetchedResultsController.Results(request: request, count: results.count, sections: results.sections,
                                                       windows: results.windows, located: results.located)
        }
        lazy.install(results)
        lastError = nil
    }

    private func rearrange(reload: Bool) {
        if let lazy {
            guard isPrepared else { return }
            let selected = selectedObjects
            do {
                try lazy.update(predicate: combinedPredicate, sortDescriptors: sortDescriptors)
                lastError = nil
            } catch { lastError = error }
            restoreSelection(selected, oldFirst: selectionIndexes.first, changes: ArrangedChanges(reloaded: true))
            return
        }
        let old = arranged
        arranged = arrange(content)
        var changes = ArrangedChanges.difference(from: old, to: arranged)
        changes.reloaded = reload
        restoreSelection(old: old, changes: changes)
    }

    private func arrange(_ objects: [ManagedObject]) -> [ManagedObject] {
        var result = objects.filter { $0.isValid && !$0.isDeleted }
        if let filter = filterPredicate {
            result = result.filter { (try? filter.evaluate(with: .object($0))) ?? false }
        }
        if !sortDescriptors.isEmpty, let sorted = try? sortDescriptors.sorted(result.map { ObjectValue.object($0) }) {
            result = sorted.compactMap { $0.objectReference as? ManagedObject }
        }
        return result
    }

    // MARK: Selection

    /// The selected objects, in arranged order.
    public var selectedObjects: [ManagedObject] {
        selectionIndexes.compactMap { arrangedObject(at: $0) }
    }

    /// The single selected index, or `nil` for none or several.
    public var selectionIndex: Int? { selectionIndexes.count == 1 ? selectionIndexes.first : nil }

    /// Selects rows; first asks the editors to commit, and refuses (returning false) if one cannot.
    @discardableResult
    public func setSelectionIndexes(_ indexes: IndexSet) -> Bool {
        let valid = IndexSet(indexes.filter { $0 >= 0 && $0 < arrangedCount })
        guard valid != selectionIndexes else { return true }
        guard commitEditing() else { return false }
        var target = valid
        if target.isEmpty && avoidsEmptySelection && arrangedCount > 0 { target = [min(selectionIndexes.first ?? 0, arrangedCount - 1)] }
        guard target != selectionIndexes else { return true }
        selectionIndexes = target
        notify(ArrangedChanges(selectionChanged: true))
        return true
    }

    /// Selects one row.
    @discardableResult
    public func setSelectionIndex(_ index: Int) -> Bool { setSelectionIndexes([index]) }

    /// Selects objects, if they are arranged.
    @discardableResult
    public func setSelectedObjects(_ objects: [ManagedObject]) -> Bool {
        setSelectionIndexes(IndexSet(objects.compactMap { arrangedIndex(of: $0) }))
    }

    public var canSelectNext: Bool { (selectionIndexes.last ?? -1) + 1 < arrangedCount }
    public var canSelectPrevious: Bool { (selectionIndexes.first ?? 0) > 0 }

    @discardableResult
    public func selectNext() -> Bool {
        guard canSelectNext else { return false }
        return setSelectionIndex((selectionIndexes.last ?? -1) + 1)
    }

    @discardableResult
    public func selectPrevious() -> Bool {
        guard canSelectPrevious else { return false }
        return setSelectionIndex((selectionIndexes.first ?? 1) - 1)
    }

    private func restoreSelection(old: [ManagedObject], changes: ArrangedChanges) {
        let selected = selectionIndexes.compactMap { $0 < old.count ? old[$0] : nil }
        restoreSelection(selected, oldFirst: selectionIndexes.first, changes: changes)
    }

    private func restoreSelection(_ selected: [ManagedObject], oldFirst: Int?, changes: ArrangedChanges) {
        var changes = changes
        var target = IndexSet()
        if preservesSelection { target = IndexSet(selected.compactMap { arrangedIndex(of: $0) }) }
        if target.isEmpty && avoidsEmptySelection && arrangedCount > 0 {
            target = [min(oldFirst ?? 0, arrangedCount - 1)]
        }
        if target != selectionIndexes {
            selectionIndexes = target
            changes.selectionChanged = true
        }
        if !changes.isEmpty { notify(changes) }
    }

    // MARK: Editing

    /// Registers an editor whose edit must be committed before the selection changes.
    public func registerEditor(_ editor: any Editor) { editors.register(editor) }
    public func unregisterEditor(_ editor: any Editor) { editors.unregister(editor) }
    /// Whether an edit is in progress.
    public var isEditing: Bool { editors.isEditing }

    /// Asks every editor to commit; `false` if one refuses.
    public func commitEditing() -> Bool { editors.commitEditing() }

    /// Abandons every edit in progress.
    public func discardEditing() { editors.discardEditing() }

    // MARK: Adding and removing

    public var canAdd: Bool {
        guard isEditable else { return false }
        if case .relationship = mode { return owner != nil }
        return true
    }

    public var canInsert: Bool { canAdd }
    public var canRemove: Bool { isEditable && !selectionIndexes.isEmpty }

    /// Inserts a new object into the context, adds it to the content and (by default) selects it.
    ///
    /// - Returns: the new object, or `nil` when an editor refused to commit.
    @discardableResult
    public func add() throws -> ManagedObject? {
        try insert(atArrangedObjectIndex: nil)
    }

    /// Inserts a new object at an arranged index (where sorting allows).
    @discardableResult
    public func insert(atArrangedObjectIndex index: Int?) throws -> ManagedObject? {
        guard canAdd else { throw ControllerError.cannotAdd }
        guard commitEditing() else { return nil }
        if clearsFilterPredicateOnInsertion && filterPredicate != nil { filterPredicate = nil }
        let object = try context.insertObject(forEntityName: entityName)
        if case .relationship(_, let key) = mode, let owner {
            try owner.add(object, toRelationship: key)
        }
        if let lazy {
            context.processPendingChanges()
            if selectsInsertedObjects, let i = try? lazy.index(of: object) { selectionIndexes = [i] }
            notify(ArrangedChanges(selectionChanged: true, reloaded: true))
            return object
        }
        content.append(object)
        let old = arranged
        if sortDescriptors.isEmpty, let index, index <= arranged.count {
            arranged.insert(object, at: index)
        } else {
            arranged = arrange(content)
        }
        var changes = ArrangedChanges.difference(from: old, to: arranged)
        if selectsInsertedObjects, let i = arrangedIndex(of: object) {
            selectionIndexes = [i]
            changes.selectionChanged = true
        }
        notify(changes)
        return object
    }

    /// Removes the selected objects.
    public func removeSelection() throws {
        try remove(atArrangedObjectIndexes: selectionIndexes)
    }

    /// Removes objects: deleting them from the context (entity mode, or when
    /// `deletesObjectsOnRemove`), or taking them out of the owner's relationship.
    public func remove(atArrangedObjectIndexes indexes: IndexSet) throws {
        guard isEditable else { throw ControllerError.notEditable }
        guard commitEditing() else { return }
        let objects = indexes.compactMap { arrangedObject(at: $0) }
        for object in objects {
            switch mode {
            case .entity:
                context.delete(object)
            case .relationship(_, let key):
                if deletesObjectsOnRemove { context.delete(object) } else { try owner?.remove(object, fromRelationship: key) }
            }
        }
        if lazy != nil {
            context.processPendingChanges()
            return
        }
        let gone = Set(objects)
        let old = arranged
        content.removeAll { gone.contains($0) }
        arranged.removeAll { gone.contains($0) }
        restoreSelection(old: old, changes: ArrangedChanges.difference(from: old, to: arranged))
    }

    // MARK: Observing

    /// Calls `handler` with every change of the arranged objects or the selection.
    public func observe(_ handler: @escaping (ArrangedChanges) -> Void) -> BindingObservation {
        let id = UUID()
        observers[id] = handler
        return BindingObservation { [weak self] in self?.observers[id] = nil }
    }

    private func notify(_ changes: ArrangedChanges) {
        for handler in observers.values { handler(changes) }
    }

    // MARK: Following the context

    private func followContext() {
        guard contextObservation == nil, lazy == nil else { return }
        contextObservation = context.observe { [weak self] note in
            guard let self, case .objectsDidChange(let changes) = note else { return }
            self.contextChanged(changes)
        }
    }

    private func lazyChanged(_ changes: ArrangedChanges) {
        restoreSelection(rememberedSelection, oldFirst: selectionIndexes.first, changes: changes)
    }

    private func contextChanged(_ changes: ObjectChanges) {
        if changes.invalidatedAll { refetch(); return }
        // A merge named objects of these kinds that the context does not hold (many new
        // ones, or changed ones not in memory): only a fetch knows which of them match now.
        if case .entity = mode, changes.mergedObjectIDs.contains(where: { kinds.contains($0.entityName) }) {
            refetch()
            return
        }
        let relevant: (ManagedObject) -> Bool = { [kinds] in kinds.contains($0.entity.name) }
        var membershipChanged = false
        let present = Set(content)

        let gone = Set((changes.deleted + changes.invalidated).filter(relevant))
        if !gone.isEmpty {
            content.removeAll { gone.contains($0) }
            membershipChanged = true
        }

        switch mode {
        case .entity:
            for object in (changes.inserted + changes.updated + changes.refreshed).filter(relevant) where object.isValid && !object.isDeleted {
                let matches = (try? fetchPredicate?.evaluate(with: .object(object)) ?? true) ?? false
                if matches && !present.contains(object) {
                    content.append(object)
                    membershipChanged = true
                } else if !matches && present.contains(object) {
                    content.removeAll { $0 === object }
                    membershipChanged = true
                }
            }
        case .relationship(_, let key):
            guard let owner else { return }
            let ownerChanged = (changes.updated + changes.refreshed + changes.inserted).contains(owner)
            if ownerChanged || !gone.isEmpty {
                let members = owner.objects(key)
                if Set(members) != Set(content) {
                    content = members
                    membershipChanged = true
                }
            }
            if !owner.isValid || owner.isDeleted {
                content = []
                membershipChanged = true
            }
        }

        let changed = Set((changes.updated + changes.refreshed).filter(relevant))
        let old = arranged
        if automaticallyRearrangesObjects {
            arranged = arrange(content)
        } else if membershipChanged {
            // Keep the current order; new objects that pass the filter go at the end.
            let kept = Set(content)
            var next = arranged.filter { kept.contains($0) && $0.isValid && !$0.isDeleted }
            let shown = Set(next)
            let added = content.filter { !shown.contains($0) }
            let filtered = arrange(added)
            next += filtered
            arranged = next
        }
        let diff = ArrangedChanges.difference(from: old, to: arranged, changed: changed)
        guard !diff.isEmpty else { return }
        restoreSelection(old: old, changes: diff)
    }
}
