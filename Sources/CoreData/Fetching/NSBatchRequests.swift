import Foundation
import ObjectGraph
import ObjectModel
import Predicates

// Core Data's batch requests, run by `NSManagedObjectContext.execute(_:)` straight in the
// store (SQLite, PostgreSQL): no objects are loaded, no context changes. Merge the IDs they
// return (`mergeChanges(fromRemoteContextSave:into:)`) for contexts to see them.

/// The result of `execute(_:)`.
open class NSPersistentStoreResult: NSObject {}

/// What a batch delete returns: `true` (status only), the number of objects deleted, or their IDs.
public enum NSBatchDeleteRequestResultType: UInt, Sendable {
    /// The result is `true` once the objects are deleted.
    case resultTypeStatusOnly = 0
    /// The result is the deleted objects' IDs, an `[NSManagedObjectID]`.
    case resultTypeObjectIDs = 1
    /// The result is the number of objects deleted, an `Int`.
    case resultTypeCount = 2
}

/// What a batch update returns: `true` (status only), the updated objects' IDs, or their number.
public enum NSBatchUpdateRequestResultType: UInt, Sendable {
    /// The result is `true` once the objects are updated.
    case statusOnlyResultType = 0
    /// The result is the updated objects' IDs, an `[NSManagedObjectID]`.
    case updatedObjectIDsResultType = 1
    /// The result is the number of objects updated, an `Int`.
    case updatedObjectsCountResultType = 2
}

/// What a batch insert returns: `true` (status only), the new objects' IDs, or their number.
public enum NSBatchInsertRequestResultType: UInt, Sendable {
    /// The result is `true` once the objects are inserted.
    case statusOnly = 0
    /// The result is the new objects' IDs, an `[NSManagedObjectID]`.
    case objectIDs = 1
    /// The result is the number of objects inserted, an `Int`.
    case count = 2
}

/// Every object a fetch request matches (and what its delete rules reach), deleted in the
/// store in one transaction.
///
/// ```swift
/// let old = NSFetchRequest<NSFetchRequestResult>(entityName: "Item")
/// old.predicate = NSPredicate(format: "done == YES")
/// let delete = NSBatchDeleteRequest(fetchRequest: old)
/// delete.resultType = .resultTypeObjectIDs
/// let result = try context.execute(delete) as? NSBatchDeleteResult
/// ```
open class NSBatchDeleteRequest: NSPersistentStoreRequest {
    /// The entity and predicate of the objects to delete.
    public let entityName: String
    /// The fetch request's predicate, which picks the objects to delete; `nil` for all of the
    /// entity's objects, or when the request was made from IDs.
    public let predicate: NSPredicate?
    /// Object IDs to delete, by entity, when the request was made from IDs.
    private var objectIDsByEntity: [(String, [NSManagedObjectID])] = []
    /// What the result holds: `true` (the default), the number of objects deleted, or their IDs.
    open var resultType = NSBatchDeleteRequestResultType.resultTypeStatusOnly

    /// The objects a fetch request matches: its entity and predicate (a request without an entity
    /// is a programming error).
    public init<T>(fetchRequest: NSFetchRequest<T>) {
        guard let entityName = fetchRequest.entityName else {
            preconditionFailure("an NSBatchDeleteRequest needs a fetch request with an entity (entityName)")
        }
        self.entityName = entityName
        predicate = fetchRequest.predicate
        super.init()
    }

    /// The objects with these IDs.
    public init(objectIDs: [NSManagedObjectID]) {
        precondition(!objectIDs.isEmpty, "an NSBatchDeleteRequest needs at least one object ID")
        entityName = objectIDs[0].entityName
        predicate = nil
        super.init()
        var order: [String] = []
        var byEntity: [String: [NSManagedObjectID]] = [:]
        for id in objectIDs {
            if byEntity[id.entityName] == nil { order.append(id.entityName) }
            byEntity[id.entityName, default: []].append(id)
        }
        objectIDsByEntity = order.map { ($0, byEntity[$0]!) }
    }

    /// The engine's requests: one, or one per entity of the IDs given.
    var engineRequests: [BatchDeleteRequest] {
        let type: BatchResultType = resultType == .resultTypeObjectIDs ? .objectIDs : .count
        guard !objectIDsByEntity.isEmpty else {
            return [BatchDeleteRequest(entityName: entityName, predicate: predicate?.objectPredicate, resultType: type)]
        }
        return objectIDsByEntity.map { entity, ids in
            BatchDeleteRequest(entityName: entity, predicate: NSPredicate(format: "SELF IN %@", ids).objectPredicate, resultType: type)
        }
    }
}

