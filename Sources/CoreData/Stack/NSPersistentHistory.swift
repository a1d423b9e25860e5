import Foundation
import ObjectGraph
import ObjectModel
import Predicates

// Persistent history under Core Data's names: a store added with
// `NSPersistentHistoryTrackingKey` records every transaction, and a context reads them with
// `execute(NSPersistentHistoryChangeRequest.fetchHistory(after: token))`, merges each with
// `mergeChanges(fromContextDidSave: transaction.objectIDNotification())`, and keeps the last
// token (archived with `NSKeyedArchiver`) to start from next time.

/// A point in the history of the coordinator's stores: what a context has merged up to.
/// Archived with `NSKeyedArchiver` (secure coding), as apps keep it between launches.
open class NSPersistentHistoryToken: NSObject, NSSecureCoding {
    let token: HistoryToken

    init(_ token: HistoryToken) {
        self.token = token
        super.init()
    }

    /// Always `true`: tokens are archived and unarchived with secure coding.
    public static var supportsSecureCoding: Bool { true }

    /// Archives the token: the last transaction number of each store, by store UUID.
    public func encode(with coder: NSCoder) {
        let numbers = (try? JSONEncoder().encode(token.transactionNumbers)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        coder.encode(numbers as NSString, forKey: "transactionNumbers")
    }

    /// A token from its archive; nil when the archive holds none.
    public required init?(coder: NSCoder) {
        guard let text = coder.decodeObject(of: NSString.self, forKey: "transactionNumbers") as String?,
              let numbers = try? JSONDecoder().decode([String: Int64].self, from: Data(text.utf8)) else { return nil }
        token = HistoryToken(numbers)
        super.init()
    }

    /// Whether the other token stands at the same point: the same transaction number in each store.
    open override func isEqual(_ object: Any?) -> Bool { (object as? NSPersistentHistoryToken)?.token == token }
    /// A hash of the token, the same for equal tokens.
    open override var hash: Int { token.hashValue }
    /// `<NSPersistentHistoryToken N>`, with the transaction number (and the store UUIDs, for
    /// several stores).
    open override var description: String { "<NSPersistentHistoryToken \(token)>" }
}

/// What happened to an object in a transaction.
public enum NSPersistentHistoryChangeType: Int, Sendable {
    /// The object was inserted.
    case insert = 0
    /// Some of the object's properties changed (`updatedProperties`).
    case update = 1
    /// The object was deleted; `tombstone` holds the values the model keeps after deletion.
    case delete = 2
}

/// One committed write to a store: a context's save, a batch request, or another program's
/// statements.
open class NSPersistentHistoryTransaction: NSObject {
    /// When the transaction was committed.
    public let timestamp: Date
    /// The transaction's changes; nil when the request asked for transactions only.
    public internal(set) var changes: [NSPersistentHistoryChange]?
    /// The transaction's number in its store, rising with every commit.
    public let transactionNumber: Int64
    /// The store's UUID.
    public let storeID: String
    /// Core Data names the app's bundle; here, the process's name.
    public let bundleID: String
    /// The ID of the process that wrote the transaction; empty when the store recorded none.
    public let processID: String
    /// The saving context's `name`, if it had one.
    public let contextName: String?
    /// The saving context's `transactionAuthor`.
    public let author: String?
    /// The token just after this transaction: what to fetch after, next time.
    public let token: NSPersistentHistoryToken
    let engine: HistoryTransaction

    init(_ transaction: HistoryTransaction, model: NSManagedObjectModel) {
        engine = transaction
        timestamp = transaction.timestamp
        transactionNumber = transaction.transactionNumber
        storeID = transaction.storeIdentifier
        bundleID = ProcessInfo.processInfo.processName
        processID = transaction.processID ?? ""
        contextName = transaction.contextName
        author = transaction.author
        token = NSPersistentHistoryToken(transaction.token)
        super.init()
        changes = transaction.changes.map { NSPersistentHistoryChange($0, transaction: self, model: model) }
    }

