import Foundation

/// The objects a fetch found, in the request's order.
///
/// A fetch that returns faults reads only the matching objects' IDs; each object is made
/// when the collection is first read at its index, so fetching a hundred thousand objects
/// and reading ten makes ten, and `count` makes none. With a `fetchBatchSize`, reading one
/// object makes its whole batch, and the first of those faults to fire loads them all with
/// one store request. Once made, an object stays: reading an index again gives the same
/// object, and the collection keeps it (and its context) alive, as an array would.
///
/// A fetch that loads values (`returnsObjectsAsFaults = false`), prefetches relationships,
/// or merges unsaved changes or several stores makes its objects at once.
///
/// ```swift
/// let items = try context.fetch(FetchRequest(entityName: "ToDo"))
/// print(items.count)              // no object made yet
/// let first = items.first         // one fault
/// let everything = Array(items)   // every object
/// ```
public struct FetchedObjects: RandomAccessCollection, CustomStringConvertible {
    private let storage: Storage

    /// Results whose objects are made when read.
    init(ids: [ManagedObjectID], context: ManagedObjectContext, batchSize: Int) {
        storage = Storage(ids: ids, context: context, batchSize: batchSize)
    }

    /// Results that are already objects.
    public init(_ objects: [ManagedObject]) {
        storage = Storage(objects: objects)
    }

    /// The IDs of the results, in order; reading them makes no object.
    public var objectIDs: [ManagedObjectID] { storage.ids }

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.ids.count }

    public subscript(position: Int) -> ManagedObject {
        precondition(position >= 0 && position < storage.ids.count,
                     "index \(position) outside the \(storage.ids.count) fetched objects")
        return storage.object(at: position)
    }

    public var description: String { Array(self).description }

    private final class Storage {
        let ids: [ManagedObjectID]
        /// The objects made so far, by index.
        var objects: [ManagedObject?]
        /// The context the objects are made in; `nil` for results that were objects already.
        let context: ManagedObjectContext?
        let batchSize: Int
        /// How many objects have been made; once an eighth of a large result has been read,
        /// the context makes room for the rest at once rather than growing step by step.
        var made = 0

        init(ids: [ManagedObjectID], context: ManagedObjectContext, batchSize: Int) {
            self.ids = ids
            self.objects = Array(repeating: nil, count: ids.count)
            self.context = context
            self.batchSize = batchSize
        }

        init(objects: [ManagedObject]) {
            self.ids = objects.map(\.objectID)
            self.objects = objects
            self.context = nil
            self.batchSize = 0
        }

        func object(at index: Int) -> ManagedObject {
            if let object = objects[index] { return object }
            guard let context else { preconditionFailure("fetched object \(index) has no context to be made in") }
            guard batchSize > 0 else { return make(index, in: context) }
            // The whole batch, so that its faults load together.
            let start = index - index % batchSize
            let range = start..<Swift.min(ids.count, start + batchSize)
            var faults: [ManagedObjectID] = []
            for i in range where objects[i] == nil {
                let object = make(i, in: context)
                if object.isFault { faults.append(object.objectID) }
            }
            context.faultBatches.register(faults, size: faults.count)
            return objects[index]!
        }

        private func make(_ index: Int, in context: ManagedObjectContext) -> ManagedObject {
            let object = context.object(with: ids[index])
            objects[index] = object
            made += 1
            if made == Swift.max(1_024, ids.count / 8) {
                context.registry.reserveCapacity(context.registry.count + ids.count - made)
            }
            return object
        }
    }
}

extension FetchedObjects: Equatable {
    /// The same objects in the same order.
    public static func == (lhs: FetchedObjects, rhs: FetchedObjects) -> Bool {
        lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0 === $1 }
    }
}

extension FetchedObjects: ExpressibleByArrayLiteral {
    public init(arrayLiteral objects: ManagedObject...) {
        self.init(objects)
    }
}
