import Foundation

extension ManagedObjectContext {
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