/// New values for attributes of every object of an entity that matches a predicate, set in
/// the store in one statement.
///
/// ```swift
/// let request = NSBatchUpdateRequest(entityName: "Item")
/// request.predicate = NSPredicate(format: "due < %@", Date() as NSDate)
/// request.propertiesToUpdate = ["done": true]
/// request.resultType = .updatedObjectIDsResultType
/// ```
open class NSBatchUpdateRequest: NSPersistentStoreRequest {
    /// The name of the entity whose objects (and sub-entities' objects) are updated.
    public let entityName: String
    /// Which of the entity's objects are updated; `nil` for all of them.
    open var predicate: NSPredicate?
    /// The new values by attribute name (a key may be an `NSAttributeDescription`); a value
    /// may be an `NSExpression` of a constant.
    open var propertiesToUpdate: [AnyHashable: Any]?
    /// What the result holds: `true` (the default), the updated objects' IDs, or their number.
    open var resultType = NSBatchUpdateRequestResultType.statusOnlyResultType
    /// Whether sub-entities' objects are updated too; always true here.
    open var includesSubentities = true

    /// A request to update objects of the named entity; set `propertiesToUpdate` (and a
    /// `predicate`) before running it.
    public init(entityName: String) {
        self.entityName = entityName
        super.init()
    }

    /// A request to update objects of this entity; set `propertiesToUpdate` (and a `predicate`)
    /// before running it.
    public convenience init(entity: NSEntityDescription) {
        self.init(entityName: entity.engineEntity.name)
    }

    var engineRequest: BatchUpdateRequest {
        var values: [String: ObjectValue] = [:]
        for (key, value) in propertiesToUpdate ?? [:] {
            let name = (key.base as? NSPropertyDescription)?.name ?? "\(key.base)"
            values[name] = CocoaValue.objectValue(value)
        }
        return BatchUpdateRequest(entityName: entityName, predicate: predicate?.objectPredicate, propertiesToUpdate: values,
                                  resultType: resultType == .updatedObjectIDsResultType ? .objectIDs : .count)
    }
}

/// New objects of one entity, from dictionaries of attribute values, written straight to
/// the store (missing attributes take the model's defaults; no relationships).
///
/// ```swift
/// let insert = NSBatchInsertRequest(entityName: "Item", objects: [["title": "Buy milk"], ["title": "Call Anna"]])
/// try context.execute(insert)
/// ```
open class NSBatchInsertRequest: NSPersistentStoreRequest {
    /// The name of the entity of the new objects.
    public let entityName: String
    /// The new objects, each a dictionary of attribute values by attribute name.
    open var objectsToInsert: [[String: Any]]?
    /// What the result holds: `true` (the default), the new objects' IDs, or their number.
    open var resultType = NSBatchInsertRequestResultType.statusOnly

    /// New objects of the named entity, one for each dictionary of attribute values.
    public init(entityName: String, objects: [[String: Any]]) {
        self.entityName = entityName
        objectsToInsert = objects
        super.init()
    }

    /// New objects of this entity, one for each dictionary of attribute values.
    public convenience init(entity: NSEntityDescription, objects: [[String: Any]]) {
        self.init(entityName: entity.engineEntity.name, objects: objects)
    }

    /// Objects made by `handler`, called with an empty dictionary to fill until it returns
    /// true (done; that dictionary is not inserted).
    public init(entityName: String, dictionaryHandler handler: @escaping (NSMutableDictionary) -> Bool) {
        self.entityName = entityName
        var objects: [[String: Any]] = []
        while true {
            let object = NSMutableDictionary()
            if handler(object) { break }
            var values: [String: Any] = [:]
            for (key, value) in object { values["\(key)"] = value }
            objects.append(values)
        }
        objectsToInsert = objects
        super.init()
    }

    var engineRequest: BatchInsertRequest {
        BatchInsertRequest(entityName: entityName,
                           objects: (objectsToInsert ?? []).map { $0.mapValues { CocoaValue.objectValue($0) } },
                           resultType: resultType == .objectIDs ? .objectIDs : .count)
    }
}

