import Foundation

/// The batches of objects a context fetched with a `fetchBatchSize`: when the first fault
/// of a batch fires, the whole batch loads in one store request. Batches are forgotten
/// once loaded.
///
/// A store may send a small fetch's rows with its IDs (one round trip instead of two): the
/// rows wait here, as Core Data's row cache holds them, until their faults fire. A merge or
/// a refresh of an object drops its row, so that its fault reads the store again.
struct FaultBatches {
    private final class Batch {
        let ids: [ManagedObjectID]
        init(_ ids: [ManagedObjectID]) { self.ids = ids }
    }

    private var batches: [ManagedObjectID: Batch] = [:]
    private var rows: [ManagedObjectID: StoredRow] = [:]
    /// The most rows kept for faults not yet fired; beyond it they are dropped (a fault then
    /// reads its store), so that results never read do not pile up.
    static let mostKeptRows = 10_000

    /// Remembers fetched faults in batches of `size`, in fetch order.
    mutating func register(_ ids: [ManagedObjectID], size: Int) {
        guard size > 0, !ids.isEmpty else { return }
        var start = 0
        while start < ids.count {
            let batch = Batch(Array(ids[start..<min(ids.count, start + size)]))
            for id in batch.ids { batches[id] = batch }
            start += size
        }
    }

    /// Keeps rows a fetch brought with its IDs, for their faults.
    mutating func keep<S: Sequence>(_ fetched: S) where S.Element == StoredRow {
        for row in fetched { rows[row.objectID] = row }
        if rows.count > Self.mostKeptRows { rows = [:] }
    }

    /// The batch an object was fetched in, removed so it loads once, with the rows kept for
    /// its members; `nil` when none.
    mutating func take(_ id: ManagedObjectID) -> (ids: [ManagedObjectID], rows: [ManagedObjectID: StoredRow])? {
        guard let batch = batches[id] else { return nil }
        var fetched: [ManagedObjectID: StoredRow] = [:]
        for member in batch.ids where batches[member] === batch {
            batches[member] = nil
            if !rows.isEmpty, let row = rows.removeValue(forKey: member) { fetched[member] = row }
        }
        return (batch.ids, fetched)
    }

    /// The row kept for one object, removed.
    mutating func takeRow(_ id: ManagedObjectID) -> StoredRow? {
        rows.isEmpty ? nil : rows.removeValue(forKey: id)
    }

    /// Drops the rows kept for objects that changed in the store since the fetch.
    mutating func forgetRows<S: Sequence>(of ids: S) where S.Element == ManagedObjectID {
        guard !rows.isEmpty else { return }
        for id in ids { rows[id] = nil }
    }
}
