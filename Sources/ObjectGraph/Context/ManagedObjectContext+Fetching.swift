import Foundation
import OrderedCollections
import ObjectModel
import Predicates

extension ManagedObjectContext {
    /// The objects a request matches. Faults are made as the result is read (see
    /// `FetchedObjects`).
    ///
    /// With `includesPendingChanges` (the default) unsaved inserts and changes that match
    /// are included, unsaved deletions left out.
    public func fetch(_ request: FetchRequest<ManagedObject>) throws -> FetchedObjects {
        checkQueue()
        var request = request
        if request.resultType != .managedObjects { request.resultType = .managedObjects }
        guard case .objects(let objects) = try execute(request) else { return [] }
        return objects
    }

    /// The objects a request matches, as a registered subclass.
    public func fetch<T: ManagedObject>(_ request: FetchRequest<ManagedObject>, as type: T.Type) throws -> [T] {
        try fetch(request).compactMap { $0 as? T }
    }

    /// The IDs of the objects a request matches.
    public func fetchObjectIDs(_ request: FetchRequest<ManagedObject>) throws -> [ManagedObjectID] {
        checkQueue()
        var request = request
        request.resultType = .objectIDs
        guard case .objectIDs(let ids) = try execute(request) else { return [] }
        return ids
    }

    /// Dictionaries of the request's `propertiesToFetch` (every attribute when `nil`).
    public func fetchDictionaries(_ request: FetchRequest<ManagedObject>) throws -> [[String: ObjectValue]] {
        checkQueue()
        var request = request
        request.resultType = .dictionaries
        guard case .dictionaries(let rows) = try execute(request) else { return [] }
        return rows
    }

    /// How many objects a request matches, without loading them.
    public func count(for request: FetchRequest<ManagedObject>) throws -> Int {
        checkQueue()
        var request = request
        request.resultType = .count
        guard case .count(let n) = try execute(request) else { return 0 }
        return n
    }

    /// Runs a request and returns the result in the form its `resultType` asks for.
    ///
    /// - Throws: `ObjectGraphError.unknownEntity`, a predicate evaluation error, or the
    ///   store's error.
    public func execute(_ request: FetchRequest<ManagedObject>) throws -> FetchResult {
        checkQueue()
        guard let entity = model.entity(named: request.entityName) else {
            throw ObjectGraphError.unknownEntity(request.entityName)
        }
        if request.includesPendingChanges { processPendingChanges() }
        let kinds = request.includesSubentities ? entity.kindNames : [entity.name]
        let kindSet = Set(kinds)
        let stores = coordinator.stores(forEntityName: entity.name)
        let pending: [ManagedObject] = request.includesPendingChanges && request.resultType != .dictionaries
            ? (Array(inserted) + Array(updated) + Array(deleted) + Array(discarded)).filter { kindSet.contains($0.entity.name) }
            : []
        let sources = parent == nil ? stores.count : 1
        let merging = !pending.isEmpty || sources > 1
        if merging, sources == 1, parent == nil, stores[0].ordersTiesByKey,
           let folded = try foldingChanges(pending, into: request, entityNames: kinds, stores: stores) {
            return folded
        }

        var storeRequest = StoreRequest(fetch: request, entityNames: kinds, appliesLimits: !merging)
        if merging && request.resultType == .count { storeRequest.fetch.resultType = .objectIDs }
        // Faults from one store are made from its keys, each ID when it is asked for.
        let makesFaults = request.resultType == .managedObjects && request.returnsObjectsAsFaults
            && request.relationshipKeyPathsForPrefetching.isEmpty
        storeRequest.acceptsKeys = !merging && parent == nil && makesFaults
        var keys: FetchedKeys?
        var ids: [ManagedObjectID] = []
        var rows: [ManagedObjectID: StoredRow] = [:]
        var dictionaries: [[String: ObjectValue]] = []
        var count = 0
        func take(_ result: StoreResult) {
            switch result {
            case .rows(let found, let foundRows):
                // The first store's array is taken as it is, not copied ID by ID.
                if ids.isEmpty { ids = found } else { ids += found }
                if let foundRows { for r in foundRows { rows[r.objectID] = r } }
            case .dictionaries(let d): dictionaries += d
            case .count(let n): count += n
            case .keys(let found):
                if keys == nil, ids.isEmpty { keys = found } else { ids += found.objectIDs }
            }
        }
        if let parent {
            take(try executeInParent(parent, storeRequest))
        } else {
            for store in stores { take(try coordinator.reading(store) { try store.execute(storeRequest) }) }
        }
        if request.resultType == .dictionaries { return .dictionaries(dictionaries) }
        if !merging {
            switch request.resultType {
            case .count: return .count(count)
            case .objectIDs: return .objectIDs(ids)
            default:
                if request.returnsObjectsAsFaults && request.relationshipKeyPathsForPrefetching.isEmpty {
                    let batch = request.fetchBatchSize > 0 ? request.fetchBatchSize : (stores.map(\.faultBatchSize).max() ?? 0)
                    // A store that loads faults in batches may send a small fetch's rows with
                    // its IDs: they wait for the faults. (A store in memory sends its rows
                    // always; its faults read them there.)
                    // Only for objects still to be read: one the context holds has newer values
                    // than the row as its own unsaved or saved changes go.
                    if batch > 0, !rows.isEmpty, stores.allSatisfy({ $0.faultBatchSize > 0 }) {
                        faultBatches.keep(rows.values.lazy.filter { self.registeredObject(for: $0.objectID)?.isFault != false })
                    }
                    if let keys {
                        if ids.isEmpty { return .objects(FetchedObjects(keys: keys, context: self, batchSize: batch)) }
                        ids = keys.objectIDs + ids
                    }
                    return .objects(FetchedObjects(ids: ids, context: self, batchSize: batch))
                }
                return .objects(FetchedObjects(try materialise(ids, rows: rows, request: request)))
            }
        }

        var objects = ids.map { object(with: $0) }.filter { $0.status == .clean || $0.status == .inserted }
        var present = Set(objects)
        for o in pending where o.status == .inserted || o.status == .clean {
            let matches = try request.predicate?.evaluate(with: .object(o)) ?? true
            if matches && !present.contains(o) {
                objects.append(o)
                present.insert(o)
            } else if !matches && present.contains(o) {
                objects.removeAll { $0 === o }
                present.remove(o)
            }
        }
        if !request.sortDescriptors.isEmpty, merging {
            if stores.count == 1, stores[0].ordersTiesByKey {
                // Ties in the store's order, by key, unsaved objects after: the stable sort
                // below keeps it, as a window with the changes folded in has it.
                objects.sort { a, b in
                    guard let x = a.objectID.primaryKey else { return false }
                    guard let y = b.objectID.primaryKey else { return true }
                    return x < y
                }
            }
            let sorted = try request.sortDescriptors.sorted(objects.map { ObjectValue.object($0) })
            objects = sorted.compactMap { $0.objectReference as? ManagedObject }
        }
        objects = InMemoryQuery(request: request).window(objects)
        switch request.resultType {
        case .count: return .count(objects.count)
        case .objectIDs: return .objectIDs(objects.map(\.objectID))
        default: return .objects(FetchedObjects(try materialise(objects.map(\.objectID), rows: rows, request: request)))
        }
    }