/// What a batch delete did: `result` is `true`, the number of objects deleted, or their IDs
/// (`[NSManagedObjectID]`), as the request's `resultType` asked.
open class NSBatchDeleteResult: NSPersistentStoreResult {
    /// The result type the request asked for, which says what `result` holds.
    public let resultType: NSBatchDeleteRequestResultType
    /// `true`, the number of objects deleted (`Int`) or their IDs (`[NSManagedObjectID]`), as
    /// `resultType` says.
    public let result: Any?
    init(_ result: Any?, type: NSBatchDeleteRequestResultType) {
        self.result = result
        resultType = type
    }
}

/// What a batch update did: `result` is `true`, the updated objects' IDs or their number.
open class NSBatchUpdateResult: NSPersistentStoreResult {
    /// The result type the request asked for, which says what `result` holds.
    public let resultType: NSBatchUpdateRequestResultType
    /// `true`, the updated objects' IDs (`[NSManagedObjectID]`) or their number (`Int`), as
    /// `resultType` says.
    public let result: Any?
    init(_ result: Any?, type: NSBatchUpdateRequestResultType) {
        self.result = result
        resultType = type
    }
}

/// What a batch insert did: `result` is `true`, the new objects' IDs or their number.
open class NSBatchInsertResult: NSPersistentStoreResult {
    /// The result type the request asked for, which says what `result` holds.
    public let resultType: NSBatchInsertRequestResultType
    /// `true`, the new objects' IDs (`[NSManagedObjectID]`) or their number (`Int`), as
    /// `resultType` says.
    public let result: Any?
    init(_ result: Any?, type: NSBatchInsertRequestResultType) {
        self.result = result
        resultType = type
    }
}

extension ManagedObjectContext {
    /// Runs a batch request (`NSBatchDeleteRequest`, `NSBatchUpdateRequest`,
    /// `NSBatchInsertRequest`) in the store, recorded in its history under this context's
    /// author. The context's objects do not change.
    ///
    /// - Throws: the store's error; a Deny rule that refuses a delete; a store that runs no
    ///   batch requests (XML, binary, in-memory).
    @discardableResult
    public func execute(_ request: NSPersistentStoreRequest) throws -> NSPersistentStoreResult {
        switch request {
        case let delete as NSBatchDeleteRequest:
            try checkAttached(for: delete.entityName)
            if delete.predicate?.isEvaluatedInMemoryOnly == true { throw StackError(description: "a batch delete cannot run a block predicate") }
            var count = 0
            var ids: [NSManagedObjectID] = []
            for engineRequest in delete.engineRequests {
                let result = try execute(engineRequest)
                count += result.count
                ids += result.objectIDs ?? []
            }
            switch delete.resultType {
            case .resultTypeStatusOnly: return NSBatchDeleteResult(true, type: delete.resultType)
            case .resultTypeCount: return NSBatchDeleteResult(count, type: delete.resultType)
            case .resultTypeObjectIDs: return NSBatchDeleteResult(ids, type: delete.resultType)
            }
        case let update as NSBatchUpdateRequest:
            try checkAttached(for: update.entityName)
            if update.predicate?.isEvaluatedInMemoryOnly == true { throw StackError(description: "a batch update cannot run a block predicate") }
            let result = try execute(update.engineRequest)
            switch update.resultType {
            case .statusOnlyResultType: return NSBatchUpdateResult(true, type: update.resultType)
            case .updatedObjectsCountResultType: return NSBatchUpdateResult(result.count, type: update.resultType)
            case .updatedObjectIDsResultType: return NSBatchUpdateResult(result.objectIDs ?? [], type: update.resultType)
            }
        case let insert as NSBatchInsertRequest:
            try checkAttached(for: insert.entityName)
            let result = try execute(insert.engineRequest)
            switch insert.resultType {
            case .statusOnly: return NSBatchInsertResult(true, type: insert.resultType)
            case .count: return NSBatchInsertResult(result.count, type: insert.resultType)
            case .objectIDs: return NSBatchInsertResult(result.objectIDs ?? [], type: insert.resultType)
            }
        case let history as NSPersistentHistoryChangeRequest:
            return try executeHistory(history)
        default:
            preconditionFailure("execute(_:) runs batch and history requests; fetch with fetch(_:), not \(type(of: request))")
        }
    }
}
