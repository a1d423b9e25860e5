import Foundation
import Predicates

extension ManagedObjectContext {
    /// The objects a fetch request finds, worked out in memory: every object of its entity is
    /// fetched from the stores (without predicate, sort or limit), then the predicate evaluator,
    /// the sort descriptors, the offset and the limit are applied here. It reads the whole
    /// entity, so it is for checking, not for speed: what a store's own query returns can be
    /// compared with it (`termdata query --evaluate memory`), and a predicate a store cannot run
    /// in its query language still has an answer.
    ///
    /// ```swift
    /// let request = FetchRequest(entityName: "Book", predicate: try ObjectPredicate(format: "title LIKE[c] 'k*'"))
    /// let fromTheStore = try context.fetch(request).map(\.objectID)
    /// let worked = try context.fetchEvaluatingInMemory(request).map(\.objectID)   // the same, in the same order
    /// ```
    ///
    /// - Parameter request: the request; its entity, sub-entities, predicate, sort descriptors,
    ///   offset and limit are used, its result type is not (objects are returned).
    /// - Returns: the matching objects, sorted, within the offset and limit.
    /// - Throws: the fetch's error, or the evaluator's (an unknown key, a value of the wrong type).
    public func fetchEvaluatingInMemory(_ request: FetchRequest<ManagedObject>) throws -> [ManagedObject] {
        var everything = FetchRequest<ManagedObject>(entityName: request.entityName)
        everything.includesSubentities = request.includesSubentities
        let candidates = try fetch(everything).map { ObjectValue.object($0) }
        let query = InMemoryQuery(request: request)
        return query.window(try query.filterAndSort(candidates)).compactMap { $0.objectReference as? ManagedObject }
    }
}
