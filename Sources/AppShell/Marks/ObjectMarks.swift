import Foundation
import ObjectGraph

/// The objects a user marked to act on together: kept by object ID, so that a mark stays
/// with its object while rows are sorted, filtered and scrolled, and costs nothing per row.
///
/// ```swift
/// marks.toggle(item.objectID)
/// marks.mark(try items.arrangedObjectIDs())     // every row the filter shows
/// ```
package final class ObjectMarks {
    package private(set) var ids: Set<ManagedObjectID> = []
    /// Called after every change, to redraw and recount.
    package var onChange: (() -> Void)?
    /// How many marks make a delete large: told from the store and saved in the background.
    package var largeDelete = 1_000

    package init() {}

    package var count: Int { ids.count }
    package var isEmpty: Bool { ids.isEmpty }
    package func contains(_ id: ManagedObjectID) -> Bool { ids.contains(id) }

    package func toggle(_ id: ManagedObjectID) {
        if ids.remove(id) == nil { ids.insert(id) }
        onChange?()
    }

    /// Marks these objects too.
    package func mark(_ more: [ManagedObjectID]) {
        ids.formUnion(more)
        onChange?()
    }

    /// Among these objects, marks those that are not marked and unmarks those that are.
    package func invert(among shown: [ManagedObjectID]) {
        ids.formSymmetricDifference(Set(shown))
        onChange?()
    }

    package func clear() {
        guard !ids.isEmpty else { return }
        ids = []
        onChange?()
    }

    /// Forgets the marks of objects that are gone (deleted, or discarded by an undo).
    package func forget(_ gone: some Sequence<ManagedObjectID>) {
        let before = ids.count
        ids.subtract(gone)
        if ids.count != before { onChange?() }
    }

    /// The marked objects as the context holds them, those that still exist; a mark of one
    /// that is gone is forgotten.
    package func objects(in context: ManagedObjectContext) -> [ManagedObject] {
        var found: [ManagedObject] = [], gone: [ManagedObjectID] = []
        for id in ids {
            if let object = try? context.existingObject(with: id), !object.isDeleted { found.append(object) } else { gone.append(id) }
        }
        forget(gone)
        return found
    }

    /// "3 marked", for a status bar; nil without marks.
    package var statusText: String? { ids.isEmpty ? nil : "\(ids.count.formatted()) marked" }
}
