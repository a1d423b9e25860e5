import Foundation
import Synchronization

/// That a store has new commits, by this process or another: what remote-change observers hear.
public struct RemoteChangeNotice: Sendable, Hashable {
    /// The identifier (UUID) of the store that has new commits.
    public var storeIdentifier: String
    /// The store's history token after the commits (its last transaction).
    public var token: HistoryToken
}

/// The coordinator's remote-change observers and the watches that serve them.
struct RemoteChangeState {
    var observers: [UUID: @Sendable (RemoteChangeNotice) -> Void] = [:]
    /// How to stop the watch of each store, by its UUID.
    var watches: [String: @Sendable () -> Void] = [:]
}

extension PersistentStoreCoordinator {
    // MARK: History

    /// The stores that keep history.
    private var historyStores: [any HistoryTrackingStore] { stores.compactMap { $0 as? any HistoryTrackingStore } }

    /// The transactions after `request.after` in every store that keeps history, oldest
    /// first (by time, then by number), as the request filters them.
    ///
    /// ```swift
    /// let news = try coordinator.fetchHistory(HistoryRequest(after: token))
    /// for transaction in news { context.mergeChanges(fromContextDidSave: transaction.objectIDNotification()) }
    /// ```
    public func fetchHistory(_ request: HistoryRequest) throws -> [HistoryTransaction] {
        var all: [HistoryTransaction] = []
        // The stores read the objects' entities, every transaction of them (the limit counts
        // the transactions that touch the objects); the changes to others go here.
        var storeRequest = request
        if let ids = request.objectIDs {
            storeRequest.entityNames = request.entityNames ?? Set(ids.map(\.entityName))
            storeRequest.fetchLimit = nil
        }
        for store in historyStores { all += try reading(store) { try store.fetchHistory(storeRequest) } }
        if let ids = request.objectIDs {
            all = all.compactMap { transaction in
                var mine = transaction
                mine.changes = transaction.changes.filter { ids.contains($0.changedObjectID) }
                return mine.changes.isEmpty ? nil : mine
            }
        }
        all.sort { ($0.timestamp, $0.transactionNumber) < ($1.timestamp, $1.transactionNumber) }
        if let limit = request.fetchLimit, all.count > limit { all.removeLast(all.count - limit) }
        return all
    }

    /// Removes the history up to and including `token`'s transactions; returns how many
    /// transactions went.
    @discardableResult
    public func deleteHistory(through token: HistoryToken) throws -> Int {
        try locked { try historyStores.reduce(0) { $0 + (try $1.deleteHistory(through: token)) } }
    }

    /// Removes the history of transactions committed before `date`; returns how many went.
    @discardableResult
    public func deleteHistory(before date: Date) throws -> Int {
        try locked { try historyStores.reduce(0) { $0 + (try $1.deleteHistory(before: date)) } }
    }

    /// The token of the last transaction of every store that keeps history.
    public func currentHistoryToken() throws -> HistoryToken {
        try historyStores.reduce(HistoryToken()) { token, store in
            token.merged(with: try reading(store) { try store.currentHistoryToken() })
        }
    }

    // MARK: Remote changes

    /// Calls `handler`, on a thread of the store's, within a quarter of a second of every
    /// commit to a store file by any connection: another process's save, plain SQL, or this
    /// process's own saves (their transactions carry the saving context, to tell them apart).
    /// Stores added later are watched too.
    ///
    /// ```swift
    /// coordinator.observeRemoteChanges { notice in
    ///     viewContext.perform { viewContext.mergeRemoteChanges() }
    /// }
    /// ```
    @discardableResult
    public func observeRemoteChanges(_ handler: @escaping @Sendable (RemoteChangeNotice) -> Void) -> UUID {
        let id = UUID()
        remoteChanges.withLock { $0.observers[id] = handler }
        locked { watchStores(stores) }
        return id
    }

    /// Stops a remote-change observer; the watches end with the last one.
    public func removeRemoteChangeObserver(_ id: UUID) {
        remoteChanges.withLock { $0.observers[id] = nil }
        locked { watchStores(stores) }
    }

    /// Starts a watch for each store that has none while anyone listens, and stops those of
    /// stores gone (or all, when nobody listens). Called under the coordinator's lock.
    func watchStores(_ stores: [any PersistentStore]) {
        let (listening, watched) = remoteChanges.withLock { (!$0.observers.isEmpty, Set($0.watches.keys)) }
        let wanted = listening ? stores.compactMap { $0 as? any HistoryTrackingStore } : []
        let wantedIDs = Set(wanted.map(\.identifier))
        var stops: [@Sendable () -> Void] = []
        remoteChanges.withLock { state in
            for id in watched where !wantedIDs.contains(id) {
                if let stop = state.watches.removeValue(forKey: id) { stops.append(stop) }
            }
        }
        for stop in stops { stop() }
        for store in wanted where !watched.contains(store.identifier) {
            let identifier = store.identifier
            guard let stop = try? store.watchCommits({ [weak self] token in
                self?.postRemoteChange(RemoteChangeNotice(storeIdentifier: identifier, token: token))
            }) else { continue }
            remoteChanges.withLock { $0.watches[identifier] = stop }
        }
    }

    private func postRemoteChange(_ notice: RemoteChangeNotice) {
        let handlers = remoteChanges.withLock { Array($0.observers.values) }
        for handler in handlers { handler(notice) }
    }
}
