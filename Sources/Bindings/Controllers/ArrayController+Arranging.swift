import Foundation
import ObjectGraph
import ObjectModel
import Predicates

extension ArrayController {
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

    /// The IDs of every arranged object, in order: over a lazily fetching controller, one
    /// fetch of IDs from the store (no object is made); otherwise the arranged objects'.
    public func arrangedObjectIDs() throws -> [ManagedObjectID] {
        guard lazy != nil else { return arrangedObjects.map(\.objectID) }
        return try context.fetchObjectIDs(FetchRequest(entityName: entityName, predicate: combinedPredicate, sortDescriptors: sortDescriptors))
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
        /// The filter to read the objects with (the controller's fetch predicate and owner are
        /// added to it).
        public let filterPredicate: ObjectPredicate?
        /// The order to read the objects in.
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
        /// The filter the results were read with; the controller's `filterPredicate` once applied.
        public let filterPredicate: ObjectPredicate?
        /// The order the results were read in; the controller's `sortDescriptors` once applied.
        public let sortDescriptors: [ObjectSortDescriptor]
        /// What the fetch found: the count, the sections, the first windows, and where the selected
        /// objects sort.
        public let results: FetchedResultsController.Results
        /// How many objects the arrangement holds.
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

    /// The fetch of what the controller arranges — its entity, its fetch and filter predicates
    /// (and a detail's owner), its sort — with objects named by ID, so that a context of its
    /// own (a background one exporting, counting or explaining the rows) can run it.
    public var arrangedObjectsRequest: FetchRequest<ManagedObject> {
        FetchRequest(entityName: entityName, predicate: combinedPredicate?.mappingConstants(Self.objectsAsIDs), sortDescriptors: sortDescriptors)
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

    func rearrange(reload: Bool) {
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

    func arrange(_ objects: [ManagedObject]) -> [ManagedObject] {
        var result = objects.filter { $0.isValid && !$0.isDeleted }
        if let filter = filterPredicate {
            result = result.filter { (try? filter.evaluate(with: .object($0))) ?? false }
        }
        if !sortDescriptors.isEmpty, let sorted = try? sortDescriptors.sorted(result.map { ObjectValue.object($0) }) {
            result = sorted.compactMap { $0.objectReference as? ManagedObject }
        }
        return result
    }
}