    /// The transaction as a save notice, for `mergeChanges(fromContextDidSave:)`: the IDs of
    /// the objects it inserted, updated and deleted.
    open func objectIDNotification() -> Notification {
        let save = engine.objectIDNotification()
        return Notification(name: .NSManagedObjectContextDidSaveObjectIDs, object: nil, userInfo: [
            SavedChanges.key: save,
            NSManagedObjectContext.NotificationKey.insertedObjectIDs.rawValue: Set(save.inserted),
            NSManagedObjectContext.NotificationKey.updatedObjectIDs.rawValue: Set(save.updated),
            NSManagedObjectContext.NotificationKey.deletedObjectIDs.rawValue: Set(save.deleted),
        ])
    }

    /// The entity a history request's `fetchRequest` names to filter transactions by their
    /// `author`, `contextName`, `timestamp`, `transactionNumber`, `processID` or `bundleID`.
    public static var entityDescription: NSEntityDescription? { nil }
    /// A fetch request of the transactions, whose predicate (on `author`, `contextName`,
    /// `timestamp`…) filters a history request made with `fetchHistory(withFetch:)`.
    public static var fetchRequest: NSFetchRequest<NSFetchRequestResult>? {
        NSFetchRequest<NSFetchRequestResult>(entityName: historyTransactionEntityName)
    }

    /// The transaction's values by key, for a request's predicate.
    var keyValues: [String: ObjectValue] {
        ["author": author.map(ObjectValue.string) ?? .null, "contextName": contextName.map(ObjectValue.string) ?? .null,
         "timestamp": .date(timestamp), "transactionNumber": .int(Int(transactionNumber)), "processID": .string(processID),
         "bundleID": .string(bundleID), "storeID": .string(storeID)]
    }
}

let historyTransactionEntityName = "NSPersistentHistoryTransaction"
let historyChangeEntityName = "NSPersistentHistoryChange"

/// One object's change in a transaction.
open class NSPersistentHistoryChange: NSObject {
    /// The change's number in the store's history.
    public let changeID: Int64
    /// The ID of the object the change is to.
    public let changedObjectID: NSManagedObjectID
    /// Whether the object was inserted, updated or deleted.
    public let changeType: NSPersistentHistoryChangeType
    /// For a delete, the values the model keeps after deletion (`preservesValueInHistoryOnDeletion`).
    public let tombstone: [AnyHashable: Any]?
    /// The transaction the change belongs to. A change read with its transaction is held by
    /// it; one read alone (`.changesOnly`) holds its transaction.
    public private(set) weak var transaction: NSPersistentHistoryTransaction?
    /// The transaction, held strongly, for a change returned without it.
    private var heldTransaction: NSPersistentHistoryTransaction?

    /// Keeps the change's transaction alive for as long as the change.
    func holdTransaction() { heldTransaction = transaction }
    /// For an update, the properties that changed.
    public let updatedProperties: Set<NSPropertyDescription>?

    init(_ change: HistoryChange, transaction: NSPersistentHistoryTransaction?, model: NSManagedObjectModel) {
        changeID = change.changeID
        changedObjectID = change.changedObjectID
        changeType = NSPersistentHistoryChangeType(rawValue: change.changeType.rawValue) ?? .update
        tombstone = change.tombstone.map { values in
            Dictionary(uniqueKeysWithValues: values.map { (AnyHashable($0.key), CocoaValue.any($0.value) ?? NSNull()) })
        }
        self.transaction = transaction
        let properties = model.entitiesByName[change.changedObjectID.entityName]?.propertiesByName ?? [:]
        updatedProperties = change.updatedProperties.map { Set($0.compactMap { properties[$0] }) }
        super.init()
    }

    /// Always nil: the history's changes are no entity of the model (`fetchRequest` names
    /// them for a filter).
    public static var entityDescription: NSEntityDescription? { nil }
    /// A fetch request of the changes, whose predicate (on `changeType`, `changedObjectID`,
    /// `changedEntity`, `changeID`) filters a history request made with `fetchHistory(withFetch:)`.
    public static var fetchRequest: NSFetchRequest<NSFetchRequestResult>? {
        NSFetchRequest<NSFetchRequestResult>(entityName: historyChangeEntityName)
    }

