import Foundation
import ObjectGraph
import ObjectModel
import Predicates

extension ManagedObjectContext {
    /// The results of a request, as its result type asks: objects (as the request's class),
    /// object IDs, dictionaries, or one `NSNumber` count.
    ///
    /// ```swift
    /// let open = try context.fetch(Item.fetchRequest())
    /// ```
    ///
    /// - Throws: the store's error; an unknown entity or key.
    public func fetch<T>(_ request: NSFetchRequest<T>) throws -> [T] {
        try request.checkRunsInStore()
        let engineRequest = request.fetchRequest
        try checkAttached(for: engineRequest.entityName)
        switch request.resultType {
        case .managedObjectIDResultType:
            return try fetchObjectIDs(engineRequest).map { $0 as! T }
        case .dictionaryResultType:
            return try fetchDictionaries(engineRequest).map { row in
                NSDictionary(dictionary: row.mapValues { CocoaValue.cocoa($0) ?? NSNull() }) as! T
            }
        case .countResultType:
            return [NSNumber(value: try count(for: engineRequest)) as! T]
        default:
            ManagedClasses.prepareFetch(of: engineRequest.entityName, as: T.self, in: coordinator)
            let objects = try fetch(engineRequest)
            var results: [T] = []
            results.reserveCapacity(objects.count)
            for object in objects {
                guard let result = object as? T else {
                    preconditionFailure("a fetch of \(engineRequest.entityName) as \(T.self) found \(type(of: object)) \(object.objectID): "
                                        + "its entity's class (representedClassName) is not \(T.self)")
                }
                results.append(result)
            }
            return results
        }
    }

    /// How many objects a request would fetch (its limit and offset applied).
    public func count<T>(for request: NSFetchRequest<T>) throws -> Int {
        try request.checkRunsInStore()
        let engineRequest = request.fetchRequest
        try checkAttached(for: engineRequest.entityName)
        return try count(for: engineRequest)
    }

    /// Throws, naming the entity, when the context was made by `init(concurrencyType:)` and
    /// given neither a coordinator nor a parent.
    func checkAttached(for entityName: String) throws {
        guard isAttached else {
            throw StackError(description: "cannot fetch \(entityName): the context has no persistentStoreCoordinator or parent yet")
        }
    }
}

extension NSFetchRequest {
    /// Refuses a request whose predicate is a block: a store cannot run Swift code (Core Data
    /// raises there); the closure runs in memory, on the objects a fetch without it returns.
    func checkRunsInStore() throws {
        if predicate?.isEvaluatedInMemoryOnly == true || havingPredicate?.isEvaluatedInMemoryOnly == true {
            throw StackError(description: "a fetch request's predicate is a block (NSPredicate(block:)), which a store cannot run: "
                + "fetch without it and filter the objects with the predicate, or write it as a format")
        }
    }
}
