import Foundation
import ObjectGraph
import ObjectModel
import Predicates

/// The results of a fetch over a store of any size: its count and sections come from the
/// store, and its objects are read a window at a time, so memory follows what is shown,
/// not how much is stored.
///
/// ```swift
/// let request = FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "dueDate")])
/// let results = FetchedResultsController(fetchRequest: request, context: context)
/// try results.performFetch()
/// let rows = try results.objects(in: 500_000..<500_040)
/// ```
public final class FetchedResultsController {
    /// A run of consecutive results that share a value of the section key path.
    public struct Section: Equatable, Sendable {
        /// The section key path's value for the section's objects, as text (empty for `nil`, ISO
        /// 8601 for a date).
        public var name: String
        /// Index of the section's first object in the whole result.
        public var offset: Int
        /// How many objects the section holds.
        public var numberOfObjects: Int

        /// A section from its name, the index of its first object and its size.
        public init(name: String, offset: Int, numberOfObjects: Int) {
            self.name = name
            self.offset = offset
            self.numberOfObjects = numberOfObjects
        }
    }

    /// The fetch whose results the controller holds; `update(predicate:sortDescriptors:)` and
    /// `install(_:)` change it.
    public private(set) var fetchRequest: FetchRequest<ManagedObject>
    /// The context the results are read from and whose changes refetch them.
    public let context: ManagedObjectContext
    /// The key path whose values divide the results into sections; the request's first
    /// sort descriptor must sort by it.
    public let sectionNameKeyPath: String?
    /// How many objects one read fetches.
    public var windowSize = 100
    /// How many windows stay in memory.
    public var cachedWindows = 8
    /// How many results `index(of:)` reads at most when the sort has no "before" predicate.
    public var scanLimit = 10_000

    /// How many objects match.
    public private(set) var count = 0
    /// The sections of the results, in order; empty without a `sectionNameKeyPath`.
    public private(set) var sections: [Section] = []
    private var windows: [Int: [ManagedObjectID]] = [:]
    private var windowUse: [Int] = []
    private var observers: [UUID: (ArrangedChanges) -> Void] = [:]
    private var observation: ContextObservation?
    private var kinds: Set<String> = []

    /// A controller over a fetch's results in a context; `performFetch()` reads them.
    public init(fetchRequest: FetchRequest<ManagedObject>, context: ManagedObjectContext, sectionNameKeyPath: String? = nil) {
        self.fetchRequest = fetchRequest
        self.context = context
        self.sectionNameKeyPath = sectionNameKeyPath
    }

    /// Counts the results and reads their sections; objects are read when asked for.
    ///
    /// - Throws: `ControllerError.firstSortMustBeSectionKey` when sections are asked for and
    ///   the first sort descriptor is not the section key path; `ObjectGraphError.unknownEntity`
    ///   for an entity the model lacks; the store's or predicate's error.
    public func performFetch() throws {
        if let key = sectionNameKeyPath, fetchRequest.sortDescriptors.first?.key != key {
            throw ControllerError.firstSortMustBeSectionKey(key)
        }
        guard let entity = context.model.entity(named: fetchRequest.entityName) else {
            throw ObjectGraphError.unknownEntity(fetchRequest.entityName)
        }
        kinds = Set(fetchRequest.includesSubentities ? entity.kindNames : [entity.name])
        count = try context.count(for: fetchRequest)
        windows = [:]
        windowUse = []
        sections = try Self.sections(of: fetchRequest, by: sectionNameKeyPath, in: context)
        follow()
    }

    /// Hears of the context's changes, once.
    private func follow() {
        if observation == nil {
            observation = context.observe { [weak self] note in
                switch note {
                case .objectsDidChange(let changes): self?.contextChanged(changes)
                case .didSave(let save): self?.contextSaved(save)
                default: break
                }
            }
        }
    }

    /// What a fetch found, as a context on any queue reads it for a controller on another:
    /// the count, the sections, the first window of results, and where some objects sort.
    public struct Results: Sendable {
        /// The fetch that was run, which the controller takes as its `fetchRequest`.
        public let request: FetchRequest<ManagedObject>
        /// How many objects match the fetch.
        public let count: Int
        /// The sections of the results; empty without a section key path.
        public let sections: [Section]
        /// Windows of results by number (`windowSize` results each): the first, and those
        /// around the located objects, so that showing them reads nothing more.
        public let windows: [Int: [ManagedObjectID]]
        /// The index of each object asked to be located that the results hold.
        public let located: [ManagedObjectID: Int]
    }

