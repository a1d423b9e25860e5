import Foundation
import ObjectModel
import Predicates

/// What a batch request returns: how many objects it touched, or which.
public enum BatchResultType: Sendable, Hashable {
    /// Only how many objects the request touched.
    case count
    /// The IDs of the objects it touched, as well as their number.
    case objectIDs
}

/// The objects a batch request touched.
public struct BatchResult: Sendable, Hashable {
    /// How many objects the request inserted, updated or deleted (a delete's cascaded objects
    /// included).
    public var count: Int
    /// The objects, when the request asked for `.objectIDs`.
    public var objectIDs: [ManagedObjectID]?

    /// A result from a count and, for a request that asked for them, the objects' IDs.
    public init(count: Int, objectIDs: [ManagedObjectID]? = nil) {
        self.count = count
        self.objectIDs = objectIDs
    }
}

/// New objects of one entity written straight to the store, from dictionaries of attribute
/// values (missing attributes take the model's defaults), without contexts, validation or
/// relationships, as Core Data's `NSBatchInsertRequest`.
///
/// ```swift
/// let rows: [[String: ObjectValue]] = names.map { ["name": .string($0)] }
/// try context.execute(BatchInsertRequest(entityName: "ToDo", objects: rows))
/// ```
public struct BatchInsertRequest: Sendable {
    /// The name of the entity whose objects are inserted.
    public var entityName: String
    /// One dictionary of attribute values, by attribute name, per object to insert.
    public var objects: [[String: ObjectValue]]
    /// Whether the result gives the new objects' IDs, or only their number (the default).
    public var resultType: BatchResultType

    /// A request to insert objects of an entity from dictionaries of their attribute values.
    public init(entityName: String, objects: [[String: ObjectValue]], resultType: BatchResultType = .count) {
        self.entityName = entityName
        self.objects = objects
        self.resultType = resultType
    }

    /// Objects made by `fill`, called with an empty dictionary and the object's number until
    /// it returns true (done; that dictionary is not inserted), as Core Data's
    /// `dictionaryHandler`.
    public init(entityName: String, resultType: BatchResultType = .count,
                fill: (inout [String: ObjectValue], Int) throws -> Bool) rethrows {
        var objects: [[String: ObjectValue]] = []
        while true {
            var object: [String: ObjectValue] = [:]
            if try fill(&object, objects.count) { break }
            objects.append(object)
        }
        self.init(entityName: entityName, objects: objects, resultType: resultType)
    }
}

/// New values for the attributes of every object of an entity (and its sub-entities) that
/// matches a predicate, set in the store in one statement, as `NSBatchUpdateRequest`.
public struct BatchUpdateRequest: Sendable {
    /// The name of the entity whose objects (sub-entities' included) are updated.
    public var entityName: String
    /// Which objects are updated; `nil` for every object of the entity.
    public var predicate: ObjectPredicate?
    /// The new values, by attribute name; only stored attributes may be set.
    public var propertiesToUpdate: [String: ObjectValue]
    /// Whether the result gives the updated objects' IDs, or only their number (the default).
    public var resultType: BatchResultType

    /// A request to set attribute values on the objects of an entity that match a predicate (all by
    /// default).
    public init(entityName: String, predicate: ObjectPredicate? = nil, propertiesToUpdate: [String: ObjectValue],
                resultType: BatchResultType = .count) {
        self.entityName = entityName
        self.predicate = predicate
        self.propertiesToUpdate = propertiesToUpdate
        self.resultType = resultType
    }
}

/// Every object of an entity (and its sub-entities) that matches a predicate, deleted in
/// the store, as `NSBatchDeleteRequest`. Delete rules apply as a context would apply them:
/// Deny refuses the whole request, Cascade deletes the destinations (with their own rules),
/// Nullify clears the inverse; No Action leaves the destinations' references as they are.
public struct BatchDeleteRequest: Sendable {
    /// The name of the entity whose objects (sub-entities' included) are deleted.
    public var entityName: String
    /// Which objects are deleted; `nil` for every object of the entity.
    public var predicate: ObjectPredicate?
    /// Whether the result gives the deleted objects' IDs, or only their number (the default).
    public var resultType: BatchResultType

    /// A request to delete the objects of an entity that match a predicate (all by default).
    public init(entityName: String, predicate: ObjectPredicate? = nil, resultType: BatchResultType = .count) {
        self.entityName = entityName
        self.predicate = predicate
        self.resultType = resultType
    }
}

/// One of the batch requests, as a store receives it.
public enum BatchRequest: Sendable {
    /// New objects written straight to the store.
    case insert(BatchInsertRequest)
    /// New attribute values set on the matching objects in the store.
    case update(BatchUpdateRequest)
    /// The matching objects deleted in the store, by the delete rules.
    case delete(BatchDeleteRequest)

    var entityName: String {
        switch self {
        case .insert(let r): r.entityName
        case .update(let r): r.entityName
        case .delete(let r): r.entityName
        }
    }
}

