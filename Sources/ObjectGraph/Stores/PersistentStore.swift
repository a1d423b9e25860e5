import Foundation
import ObjectModel
import Predicates

/// A place objects are kept: what the coordinator asks of every store.
///
/// Atomic stores (`AtomicStore`: in-memory, XML, binary) hold every row in memory and
/// write their file whole; incremental stores (SQLite) read rows on demand and write
/// only what changed. The coordinator serialises all calls to a store.
public protocol PersistentStore: AnyObject {
    /// The store's UUID; permanent object IDs carry it.
    var identifier: String { get }
    /// The store's type: SQLite, XML, binary, in-memory, or another registered one.
    var type: StoreType { get }
    /// The store's file; `nil` for memory.
    var url: URL? { get }
    /// The configuration whose entities this store holds; `nil` for all.
    var configurationName: String? { get }
    /// What the store records about itself: its type, UUID, and the version hashes of the model it
    /// was written with.
    var metadata: StoreMetadata { get }
    /// Whether the store was opened read-only; saves to it fail.
    var isReadOnly: Bool { get }

    /// Runs a fetch against this store alone.
    func execute(_ request: StoreRequest) throws -> StoreResult

    /// The row of one object, or `nil` if the store does not have it.
    func row(for objectID: ManagedObjectID) throws -> StoredRow?

    /// The rows of many objects at once, in the order of `objectIDs`, leaving out those the
    /// store does not have. Incremental stores answer with one query; the default asks
    /// `row(for:)` for each.
    func rows(for objectIDs: [ManagedObjectID]) throws -> [StoredRow]

    /// The destinations of a to-many relationship.
    func relatedObjectIDs(of objectID: ManagedObjectID, relationship: RelationshipDescription) throws -> [ManagedObjectID]

    /// Writes inserted, updated and deleted rows in one step: all or nothing.
    ///
    /// - Throws: `MergeConflictError` when a row's version is not the one the context
    ///   read (unless `changes.overwritesConflicts`); any other error leaves the store as it was.
    func save(_ changes: StoreChanges) throws -> StoreSaveResult

    /// Permanent IDs for new objects of these entities, in order, before they are saved:
    /// their keys are taken now, and a save that inserts a row with such an ID keeps it.
    func obtainPermanentIDs(for entityNames: [String]) throws -> [ManagedObjectID]

    /// Writes the store as it is now (its last save) to a new file at `url`, under the same
    /// UUID and keys, so that objects read from this store are the copy's too. A store whose
    /// file was removed or replaced under it still has what it read: this saves it elsewhere.
    func copyStore(to url: URL) throws

    /// Releases files and connections.
    func close()

    /// Stops the statement running now, from any thread: it fails as interrupted and changes
    /// nothing. Stores whose work cannot be stopped do nothing.
    func interrupt()

    /// Stops the statement that one thread runs now, leaving other threads' work alone.
    func interrupt(thread: WorkThread)

    /// Whether a sorted fetch orders objects that tie by their primary keys, ascending, as
    /// the SQLite store does: then a context can place its unsaved changes among a window
    /// of the store's results without reading every match.
    var ordersTiesByKey: Bool { get }
    /// Whether a save that changes a to-many relationship must carry all its members. A
    /// store that keeps a relationship through the members' foreign keys needs none: the
    /// members' own rows say it, and an owner of a million members that gained one is saved
    /// without reading them.
    func needsMembers(ofRelationship name: String, entityName: String) -> Bool

    /// Whether the store answers reads from several threads at once, each on a connection of
    /// its own, so that the coordinator need not serialise them (writes it always does).
    var readsConcurrently: Bool { get }

    /// How many of a fetch's faults to fill together when one fires and the request names no
    /// `fetchBatchSize`: 0 for one at a time (a local file answers each at once); a server
    /// store asks for many, so that reading a page of results costs one round trip. Such a
    /// store may also send a small fetch's rows with its IDs (`.rows(ids:rows:)` for a
    /// request of faults): the context keeps them for the faults, so the page costs none.
    var faultBatchSize: Int { get }
}

extension PersistentStore {
    /// Does nothing: by default a store's work cannot be stopped.
    public func interrupt() {}
    /// Does nothing: by default a store's work cannot be stopped.
    public func interrupt(thread: WorkThread) {}
    /// `false` by default: the coordinator serialises reads.
    public var readsConcurrently: Bool { false }
    /// 0 by default: faults are filled one at a time.
    public var faultBatchSize: Int { 0 }
    /// `false` by default: ties are not known to follow the primary keys.
    public var ordersTiesByKey: Bool { false }
    /// `true` by default: a save carries every member of a changed to-many relationship.
    public func needsMembers(ofRelationship name: String, entityName: String) -> Bool { true }

    /// The rows of the objects the store has, in order, each read with `row(for:)`.
    public func rows(for objectIDs: [ManagedObjectID]) throws -> [StoredRow] {
        try objectIDs.compactMap { try row(for: $0) }
    }
}

/// A fetch as a store sees it: the entities to search (sub-entities resolved), and the
/// request.
public struct StoreRequest {
    /// The context's request: its predicate, sort, limits and result type.
    public var fetch: FetchRequest<ManagedObject>
    /// The concrete entity names to include.
    public var entityNames: [String]
    /// Whether offset and limit apply here (not when the context merges unsaved changes).
    public var appliesLimits: Bool
    /// Whether the store may answer a fetch of faults with keys (`StoreResult.keys`) rather
    /// than IDs; set by a context that makes its objects from keys.
    public var acceptsKeys = false

    /// A request to search the named concrete entities for a fetch, its offset and limit applied
    /// unless `appliesLimits` is false.
    public init(fetch: FetchRequest<ManagedObject>, entityNames: [String], appliesLimits: Bool = true) {
        self.fetch = fetch
        self.entityNames = entityNames
        self.appliesLimits = appliesLimits
    }
}

/// What a store answers to a fetch.
public enum StoreResult {
    /// Matching objects in order, with their rows when the store read them anyway.
    case rows(ids: [ManagedObjectID], rows: [StoredRow]?)
    /// Dictionaries of the requested properties.
    case dictionaries([[String: ObjectValue]])
    /// The number of matching objects.
    case count(Int)
    /// Matching objects in order, as keys: only when the request `acceptsKeys`.
    case keys(FetchedKeys)
}

/// A thread, as a store knows which thread runs which of its statements: a context's
/// `interruptWork()` stops the statement of its own queue alone.
public struct WorkThread: Hashable, Sendable {
    private let raw: UInt

    /// The calling thread.
    public static var current: WorkThread { WorkThread(raw: UInt(pthread_self())) }
}