    /// Reads what a fetch finds in `context`, for `install` on the controller's own thread:
    /// the slow part of changing a filter or sort, done on a background context's queue.
    ///
    /// ```swift
    /// let found = try await background.perform {
    ///     try FetchedResultsController.results(of: request, windowSize: 100, locating: [selected], in: background)
    /// }
    /// controller.install(found)
    /// ```
    public static func results(of request: FetchRequest<ManagedObject>, sectionNameKeyPath: String? = nil, windowSize: Int = 100,
                               scanLimit: Int = 10_000, locating ids: [ManagedObjectID] = [],
                               in context: ManagedObjectContext) throws -> Results {
        if let key = sectionNameKeyPath, request.sortDescriptors.first?.key != key {
            throw ControllerError.firstSortMustBeSectionKey(key)
        }
        let count = try context.count(for: request)
        let sections = try Self.sections(of: request, by: sectionNameKeyPath, in: context)
        var windows: [Int: [ManagedObjectID]] = [:]
        let read = { (w: Int) throws -> [ManagedObjectID] in
            if let ids = windows[w] { return ids }
            var window = request
            window.fetchOffset = w * windowSize
            window.fetchLimit = windowSize
            let ids = try context.fetchObjectIDs(window)
            windows[w] = ids
            return ids
        }
        let first = count > 0 ? try read(0) : []
        var located: [ManagedObjectID: Int] = [:]
        for id in ids {
            if let i = first.firstIndex(of: id) { located[id] = i; continue }
            guard count > first.count, let object = try? context.existingObject(with: id),
                  let i = try locate(object, in: request, count: count, windowSize: windowSize, scanLimit: scanLimit,
                                     context: context, window: read) else { continue }
            located[id] = i
            // The rows around it, as a table scrolled to it shows them.
            for w in max(0, i / windowSize - 1)...min((count - 1) / windowSize, i / windowSize + 1) { _ = try read(w) }
        }
        return Results(request: request, count: count, sections: sections, windows: windows, located: located)
    }

    /// Takes results read elsewhere (`results(of:...)`) as the controller's, and tells the
    /// observers, as `update` would have.
    public func install(_ results: Results) {
        fetchRequest = results.request
        if let entity = context.model.entity(named: fetchRequest.entityName) {
            kinds = Set(fetchRequest.includesSubentities ? entity.kindNames : [entity.name])
        }
        count = results.count
        sections = results.sections
        // Windows of another size would put objects at other indexes.
        windows = [:]
        windowUse = []
        for (w, ids) in results.windows.sorted(by: { $0.key < $1.key })
        where ids.count == min(windowSize, max(0, count - w * windowSize)) {
            windows[w] = ids
            windowUse.append(w)
        }
        follow()
        notify(ArrangedChanges(reloaded: true))
    }

    /// Changes the predicate or sort and fetches again.
    public func update(predicate: ObjectPredicate?, sortDescriptors: [ObjectSortDescriptor]? = nil) throws {
        fetchRequest.predicate = predicate
        if let sortDescriptors { fetchRequest.sortDescriptors = sortDescriptors }
        try performFetch()
        notify(ArrangedChanges(reloaded: true))
    }

    /// The object at an index of the whole result.
    public func object(at index: Int) throws -> ManagedObject {
        precondition(index >= 0 && index < count, "index \(index) outside 0..<\(count)")
        let w = index / windowSize
        let ids = try window(w)
        let offset = index - w * windowSize
        guard offset < ids.count else {
            throw ObjectGraphError.objectNotFound(entity: fetchRequest.entityName, objectID: "row \(index)")
        }
        return context.object(with: ids[offset])
    }

    /// The objects in a range of indexes, reading only the windows that cover it.
    public func objects(in range: Range<Int>) throws -> [ManagedObject] {
        let clamped = range.clamped(to: 0..<count)
        return try clamped.map { try object(at: $0) }
    }

    /// The index of an object in the results, or `nil` when it does not match.
    ///
    /// Looks in the windows in memory, then counts in the store the results that sort
    /// before it and reads the few that tie with it. A localized sort has no predicate for
    /// "sorts before": then the first `scanLimit` results are read, a window at a time.
    public func index(of object: ManagedObject) throws -> Int? {
        // No results hold nothing: nothing to ask the store.
        if count == 0 { return nil }
        for (w, ids) in windows {
            if let i = ids.firstIndex(of: object.objectID) { return w * windowSize + i }
        }
        guard kinds.contains(object.entity.name) else { return nil }
        return try Self.locate(object, in: fetchRequest, count: count, windowSize: windowSize, scanLimit: scanLimit,
                               context: context, window: window)
    }

    /// Where an object sorts in a request's results, asking `context`'s stores.
    private static func locate(_ object: ManagedObject, in request: FetchRequest<ManagedObject>, count: Int, windowSize: Int, scanLimit: Int,
                               context: ManagedObjectContext, window: (Int) throws -> [ManagedObjectID]) throws -> Int? {
        if let p = request.predicate, !(try p.evaluate(with: .object(object))) { return nil }
        guard let before = try beforePredicate(object, sortDescriptors: request.sortDescriptors) else {
            for w in 0..<min((count + windowSize - 1) / windowSize, max(1, scanLimit / windowSize)) {
                if let i = try window(w).firstIndex(of: object.objectID) { return w * windowSize + i }
            }
            return nil
        }
        var counting = request
        counting.predicate = .and([request.predicate ?? .true, before])
        let start = try context.count(for: counting)
        var ties = request
        ties.fetchOffset = start
        ties.fetchLimit = 256
        let ids = try context.fetchObjectIDs(ties)
        return ids.firstIndex(of: object.objectID).map { start + $0 }
    }

