import Foundation

extension ManagedObjectContext {
    /// Whether the context merges what other programs and contexts commit as the stores
    /// notice it (their remote-change notices): `mergeRemoteChanges` runs on the context's
    /// queue after each, as a Core Data app merges history on
    /// `NSPersistentStoreRemoteChange`. Turned on, the context follows history from its
    /// `historyToken`, or from now. It needs a queue (`mainQueue` or `privateQueue`) for the
    /// merge to run on. A merge that fails leaves the token where it was; the next notice
    /// tries again.
    public var automaticallyMergesRemoteChanges: Bool {
        get { remoteMerging.withLock { $0 != nil } }
        set {
            precondition(!newValue || concurrencyType != .confined,
                         "a confined context cannot merge as changes arrive; make it with concurrencyType .mainQueue or .privateQueue")
            checkQueue()
            if newValue, historyToken == nil { historyToken = try? coordinator.currentHistoryToken() }
            let link = WeakContext(context: self)
            let stale: UUID? = remoteMerging.withLock { observer in
                guard newValue != (observer != nil) else { return nil }
                if newValue {
                    observer = coordinator.observeRemoteChanges { _ in
                        guard let context = link.context else { return }
                        context.perform { _ = try? context.mergeRemoteChanges() }
                    }
                    return nil
                }
                defer { observer = nil }
                return observer
            }
            if let stale { coordinator.removeRemoteChangeObserver(stale) }
        }
    }

    /// Brings in what others committed to the stores since `historyToken`: other processes'
    /// saves, batch requests, other contexts' saves. Changed objects reload; one with unsaved
    /// changes keeps what it read, so that its save meets the other as a conflict for the
    /// merge policy (or the user) to settle. Deleted ones leave, inserted ones are announced to
    /// controllers; this context's own saves are skipped. The token moves to the last
    /// transaction merged. Without a token, the context starts following history now.
    ///
    /// ```swift
    /// viewContext.historyToken = try coordinator.currentHistoryToken()
    /// coordinator.observeRemoteChanges { _ in
    ///     viewContext.perform { try? viewContext.mergeRemoteChanges() }
    /// }
    /// ```
    ///
    /// - Returns: the transactions merged.
    @discardableResult
    public func mergeRemoteChanges() throws -> [HistoryTransaction] {
        checkQueue()
        guard let token = historyToken else {
            historyToken = try coordinator.currentHistoryToken()
            return []
        }
        let transactions = try coordinator.fetchHistory(HistoryRequest(after: token))
        guard !transactions.isEmpty else { return [] }
        var merged = ContextDidSave(inserted: [], updated: [], deleted: [])
        var others: [HistoryTransaction] = []
        var next = token
        for transaction in transactions {
            next = next.merged(with: transaction.token)
            if ownTransactions[transaction.storeIdentifier]?.contains(transaction.transactionNumber) == true { continue }
            others.append(transaction)
            let notice = transaction.objectIDNotification()
            merged.inserted += notice.inserted
            merged.updated += notice.updated
            merged.deleted += notice.deleted
        }
        historyToken = next
        for (store, numbers) in ownTransactions {
            let reached = next.transactionNumbers[store] ?? 0
            ownTransactions[store] = numbers.filter { $0 > reached }
        }
        // An object inserted and deleted within the transactions merged never shows; one
        // deleted is not refreshed as well.
        let deleted = Set(merged.deleted)
        merged.inserted = Array(Set(merged.inserted).subtracting(deleted))
        merged.updated = Array(Set(merged.updated).subtracting(deleted).subtracting(merged.inserted))
        if !merged.isEmpty { mergeChanges(fromContextDidSave: merged, keepingUnsaved: true) }
        return others
    }
}
