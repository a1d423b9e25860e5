import Foundation
import ObjectGraph

/// What changed in a controller's arranged objects, as row indexes, so a table redraws
/// only those rows.
///
/// `deleted` are indexes in the old arrangement; `inserted`, `updated` and the `to` of
/// `moved` are indexes in the new one.
public struct ArrangedChanges: Equatable, Sendable {
    /// Rows of the new arrangement that hold objects not arranged before.
    public var inserted: IndexSet = []
    /// Rows of the old arrangement whose objects are no longer arranged.
    public var deleted: IndexSet = []
    /// Objects arranged before and after that changed place; those on a longest run kept in order
    /// are not listed.
    public var moved: [Move] = []
    /// Rows of the new arrangement whose objects stayed but changed.
    public var updated: IndexSet = []
    /// Whether the selection changed.
    public var selectionChanged = false
    /// Whether everything should be redrawn (a refetch, a new sort over a large store).
    public var reloaded = false

    /// An object that moved: its row in the old arrangement and its row in the new one.
    public struct Move: Equatable, Sendable {
        /// The object's row in the old arrangement.
        public var from: Int
        /// The object's row in the new arrangement.
        public var to: Int
        /// A move from a row of the old arrangement to a row of the new one.
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// Changes from their parts; each defaults to none.
    public init(inserted: IndexSet = [], deleted: IndexSet = [], moved: [Move] = [], updated: IndexSet = [],
                selectionChanged: Bool = false, reloaded: Bool = false) {
        self.inserted = inserted
        self.deleted = deleted
        self.moved = moved
        self.updated = updated
        self.selectionChanged = selectionChanged
        self.reloaded = reloaded
    }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        inserted.isEmpty && deleted.isEmpty && moved.isEmpty && updated.isEmpty && !selectionChanged && !reloaded
    }

    /// The changes that turn `old` into `new`; `changed` objects present in both are `updated`.
    ///
    /// Moves are the fewest that explain the new order: the objects on a longest run kept
    /// in relative order stay, the others move.
    public static func difference(from old: [ManagedObject], to new: [ManagedObject],
                                  changed: Set<ManagedObject> = []) -> ArrangedChanges {
        var changes = ArrangedChanges()
        var oldIndex: [ObjectIdentifier: Int] = [:]
        for (i, o) in old.enumerated() { oldIndex[ObjectIdentifier(o)] = i }
        var newIndex: [ObjectIdentifier: Int] = [:]
        for (i, o) in new.enumerated() { newIndex[ObjectIdentifier(o)] = i }
        for (i, o) in old.enumerated() where newIndex[ObjectIdentifier(o)] == nil { changes.deleted.insert(i) }
        // Common objects in new order, with their old positions.
        var common: [(new: Int, old: Int)] = []
        for (i, o) in new.enumerated() {
            if let j = oldIndex[ObjectIdentifier(o)] { common.append((i, j)) } else { changes.inserted.insert(i) }
        }
        let stay = longestIncreasingRun(common.map(\.old))
        for (k, pair) in common.enumerated() where !stay.contains(k) {
            changes.moved.append(Move(from: pair.old, to: pair.new))
        }
        for (i, o) in new.enumerated() where changed.contains(o) && oldIndex[ObjectIdentifier(o)] != nil {
            changes.updated.insert(i)
        }
        return changes
    }

    /// Positions (in `values`) of one longest strictly increasing subsequence.
    private static func longestIncreasingRun(_ values: [Int]) -> Set<Int> {
        var tails: [Int] = []          // index into values of the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (i, v) in values.enumerated() {
            var lo = 0, hi = tails.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if values[tails[mid]] < v { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0 { previous[i] = tails[lo - 1] }
            if lo == tails.count { tails.append(i) } else { tails[lo] = i }
        }
        var run = Set<Int>()
        var k = tails.last ?? -1
        while k >= 0 {
            run.insert(k)
            k = previous[k]
        }
        return run
    }
}

/// A registered observer of a controller; `cancel()` stops it.
public final class BindingObservation {
    private var onCancel: (() -> Void)?

    init(_ onCancel: @escaping () -> Void) { self.onCancel = onCancel }

    /// Stops the observation: the handler is not called again. Calling it twice does nothing more.
    public func cancel() {
        onCancel?()
        onCancel = nil
    }

    deinit { onCancel?() }
}
