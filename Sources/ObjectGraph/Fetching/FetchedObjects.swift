import Foundation

/// The objects a fetch found, in the request's order.
///
/// A fetch that returns faults reads only the matching objects' IDs; each object is made
/// when the collection is first read at its index, so fetching a hundred thousand objects
/// and reading ten makes ten, and `count` makes none. With a `fetchBatchSize`, reading one
/// object makes its whole batch, and the first of those faults to fire loads them all with
/// one store request. Once made, an object stays: reading an index again gives the same
/// object, and the collection keeps it alive, as an array would. The collection also keeps
/// its context alive (an object alone does not), so results read late still load.
///
/// Read late, a result gives what an array filled at the fetch would hold: an object whose
/// deletion was saved or merged since, or any object once the context was reset, comes back
/// invalid (`isValid` is false), not as a live fault for a row that is gone.
///
/// A fetch that loads values (`returnsObjectsAsFaults = false`), prefetches relationships,
/// or merges unsaved changes or several stores makes its objects at once.
///
/// ```swift
/// let items = try context.fetch(FetchRequest(entityName: "ToDo"))
/// print(items.count)              // no object made yet
/// let first = items.first         // one fault (or its batch, with a batch size)
/// let everything = Array(items)   // every object
/// ```
public struct FetchedObjects: RandomAccessCollection, CustomStringConvertible {
    private let storage: Storage

    /// Results whose objects are made when read.
    init(ids: [ManagedObjectID], context: ManagedObjectContext, batchSize: Int) {
        storage = Storage(ids: ids, keys: nil, context: context, batchSize: batchSize)
    }

    /// Results whose objects are made when read, from a store's keys: no ID is made for an
    /// object until it is asked for.
    init(keys: FetchedKeys, context: ManagedObjectContext, batchSize: Int) {
        storage = Storage(ids: [], keys: keys, context: context, batchSize: batchSize)
    }

    /// Results that are already objects.
    public init(_ objects: [ManagedObject]) {
        storage = Storage(objects: objects)
    }

    /// The IDs of the results, in order (as they are now, for objects saved since); reading
    /// them makes no object.
    public var objectIDs: [ManagedObjectID] { storage.objectIDs }

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.count }

    public subscript(position: Int) -> ManagedObject {
        precondition(position >= 0 && position < storage.count,
                     "index \(position) outside the \(storage.count) fetched objects")
        return storage.object(at: position)
    }

    /// The first twenty objects (made, to be shown) and how many more there are.
    public var description: String {
        let shown = prefix(20).map { String(describing: $0) }
        let rest = count > 20 ? ["… and \(count - 20) more"] : []
        return "[" + (shown + rest).joined(separator: ", ") + "]"
    }

    private final class Storage {
        let count: Int
        /// The fetched IDs; empty for results that were objects already or came as keys.
        let ids: [ManagedObjectID]
        /// The fetched keys, for results that came as keys.
        let keys: FetchedKeys?
        /// The objects made so far, by index.
        var objects: [ManagedObject?]
        /// The context the objects are made in; `nil` for results that were objects already.
        let context: ManagedObjectContext?
        let batchSize: Int
        /// The context's reset count when the fetch ran.
        let resets: Int
        /// How many objects have been made; once an eighth of a large result has been read,
        /// the context makes room for the rest at once rather than growing step by step.
        var made = 0
        /// Whether the context counts these results among those with objects to make.
        var isPending = false

        init(ids: [ManagedObjectID], keys: FetchedKeys?, context: ManagedObjectContext, batchSize: Int) {
            self.count = keys?.count ?? ids.count
            self.ids = ids
            self.keys = keys
            self.objects = Array(repeating: nil, count: count)
            self.context = context
            self.batchSize = batchSize
            self.resets = context.pendingResults.resets
            if count > 0 {
                context.pendingResults.resultCreated()
                isPending = true
            }
        }

        init(objects: [ManagedObject]) {
            self.count = objects.count
            self.ids = []
            self.keys = nil
            self.objects = objects
            self.context = nil
            self.batchSize = 0
            self.resets = 0
            self.made = objects.count
        }

        deinit {
            if isPending { context?.pendingResults.resultFinished() }
        }

        var objectIDs: [ManagedObjectID] {
            if context == nil { return objects.map { $0!.objectID } }
            guard let keys else { return ids }
            // An object already made keeps the ID it has (made once, then the same).
            return (0..<count).map { objects[$0]?.objectID ?? keys.objectID(at: $0) }
        }

        func object(at index: Int) -> ManagedObject {
            if let object = objects[index] { return object }
            guard let context else { preconditionFailure("fetched object \(index) has no context to be made in") }
            guard batchSize > 0 else { return make(index, in: context) }
            // The whole batch, so that its faults load together.
            let start = index - index % batchSize
            let range = start..<Swift.min(count, start + batchSize)
            var faults: [ManagedObjectID] = []
            for i in range where objects[i] == nil {
                let object = make(i, in: context)
                if object.isFault && object.isValid { faults.append(object.objectID) }
            }
            context.faultBatches.register(faults, size: faults.count)
            return objects[index]!
        }

        private func make(_ index: Int, in context: ManagedObjectContext) -> ManagedObject {
            let object: ManagedObject
            if let keys {
                let family = keys.family(at: index)
                object = context.fetchedObject(key: keys.keys[index], of: family, madeAt: resets)
                // Room for the rest when they are all of one entity (else each table grows).
                if made + 1 == Swift.max(1_024, count / 8), keys.families.count == 1 {
                    context.registry.reserveCapacity(forMore: count - made - 1, entityName: family.entityName,
                                                     storeIdentifier: family.storeIdentifier)
                }
            } else {
                let id = ids[index]
                object = context.fetchedObject(with: id, madeAt: resets)
                if made + 1 == Swift.max(1_024, count / 8), !id.isTemporaryID {
                    context.registry.reserveCapacity(forMore: count - made - 1, entityName: id.entityName,
                                                     storeIdentifier: id.storeIdentifier)
                }
            }
            objects[index] = object
            made += 1
            if made == count, isPending {
                context.pendingResults.resultFinished()
                isPending = false
            }
            return object
        }
    }
}

extension FetchedObjects: Equatable {
    /// The same objects in the same order.
    public static func == (lhs: FetchedObjects, rhs: FetchedObjects) -> Bool {
        if lhs.storage === rhs.storage { return true }
        return lhs.objectIDs == rhs.objectIDs && zip(lhs, rhs).allSatisfy { $0 === $1 }
    }
}

extension FetchedObjects: ExpressibleByArrayLiteral {
    public init(arrayLiteral objects: ManagedObject...) {
        self.init(objects)
    }
}