    /// A count, or a sorted window (a limit), with unsaved changes folded in without reading
    /// every match: the store counts or reads the rows the changes do not touch, and the few
    /// changed objects that match are placed among them in memory. A window at offset `k`
    /// reads at most `limit` + (changed objects) rows. `nil` when the request is of another
    /// kind (no limit, no sort), which the general path answers.
    private func foldingChanges(_ pending: [ManagedObject], into request: FetchRequest<ManagedObject>, entityNames: [String],
                                stores: [any PersistentStore]) throws -> FetchResult? {
        let counting = request.resultType == .count
        guard counting || (request.fetchLimit > 0 && !request.sortDescriptors.isEmpty
                           && (request.resultType == .objectIDs || request.resultType == .managedObjects)) else { return nil }
        // The store leaves out every object the changes touch; those still there and matching
        // are placed here.
        let touched = pending.map(\.objectID).filter { !$0.isTemporaryID }
        var fetch = request
        fetch.includesPendingChanges = false
        if !touched.isEmpty {
            let untouched = ObjectPredicate.not(.comparison(ComparisonPredicate(.evaluatedObject, .in, .constant(.array(touched.map { .object($0) })))))
            fetch.predicate = request.predicate.map { .and([$0, untouched]) } ?? untouched
        }
        let live = try pending.filter { o in
            guard o.status == .inserted || o.status == .clean else { return false }
            return try request.predicate?.evaluate(with: .object(o)) ?? true
        }
        func fromStore(_ fetch: FetchRequest<ManagedObject>) throws -> StoreResult {
            let store = stores[0]
            return try coordinator.reading(store) { try store.execute(StoreRequest(fetch: fetch, entityNames: entityNames)) }
        }
        if counting {
            fetch.resultType = .count
            guard case .count(let n) = try fromStore(fetch) else { return nil }
            return .count(n + live.count)
        }
        // The store's order: the sort, then the primary key; an object not saved yet after
        // every saved one it ties with.
        func before(_ a: ManagedObject, _ b: ManagedObject) throws -> Bool {
            switch try request.sortDescriptors.compare(.object(a), .object(b)) {
            case .orderedAscending: return true
            case .orderedDescending: return false
            case .orderedSame:
                guard let x = a.objectID.primaryKey else { return false }
                guard let y = b.objectID.primaryKey else { return true }
                return x < y
            }
        }
        var changed = try request.sortDescriptors.sorted(live)
        // Saved ones among equals by key, as the store has them; the sort above is stable.
        changed = try changed.enumerated().sorted { l, r in
            if try before(l.element, r.element) { return true }
            if try before(r.element, l.element) { return false }
            return l.offset < r.offset
        }.map(\.element)
        let offset = request.fetchOffset, limit = request.fetchLimit
        // The store's rows from `base` on hold the window's first row at the latest once as
        // many changed objects as there are sort before it.
        let base = max(0, offset - changed.count)
        fetch.resultType = .objectIDs
        fetch.fetchOffset = base
        fetch.fetchLimit = limit + changed.count
        guard case .rows(let storeIDs, _) = try fromStore(fetch) else { return nil }
        let stored = storeIDs.map { object(with: $0) }
        // Changed objects before the first stored row sit among the rows before `base`: at
        // the start when `base` is 0, else before the window (at most `changed.count` of
        // them, and the window starts `changed.count` rows past `base`).
        var ahead = 0
        if let first = stored.first {
            while ahead < changed.count, try before(changed[ahead], first) { ahead += 1 }
        } else {
            ahead = changed.count
        }
        var merged: [ManagedObject] = base == 0 ? Array(changed[..<ahead]) : []
        let start = base == 0 ? 0 : base + ahead
        var i = 0, j = ahead
        while i < stored.count || j < changed.count {
            let takesChanged = try j < changed.count && (i == stored.count || before(changed[j], stored[i]))
            if takesChanged {
                merged.append(changed[j]); j += 1
            } else {
                merged.append(stored[i]); i += 1
            }
        }
        let from = min(merged.count, max(0, offset - start))
        let window = Array(merged[from..<min(merged.count, from + limit)])
        if request.resultType == .objectIDs { return .objectIDs(window.map(\.objectID)) }
        return .objects(FetchedObjects(try materialise(window.map(\.objectID), rows: [:], request: request)))
    }

