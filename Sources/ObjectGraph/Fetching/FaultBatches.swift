import Foundation

/// The batches of objects a context fetched with a `fetchBatchSize`: when the first fault
/// of a batch fires, the whole batch loads in one store request. Batches are forgotten
/// once loaded.
struct FaultBatches {
    private final class Batch {
        let ids: [ManagedObjectID]
        init(_ ids: [ManagedObjectID]) { self.ids = ids }
    }

    private var batches: [ManagedObjectID: Batch] = [:]

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

    /// The batch an object was fetched in, removed so it loads once; `nil` when none.
    mutating func take(_ id: ManagedObjectID) -> [ManagedObjectID]? {
        guard let batch = batches[id] else { return nil }
        for member in batch.ids where batches[member] === batch { batches[member] = nil }
        return batch.ids
    }
}