    /// Calls `handler` when the results change.
    public func observe(_ handler: @escaping (ArrangedChanges) -> Void) -> BindingObservation {
        let id = UUID()
        observers[id] = handler
        return BindingObservation { [weak self] in self?.observers[id] = nil }
    }

    // MARK: Private

    private func window(_ w: Int) throws -> [ManagedObjectID] {
        if let ids = windows[w] {
            windowUse.removeAll { $0 == w }
            windowUse.append(w)
            return ids
        }
        var request = fetchRequest
        request.fetchOffset = w * windowSize
        request.fetchLimit = windowSize
        let ids = try context.fetchObjectIDs(request)
        windows[w] = ids
        windowUse.append(w)
        while windowUse.count > cachedWindows {
            windows[windowUse.removeFirst()] = nil
        }
        return ids
    }

    private static func sections(of fetchRequest: FetchRequest<ManagedObject>, by sectionNameKeyPath: String?,
                                 in context: ManagedObjectContext) throws -> [Section] {
        guard let key = sectionNameKeyPath else { return [] }
        var request = fetchRequest
        request.resultType = .dictionaries
        request.propertiesToFetch = [.key(key), .expression(ExpressionDescription(
            name: "count", expression: .function("count:", [.evaluatedObject]), resultType: .integer64))]
        request.propertiesToGroupBy = [.key(key)]
        request.sortDescriptors = [fetchRequest.sortDescriptors[0]]
        var offset = 0
        return try context.fetchDictionaries(request).map { row in
            let n = row["count"]?.intValue ?? 0
            defer { offset += n }
            return Section(name: Self.sectionName(row[key] ?? .null), offset: offset, numberOfObjects: n)
        }
    }

    static func sectionName(_ value: ObjectValue) -> String {
        switch value {
        case .null: return ""
        case .string(let s): return s
        case .date(let d): return ISO8601DateFormatter().string(from: d)
        case .bool(let b): return b ? "1" : "0"
        default: return value.intValue.map(String.init) ?? "\(value.doubleValue ?? 0)"
        }
    }

    /// A predicate for "sorts strictly before `object`" under the request's sort descriptors.
    private static func beforePredicate(_ object: ManagedObject, sortDescriptors: [ObjectSortDescriptor]) throws -> ObjectPredicate? {
        var alternatives: [ObjectPredicate] = []
        var equalSoFar: [ObjectPredicate] = []
        for descriptor in sortDescriptors {
            guard descriptor.comparison == .compare || descriptor.comparison == .caseInsensitiveCompare else { return nil }
            let options: ComparisonOptions = descriptor.comparison == .caseInsensitiveCompare ? .caseInsensitive : []
            let value = try object.value(forKeyPath: descriptor.key)
            let key = ObjectExpression.keyPath(descriptor.key)
            let isNil = ObjectPredicate.comparison(ComparisonPredicate(key, .equalTo, .constant(.null)))
            var strictlyBefore: ObjectPredicate
            if value.isNull {
                strictlyBefore = descriptor.ascending ? .false : .not(isNil)
            } else {
                let op: ComparisonOperator = descriptor.ascending ? .lessThan : .greaterThan
                strictlyBefore = .comparison(ComparisonPredicate(key, op, .constant(value), options: options))
                if descriptor.ascending { strictlyBefore = .or([isNil, strictlyBefore]) }
            }
            alternatives.append(.and(equalSoFar + [strictlyBefore]))
            equalSoFar.append(.comparison(ComparisonPredicate(key, .equalTo, .constant(value), options: options)))
        }
        return alternatives.isEmpty ? .false : .or(alternatives)
    }

    private func contextChanged(_ changes: ObjectChanges) {
        let touched = (changes.inserted + changes.updated + changes.deleted + changes.refreshed + changes.invalidated)
            .contains { kinds.contains($0.entity.name) }
            || changes.mergedObjectIDs.contains { kinds.contains($0.entityName) }
        guard touched || changes.invalidatedAll else { return }
        guard (try? performFetch()) != nil else { return }
        notify(ArrangedChanges(reloaded: true))
    }

    /// A save gives inserted objects their permanent IDs; the windows hold the temporary ones,
    /// which no longer name an object, so they are read again.
    private func contextSaved(_ save: ContextDidSave) {
        guard save.inserted.contains(where: { kinds.contains($0.entityName) }) else { return }
        guard (try? performFetch()) != nil else { return }
        notify(ArrangedChanges(reloaded: true))
    }

    private func notify(_ changes: ArrangedChanges) {
        for handler in observers.values { handler(changes) }
    }
}
