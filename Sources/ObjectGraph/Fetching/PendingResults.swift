import Foundation

/// What a context tells the fetched results whose objects are still to be made
/// (`FetchedObjects`), so that a result read late gives what an array filled at the fetch
/// would hold: the objects whose deletion was saved or merged since, and every object once
/// the context was reset, are no longer the context's.
///
/// The deleted IDs are kept only while such results exist.
struct PendingResults {
    /// How many results still have objects to make.
    private(set) var alive = 0
    /// How many times the context was reset; a result made before a reset makes nothing live.
    private(set) var resets = 0
    /// IDs whose objects' deletion was saved or merged while results were alive.
    private(set) var forgotten: Set<ManagedObjectID> = []

    mutating func resultCreated() { alive += 1 }

    mutating func resultFinished() {
        alive -= 1
        if alive == 0 { forgotten = [] }
    }

    mutating func forget<S: Sequence>(_ ids: S) where S.Element == ManagedObjectID {
        guard alive > 0 else { return }
        forgotten.formUnion(ids)
    }

    mutating func reset() {
        resets += 1
        forgotten = []
    }

    /// Whether a result made at `resets` may make a live object for `id`.
    func allowsObject(for id: ManagedObjectID, madeAt resets: Int) -> Bool {
        resets == self.resets && (forgotten.isEmpty || !forgotten.contains(id))
    }
}
