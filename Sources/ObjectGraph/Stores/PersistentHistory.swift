import Foundation
import Predicates

/// A point in the history of the stores: for each store (by UUID), the number of the last
/// transaction seen. A context that merged up to a token asks for the transactions after it.
/// Tokens are `Codable`, so that a program keeps its place across restarts.
///
/// ```swift
/// let token = try coordinator.currentHistoryToken()
/// // ... later, perhaps in another run
/// for transaction in try coordinator.fetchHistory(HistoryRequest(after: token)) { ... }
/// ```
public struct HistoryToken: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The last transaction number seen, by store UUID.
    public var transactionNumbers: [String: Int64]

    /// A token from the last transaction number seen in each store, by store UUID; empty stands
    /// before every transaction.
    public init(_ transactionNumbers: [String: Int64] = [:]) { self.transactionNumbers = transactionNumbers }

    /// Whether this token has seen everything `other` has.
    public func includes(_ other: HistoryToken) -> Bool {
        other.transactionNumbers.allSatisfy { (transactionNumbers[$0.key] ?? 0) >= $0.value }
    }

    /// The later point of two tokens, store by store.
    public func merged(with other: HistoryToken) -> HistoryToken {
        HistoryToken(transactionNumbers.merging(other.transactionNumbers) { Swift.max($0, $1) })
    }

    /// `3` for one store, `STORE-UUID:3,OTHER-UUID:7` for several: what `termdata history`
    /// prints and reads back with `init?(text:)`.
    public var description: String {
        if transactionNumbers.count == 1, let only = transactionNumbers.first { return String(only.value) }
        return transactionNumbers.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",")
    }

    /// Reads `description`'s form; a bare number stands for every store.
    public init?(text: String, storeIdentifiers: [String]) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let number = Int64(trimmed), number >= 0 {
            self.init(Dictionary(uniqueKeysWithValues: storeIdentifiers.map { ($0, number) }))
            return
        }
        var numbers: [String: Int64] = [:]
        for part in trimmed.split(separator: ",") {
            guard let colon = part.lastIndex(of: ":"), let n = Int64(part[part.index(after: colon)...]), n >= 0 else { return nil }
            numbers[String(part[..<colon])] = n
        }
        guard !numbers.isEmpty else { return nil }
        self.init(numbers)
    }
}

/// What happened to one object in a transaction.
public enum HistoryChangeType: Int, Sendable, Hashable, Codable {
    /// The transaction inserted the object.
    case insert = 0
    /// The transaction changed some of the object's properties.
    case update = 1
    /// The transaction deleted the object.
    case delete = 2
}

/// One object's change in a transaction.
public struct HistoryChange: Sendable, Hashable {
    /// The change's number in the store's history.
    public var changeID: Int64
    /// Whether the object was inserted, updated or deleted.
    public var changeType: HistoryChangeType
    /// The object the change is to.
    public var changedObjectID: ManagedObjectID
    /// For an update, the properties that changed (a to-many relationship changes when a
    /// member joins or leaves it); `nil` for inserts and deletes.
    public var updatedProperties: Set<String>?
    /// For a delete, the values of the attributes the model keeps after deletion
    /// (`preservesValueInHistoryOnDeletion`), by name.
    public var tombstone: [String: ObjectValue]?
    /// What the change replaced, by property name, where the store recorded it (stores made
    /// here do; Core Data's own history keeps no such record, and this is `nil` there): for an
    /// update, each changed attribute and to-one relationship as it was before (a to-one as
    /// `.object(ManagedObjectID)`, or `.null`); for a delete, every attribute and to-one
    /// relationship the object had. A to-many relationship's members are in `joined` and `left`.
    public var previousValues: [String: ObjectValue]?
    /// Members that joined a to-many relationship of the object in this change, by
    /// relationship name, where the store recorded them: the members of relationships kept in
    /// a join table (a many-to-many). The members of a to-many whose inverse is a to-one say
    /// it in their own changes, as their to-one's previous value.
    public var joined: [String: [ManagedObjectID]] = [:]
    /// Members that left a to-many relationship of the object, as `joined`; for a deleted
    /// object, the members it had in its many-to-many relationships.
    public var left: [String: [ManagedObjectID]] = [:]

    /// A change from its number, its kind, its object, and what the store recorded of it; no
    /// members joined or left.
    public init(changeID: Int64, changeType: HistoryChangeType, changedObjectID: ManagedObjectID,
                updatedProperties: Set<String>? = nil, tombstone: [String: ObjectValue]? = nil,
                previousValues: [String: ObjectValue]? = nil) {
        self.changeID = changeID
        self.changeType = changeType
        self.changedObjectID = changedObjectID
        self.updatedProperties = updatedProperties
        self.tombstone = tombstone
        self.previousValues = previousValues
    }
}