    /// The change's values by key, for a request's predicate.
    var keyValues: [String: ObjectValue] {
        ["changeID": .int(Int(changeID)), "changeType": .int(changeType.rawValue), "changedObjectID": .object(changedObjectID),
         "changedEntity": .string(changedObjectID.entityName)]
    }
}

/// What a history request returns.
public enum NSPersistentHistoryResultType: Int, Sendable {
    /// The result is `true`.
    case statusOnly = 0
    /// The result is the changed objects' IDs, each once, an `[NSManagedObjectID]`.
    case objectIDs = 1
    /// The result is the number of transactions fetched, or removed by a delete request.
    case count = 2
    /// The result is the transactions, without their changes (`changes` is nil).
    case transactionsOnly = 3
    /// The result is the changes of every transaction fetched, in order, an
    /// `[NSPersistentHistoryChange]`.
    case changesOnly = 4
    /// The result is the transactions, each with its changes (the default).
    case transactionsAndChanges = 5
}

/// A request for the history, or to delete some of it, run by `NSManagedObjectContext.execute(_:)`.
///
/// ```swift
/// let request = NSPersistentHistoryChangeRequest.fetchHistory(after: lastToken)
/// let transactions = (try context.execute(request) as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryTransaction]
/// ```
public final class NSPersistentHistoryChangeRequest: NSPersistentStoreRequest {
    enum Operation {
        case fetch(after: HistoryToken?, date: Date?)
        case delete(through: HistoryToken?, before: Date?)
    }

    let operation: Operation
    /// What `execute(_:)` returns; transactions with their changes unless set otherwise.
    public var resultType = NSPersistentHistoryResultType.transactionsAndChanges
    /// Filters what is fetched: a transaction request (`NSPersistentHistoryTransaction.fetchRequest`)
    /// whose predicate reads `author`, `contextName`, `timestamp`…, or a change request
    /// (`NSPersistentHistoryChange.fetchRequest`) whose predicate reads `changeType`, `changedObjectID`.
    public var fetchRequest: NSFetchRequest<NSFetchRequestResult>?
    /// The token the request starts from, when it names one.
    public var token: NSPersistentHistoryToken? {
        if case .fetch(let after?, _) = operation { return NSPersistentHistoryToken(after) }
        return nil
    }

    init(_ operation: Operation) {
        self.operation = operation
        super.init()
    }

    /// Every transaction after the token; all of them for nil.
    public static func fetchHistory(after token: NSPersistentHistoryToken?) -> NSPersistentHistoryChangeRequest { .init(.fetch(after: token?.token, date: nil)) }
    /// Every transaction committed after the date.
    public static func fetchHistory(after date: Date) -> NSPersistentHistoryChangeRequest { .init(.fetch(after: nil, date: date)) }
    /// Every transaction after this one.
    public static func fetchHistory(after transaction: NSPersistentHistoryTransaction?) -> NSPersistentHistoryChangeRequest {
        .init(.fetch(after: transaction?.engine.token, date: nil))
    }
    /// Every transaction (or change) the fetch request's predicate allows.
    public static func fetchHistory(withFetch fetchRequest: NSFetchRequest<NSFetchRequestResult>) -> NSPersistentHistoryChangeRequest {
        let request = NSPersistentHistoryChangeRequest(.fetch(after: nil, date: nil))
        request.fetchRequest = fetchRequest
        return request
    }

    /// Removes the transactions up to and including the token's.
    public static func deleteHistory(before token: NSPersistentHistoryToken?) -> NSPersistentHistoryChangeRequest { .init(.delete(through: token?.token, before: nil)) }
    /// Removes the transactions committed before the date.
    public static func deleteHistory(before date: Date) -> NSPersistentHistoryChangeRequest { .init(.delete(through: nil, before: date)) }
    /// Removes the transactions up to and including this one.
    public static func deleteHistory(before transaction: NSPersistentHistoryTransaction?) -> NSPersistentHistoryChangeRequest {
        .init(.delete(through: transaction?.engine.token, before: nil))
    }

}

/// What a history request returned: `result` holds transactions, changes, object IDs, a
/// count or `true`, as the request's `resultType` asked.
open class NSPersistentHistoryResult: NSPersistentStoreResult {
    /// The result type the request asked for, which says what `result` holds.
    public let resultType: NSPersistentHistoryResultType
    /// `true`, a count, object IDs, changes or transactions, as `resultType` says (`true` or a
    /// count for a delete request).
    public let result: Any?

