import Foundation

/// The batches of objects fetched with a `fetchBatchSize`: when the first fault of a batch
/// fires, the whole batch loads in one store request.
///
/// Batches are kept per context (weakly) and forgotten once loaded.
final class FaultBatches: @unchecked Sendable {
    static let shared = FaultBatches()

    private final class Batch {
        let ids: [ManagedObjectID]
        init(_ ids: [ManagedObjectID]) { self.ids = ids }
    }

    private struct Entry {
        weak var context: ManagedObjectContext?
        var batches: [ManagedObjectID: Batch] = [:]
    }

    private let lock = NSLock()
    private var entries: [ObjectIdentifier: Entry] = [:]

    /// Remembers fetched faults in batches of `size`, in fetch order.
    func register(_ ids: [ManagedObjectID], size: Int, in context: ManagedObjectContext) {
        guard size > 0, !ids.isEmpty else { return }
        lock.lock()
        defer { lock.unlock() }
        let key = ObjectIdentifier(context)
        var entry = entries[key]
        if entry?.context !== context { entry = Entry(context: context) }
        var start = 0
        while start < ids.count {
            let batch = Batch(Array(ids[start..<min(ids.count, start + size)]))
            for id in batch.ids { entry!.batches[id] = batch }
            start += size
        }
        entries[key] = entry
        entries = entries.filter { $0.value.context != nil }
    }

    /// The batch an object was fetched in, removed so it loads once; `nil` when none.
    func take(_ id: ManagedObjectID, of context: ManagedObjectContext) -> [ManagedObjectID]? {
        lock.lock()
        defer { lock.unlock() }
        let key = ObjectIdentifier(context)
        guard var entry = entries[key], entry.context === context, let batch = entry.batches[id] else { return nil }
        for member in batch.ids where entry.batches[member] === batch { entry.batches[member] = nil }
        entries[key] = entry.batches.isEmpty ? nil : entry
        return batch.ids
    }
}
