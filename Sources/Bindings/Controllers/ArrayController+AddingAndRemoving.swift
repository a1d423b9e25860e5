import Foundation
import ObjectGraph
import ObjectModel
import Predicates

extension ArrayController {
    // MARK: Adding and removing

    /// Whether `add()` may insert an object: the controller is editable and, in relationship mode,
    /// has an owner.
    public var canAdd: Bool {
        guard isEditable else { return false }
        if case .relationship = mode { return owner != nil }
        return true
    }

    /// Whether `insert(atArrangedObjectIndex:)` may insert an object; the same as `canAdd`.
    public var canInsert: Bool { canAdd }
    /// Whether `removeSelection()` has something to remove: the controller is editable and
    /// something is selected.
    public var canRemove: Bool { isEditable && !selectionIndexes.isEmpty }

    /// Inserts a new object into the context, adds it to the content and (by default) selects it.
    ///
    /// - Returns: the new object, or `nil` when an editor refused to commit.
    @discardableResult
    public func add() throws -> ManagedObject? {
        try insert(atArrangedObjectIndex: nil)
    }

    /// Inserts a new object at an arranged index (where sorting allows).
    @discardableResult
    public func insert(atArrangedObjectIndex index: Int?) throws -> ManagedObject? {
        guard canAdd else { throw ControllerError.cannotAdd }
        guard commitEditing() else { return nil }
        if clearsFilterPredicateOnInsertion && filterPredicate != nil { filterPredicate = nil }
        let object = try context.insertObject(forEntityName: entityName)
        if case .relationship(_, let key) = mode, let owner {
            try owner.add(object, toRelationship: key)
        }
        if let lazy {
            context.processPendingChanges()
            if selectsInsertedObjects, let i = try? lazy.index(of: object) { selectionIndexes = [i] }
            notify(ArrangedChanges(selectionChanged: true, reloaded: true))
            return object
        }
        content.append(object)
        let old = arranged
        if sortDescriptors.isEmpty, let index, index <= arranged.count {
            arranged.insert(object, at: index)
        } else {
            arranged = arrange(content)
        }
        var changes = ArrangedChanges.difference(from: old, to: arranged)
        if selectsInsertedObjects, let i = arrangedIndex(of: object) {
            selectionIndexes = [i]
            changes.selectionChanged = true
        }
        notify(changes)
        return object
    }

    /// Whether removing objects deletes them (entity mode, or `deletesObjectsOnRemove`)
    /// rather than taking them out of the owner's relationship.
    public var removesByDeleting: Bool {
        if case .relationship = mode { return deletesObjectsOnRemove }
        return true
    }

    /// Removes the selected objects, as `remove(atArrangedObjectIndexes:)` removes them.
    ///
    /// - Throws: `ControllerError.notEditable` when the controller is not editable, or the
    ///   relationship's error when an object cannot be taken out of it.
    public func removeSelection() throws {
        try remove(atArrangedObjectIndexes: selectionIndexes)
    }

    /// Removes objects: deleting them from the context (entity mode, or when
    /// `deletesObjectsOnRemove`), or taking them out of the owner's relationship.
    public func remove(atArrangedObjectIndexes indexes: IndexSet) throws {
        guard isEditable else { throw ControllerError.notEditable }
        guard commitEditing() else { return }
        let objects = indexes.compactMap { arrangedObject(at: $0) }
        for object in objects {
            switch mode {
            case .entity:
                context.delete(object)
            case .relationship(_, let key):
                if deletesObjectsOnRemove { context.delete(object) } else { try owner?.remove(object, fromRelationship: key) }
            }
        }
        if lazy != nil {
            context.processPendingChanges()
            return
        }
        let gone = Set(objects)
        let old = arranged
        content.removeAll { gone.contains($0) }
        arranged.removeAll { gone.contains($0) }
        restoreSelection(old: old, changes: ArrangedChanges.difference(from: old, to: arranged))
    }
}