    /// Objects for fetched IDs: faults, or loaded ones when the request asks.
    private func materialise(_ ids: [ManagedObjectID], rows: [ManagedObjectID: StoredRow],
                             request: FetchRequest<ManagedObject>) throws -> [ManagedObject] {
        if let first = ids.first, !first.isTemporaryID {
            registry.reserveCapacity(forMore: ids.count, entityName: first.entityName, storeIdentifier: first.storeIdentifier)
        }
        let objects = ids.map { object(with: $0) }
        if request.fetchBatchSize > 0, request.returnsObjectsAsFaults {
            faultBatches.register(objects.filter(\.isFault).map(\.objectID), size: request.fetchBatchSize)
        }
        if !request.returnsObjectsAsFaults {
            var unread: [ManagedObject] = []
            for o in objects where o.isFault {
                if let row = rows[o.objectID] { apply(row, to: o); o.awakeFromFetchMarked() } else { unread.append(o) }
            }
            try fulfillFaults(unread)
        }
        for path in request.relationshipKeyPathsForPrefetching {
            try prefetch(path, from: objects)
        }
        return objects
    }

    /// Loads the objects along a key path from all results, a level at a time: the faults
    /// of each level load with one `rows(for:)` request per store.
    private func prefetch(_ path: String, from objects: [ManagedObject]) throws {
        var level = objects
        for key in path.split(separator: ".").map(String.init) {
            try fulfillFaults(level)
            var next: [ManagedObject] = []
            var seen = Set<ObjectIdentifier>()
            for o in level {
                let destinations: [ObjectValue]
                switch try o.value(forKey: key) {
                case .object(let d as ManagedObject): destinations = [.object(d)]
                case .set(let members), .array(let members): destinations = members
                default: destinations = []
                }
                for case let d as ManagedObject in destinations.map(\.objectReference) where seen.insert(ObjectIdentifier(d)).inserted {
                    next.append(d)
                }
            }
            level = next
        }
        try fulfillFaults(level)
    }

    /// Fires many faults with one request per store (or one to the parent).
    private func fulfillFaults(_ objects: [ManagedObject]) throws {
        let ids = objects.lazy.filter(\.isFault).map(\.objectID)
        guard !ids.isEmpty else { return }
        for row in try sourceRows(for: Array(ids)) {
            guard let o = registeredObject(for: row.objectID), o.isFault else { continue }
            apply(row, to: o)
            o.awakeFromFetchMarked()
        }
        for o in objects where o.isFault { try o.fireFault() }
    }
}