/// One committed write to a store: a context's save, a batch request, or another program's
/// statements, with who made it and what it changed.
public struct HistoryTransaction: Sendable, Hashable {
    /// The transaction's number in its store, rising with every commit.
    public var transactionNumber: Int64
    /// The UUID of the store the transaction was committed to.
    public var storeIdentifier: String
    /// When it was committed.
    public var timestamp: Date
    /// The saving context's `transactionAuthor`; `nil` for a writer that named none (another
    /// program's plain SQL).
    public var author: String?
    /// The saving context's `name`.
    public var contextName: String?
    /// The process that wrote it, as its ID.
    public var processID: String?
    /// What the transaction changed, each change to one object.
    public var changes: [HistoryChange]

    /// A transaction from its number and store, when and by whom it was committed, and its changes.
    public init(transactionNumber: Int64, storeIdentifier: String, timestamp: Date, author: String?,
                contextName: String?, processID: String?, changes: [HistoryChange]) {
        self.transactionNumber = transactionNumber
        self.storeIdentifier = storeIdentifier
        self.timestamp = timestamp
        self.author = author
        self.contextName = contextName
        self.processID = processID
        self.changes = changes
    }

    /// The token that stands just after this transaction.
    public var token: HistoryToken { HistoryToken([storeIdentifier: transactionNumber]) }

    /// The transaction as a save notice: what a context merges with
    /// `mergeChanges(fromContextDidSave:)`.
    public func objectIDNotification() -> ContextDidSave {
        var inserted: [ManagedObjectID] = [], updated: [ManagedObjectID] = [], deleted: [ManagedObjectID] = []
        for change in changes {
            switch change.changeType {
            case .insert: inserted.append(change.changedObjectID)
            case .update: updated.append(change.changedObjectID)
            case .delete: deleted.append(change.changedObjectID)
            }
        }
        return ContextDidSave(inserted: inserted, updated: updated, deleted: deleted)
    }
}

/// Which transactions to fetch: those after a token (all when `nil`), by some authors,
/// context names or entities only, at most `fetchLimit` of them.
public struct HistoryRequest: Sendable, Hashable {
    /// Only transactions after this token's, store by store; `nil` for the whole history.
    public var after: HistoryToken?
    /// Only transactions by these authors.
    public var authors: Set<String>?
    /// Leave out transactions by these authors (a program's own saves, merged already).
    public var excludingAuthors: Set<String> = []
    /// Only transactions saved by contexts of these names.
    public var contextNames: Set<String>?
    /// Only changes to objects of these entities (sub-entities included); transactions with
    /// none are left out.
    public var entityNames: Set<String>?
    /// Only changes to these objects (an object's story); transactions with none are left
    /// out. The coordinator narrows what the stores return.
    public var objectIDs: Set<ManagedObjectID>?
    /// The most transactions to return, oldest first; `nil` for all.
    public var fetchLimit: Int?

    /// A request for the transactions after a token (all by default), filtered by author, context
    /// name and entity where given.
    public init(after: HistoryToken? = nil, authors: Set<String>? = nil, contextNames: Set<String>? = nil,
                entityNames: Set<String>? = nil, fetchLimit: Int? = nil) {
        self.after = after
        self.authors = authors
        self.contextNames = contextNames
        self.entityNames = entityNames
        self.fetchLimit = fetchLimit
    }
}

/// Who writes a transaction: what a save records beside its rows.
public struct TransactionInfo: Sendable, Hashable {
    /// The author the transaction is recorded under: a context's `transactionAuthor`.
    public var author: String?
    /// The name of the context that writes it.
    public var contextName: String?

    /// Transaction information from an author and a context name, both optional.
    public init(author: String? = nil, contextName: String? = nil) {
        self.author = author
        self.contextName = contextName
    }
}

/// A store that keeps a history of its transactions and notices other writers' commits.
public protocol HistoryTrackingStore: PersistentStore {
    /// Whether the store records history now.
    var tracksHistory: Bool { get }

    /// Transactions after `request.after`, oldest first, filtered as the request asks.
    func fetchHistory(_ request: HistoryRequest) throws -> [HistoryTransaction]

    /// Removes the transactions up to and including `token`'s for this store; returns how many.
    func deleteHistory(through token: HistoryToken) throws -> Int

    /// Removes the transactions committed before `date`; returns how many.
    func deleteHistory(before date: Date) throws -> Int

    /// The token of the store's last transaction.
    func currentHistoryToken() throws -> HistoryToken

    /// Watches for commits by any connection, this process's or another's, and calls
    /// `handler` (on a thread of the store's) within 250 ms of each, with the store's token
    /// then. Returns a function that stops the watch.
    func watchCommits(_ handler: @escaping @Sendable (HistoryToken) -> Void) throws -> @Sendable () -> Void
}