    init(_ result: Any?, type: NSPersistentHistoryResultType) {
        self.result = result
        resultType = type
    }
}

extension PersistentStoreCoordinator {
    /// The token of the stores' last transaction (of these stores only, when given).
    public func currentPersistentHistoryToken(fromStores stores: [Any]?) -> NSPersistentHistoryToken? {
        guard var token = try? currentHistoryToken() else { return nil }
        if let stores {
            let wanted = Set(stores.compactMap { ($0 as? NSPersistentStore)?.identifier })
            token.transactionNumbers = token.transactionNumbers.filter { wanted.contains($0.key) }
        }
        return NSPersistentHistoryToken(token)
    }
}

extension ManagedObjectContext {
    /// Runs a history request: the transactions it asks for, or the history it deletes.
    func executeHistory(_ request: NSPersistentHistoryChangeRequest) throws -> NSPersistentHistoryResult {
        switch request.operation {
        case .delete(let through, let before):
            let removed = try through.map { try coordinator.deleteHistory(through: $0) } ?? before.map { try coordinator.deleteHistory(before: $0) } ?? 0
            return NSPersistentHistoryResult(request.resultType == .count ? removed : true, type: request.resultType)
        case .fetch(let after, let date):
            var transactions = try coordinator.fetchHistory(HistoryRequest(after: after))
            if let date { transactions.removeAll { $0.timestamp <= date } }
            let model = NSManagedObjectModel(coordinator.model)
            // With their changes, even for transactions only: a change request's predicate reads them.
            var wrapped = transactions.map { NSPersistentHistoryTransaction($0, model: model) }
            if let filter = request.fetchRequest, let predicate = filter.predicate {
                switch filter.entityName {
                case historyChangeEntityName:
                    for transaction in wrapped {
                        transaction.changes = try transaction.changes?.filter { try predicate.objectPredicate.evaluate(with: .dictionary($0.keyValues)) }
                    }
                    wrapped.removeAll { $0.changes?.isEmpty ?? true }
                default:
                    wrapped = try wrapped.filter { try predicate.objectPredicate.evaluate(with: .dictionary($0.keyValues)) }
                }
            }
            if let limit = request.fetchRequest?.fetchLimit, limit > 0, wrapped.count > limit { wrapped = Array(wrapped.prefix(limit)) }
            switch request.resultType {
            case .statusOnly: return NSPersistentHistoryResult(true, type: .statusOnly)
            case .count: return NSPersistentHistoryResult(wrapped.count, type: .count)
            case .objectIDs:
                var seen = Set<NSManagedObjectID>(), ids: [NSManagedObjectID] = []
                for change in wrapped.flatMap({ $0.changes ?? [] }) where seen.insert(change.changedObjectID).inserted { ids.append(change.changedObjectID) }
                return NSPersistentHistoryResult(ids, type: .objectIDs)
            case .changesOnly:
                // Changes without their transactions in the result: each holds its own, which
                // then no longer holds the changes (no cycle), so `transaction` stays readable.
                let changes = wrapped.flatMap { transaction -> [NSPersistentHistoryChange] in
                    let changes = transaction.changes ?? []
                    transaction.changes = nil
                    for change in changes { change.holdTransaction() }
                    return changes
                }
                return NSPersistentHistoryResult(changes, type: .changesOnly)
            case .transactionsOnly:
                for transaction in wrapped { transaction.changes = nil }
                return NSPersistentHistoryResult(wrapped, type: .transactionsOnly)
            case .transactionsAndChanges: return NSPersistentHistoryResult(wrapped, type: .transactionsAndChanges)
            }
        }
    }
}