/// Why a batch request was refused; nothing was written.
public enum BatchRequestError: Error, Equatable, CustomStringConvertible {
    /// A Deny rule: objects to delete still have destinations through this relationship.
    case denied(entity: String, relationship: String, objects: Int)
    /// A key that is not a stored attribute of the entity.
    case notAnAttribute(entity: String, key: String)
    /// A store that runs no batch requests (only SQLite and PostgreSQL stores do).
    case unsupportedStore(StoreType)

    /// The refusal in words, naming the entity and the key, relationship or store type.
    public var description: String {
        switch self {
        case let .denied(entity, relationship, objects):
            "cannot delete: \(objects) \(entity) object\(objects == 1 ? " has" : "s have") \(relationship), whose delete rule is Deny"
        case let .notAnAttribute(entity, key):
            "\(entity) has no stored attribute '\(key)' (a batch request sets attributes only)"
        case let .unsupportedStore(type):
            "a \(type.rawValue) store runs no batch requests (SQLite and PostgreSQL stores do)"
        }
    }
}

/// What a batch delete removes: the objects it matched and those their Cascade rules reach,
/// each once, and the surviving objects whose to-one inverse a Nullify rule clears. A Deny
/// rule with destinations refuses the whole request. The stores walk it alike.
package struct BatchDeletion {
    package var doomed: [ManagedObjectID] = []
    /// Destinations outside `doomed` whose to-one `inverse` is to be cleared.
    package var nullified: [(destination: ManagedObjectID, inverse: RelationshipDescription)] = []

    /// Walks the delete rules from `matched`; `destinations` reads, as the store has them
    /// now, the objects a relationship of an object leads to.
    package init(matched: [ManagedObjectID], model: ManagedObjectModel,
                 destinations: (ManagedObjectID, RelationshipDescription) throws -> [ManagedObjectID]) throws {
        var seen: Set<ManagedObjectID> = []
        var queue = matched
        var nullify: [(destination: ManagedObjectID, inverse: RelationshipDescription)] = []
        while let id = queue.popLast() {
            guard seen.insert(id).inserted, let object = model.entity(named: id.entityName) else { continue }
            doomed.append(id)
            for relationship in object.relationships where !relationship.isTransient {
                let reached = try destinations(id, relationship)
                guard !reached.isEmpty else { continue }
                switch relationship.deleteRule {
                case .deny:
                    throw BatchRequestError.denied(entity: id.entityName, relationship: relationship.name, objects: 1)
                case .cascade:
                    queue += reached
                case .nullify:
                    guard let inverseName = relationship.inverseName else { continue }
                    for destination in reached {
                        if let inverse = model.entity(named: destination.entityName)?.relationship(named: inverseName), !inverse.isToMany {
                            nullify.append((destination, inverse))
                        }
                    }
                case .noAction:
                    continue
                }
            }
        }
        nullified = nullify.filter { !seen.contains($0.destination) }
    }
}

/// A store that runs batch requests in its own language, without contexts.
public protocol BatchRequestStore: PersistentStore {
    /// Runs a batch request in one transaction, recording it under `transaction` where the store
    /// keeps history.
    ///
    /// - Throws: `BatchRequestError` when the request is refused (nothing written), or the store's
    ///   error.
    func execute(_ request: BatchRequest, transaction: TransactionInfo) throws -> BatchResult
}

extension PersistentStoreCoordinator {
    /// Runs a batch request in the store that holds its entity; a store that keeps history
    /// records it under `transaction`, where contexts learn of it.
    public func execute(_ request: BatchRequest, transaction: TransactionInfo = TransactionInfo()) throws -> BatchResult {
        guard model.entity(named: request.entityName) != nil else { throw ObjectGraphError.unknownEntity(request.entityName) }
        guard let store = stores(forEntityName: request.entityName).first else { throw ObjectGraphError.noStoreForEntity(request.entityName) }
        guard let batchStore = store as? any BatchRequestStore else { throw BatchRequestError.unsupportedStore(store.type) }
        return try locked { try batchStore.execute(request, transaction: transaction) }
    }
}

extension ManagedObjectContext {
    /// Runs a batch insert in the store, recorded under this context's author and name. The
    /// context's objects do not change: merge the store's history (`mergeRemoteChanges`), or
    /// the returned IDs, to see it.
    @discardableResult
    public func execute(_ request: BatchInsertRequest) throws -> BatchResult { try executeBatch(.insert(request)) }

    /// Runs a batch update in the store (see `execute(_: BatchInsertRequest)`).
    @discardableResult
    public func execute(_ request: BatchUpdateRequest) throws -> BatchResult { try executeBatch(.update(request)) }

    /// Runs a batch delete in the store (see `execute(_: BatchInsertRequest)`).
    @discardableResult
    public func execute(_ request: BatchDeleteRequest) throws -> BatchResult { try executeBatch(.delete(request)) }

    private func executeBatch(_ request: BatchRequest) throws -> BatchResult {
        checkQueue()
        return try coordinator.execute(request, transaction: TransactionInfo(author: transactionAuthor, contextName: name))
    }
}
