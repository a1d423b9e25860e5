import Foundation
import OrderedCollections
import ObjectModel
import Predicates

/// One thing the next save will write: an object inserted or deleted, or one changed key of
/// an updated object with its value at the last save and its value now.
///
/// ```swift
/// for change in context.unsavedChanges() where change.kind == .updated {
///     print(change.object.entity.name, change.key!, change.oldValue ?? "as saved", change.newValue!)
/// }
/// try context.revert(changes[0])      // one change taken back, the rest still to save
/// ```
public struct UnsavedChange {
    /// What the change does: `inserted` a new object, `updated` one key of a saved object, or
    /// `deleted` a saved object.
    public enum Kind: Sendable, Hashable {
        /// A new object, inserted since the last save.
        case inserted
        /// One key of a saved object, changed since the last save.
        case updated
        /// A saved object, deleted since the last save.
        case deleted
    }

    /// Whether an object is inserted, updated (one key of it) or deleted.
    public let kind: Kind
    /// The object the change is to.
    public let object: ManagedObject
    /// The changed key of an update; nil for an inserted or deleted object.
    public let key: String?
    /// An update's value at the last save: nil for a to-many relationship not read before it
    /// changed (its saved members are the store's), and for an inserted or deleted object.
    public let oldValue: ObjectValue?
    /// An update's value now (a to-many's members as an array); nil for an inserted or
    /// deleted object, whose values are the object's.
    public let newValue: ObjectValue?
}

extension ManagedObjectContext {
    /// What the next save will write, after the delete rules have run: inserted objects, then
    /// each changed key of the updated ones (in the entity's order of properties), then the
    /// deleted objects — each group in the order its changes were made.
    public func unsavedChanges() -> [UnsavedChange] {
        checkQueue()
        processPendingChanges()
        var changes: [UnsavedChange] = inserted.map { UnsavedChange(kind: .inserted, object: $0, key: nil, oldValue: nil, newValue: nil) }
        for object in updated {
            let changed = object.changedKeys
            let keys = object.entity.attributes.map(\.name).filter(changed.contains)
                + object.entity.relationships.map(\.name).filter(changed.contains)
            for key in keys {
                changes.append(UnsavedChange(kind: .updated, object: object, key: key, oldValue: object.originalValue(forKey: key),
                                             newValue: (try? object.value(forKey: key)) ?? .null))
            }
        }
        changes += deleted.map { UnsavedChange(kind: .deleted, object: $0, key: nil, oldValue: nil, newValue: nil) }
        return changes
    }

    /// Takes one unsaved change back, leaving the others to save: an inserted object is
    /// discarded (its delete rules run as for any delete), a changed key gets its saved value
    /// again (a relationship's inverse follows), and a deleted object stays, with what its
    /// delete rules cleared put back where the objects concerned are still there. Recorded
    /// for undo like any change.
    ///
    /// - Throws: `ObjectGraphError.objectNotInContext` for a change no longer pending (an
    ///   object saved, or taken back, since the list was made).
    public func revert(_ change: UnsavedChange) throws {
        checkQueue()
        processPendingChanges()
        let object = change.object
        guard object.managedObjectContext === self else {
            throw ObjectGraphError.objectNotInContext(entity: object.entity.name, objectID: object.objectID.description)
        }
        switch change.kind {
        case .inserted:
            guard object.status == .inserted else { return }
            delete(object)
        case .updated:
            guard let key = change.key, object.status == .clean, object.changedKeys.contains(key) else { return }
            try object.setObjectValue(try savedValue(of: object, forKey: key), forKey: key)
        case .deleted:
            guard object.status == .deleted else { return }
            try restoreDeleted(object)
        }
        processPendingChanges()
    }

    /// An updated key's value at the last save; a to-many relationship not read before it
    /// changed asks the store (or the parent context) for its members.
    private func savedValue(of object: ManagedObject, forKey key: String) throws -> ObjectValue {
        if let value = object.originalValue(forKey: key) { return value }
        guard let relationship = object.entity.relationship(named: key) else { return .null }
        return .array(try relatedObjectIDs(of: object, relationship: relationship).map { .object(self.object(with: $0)) })
    }

    /// A deleted object back as it was saved: its status first (so that undo takes the
    /// relationships away again before deleting it), then every relationship its delete rules
    /// cleared, to the objects that are not deleted themselves.
    private func restoreDeleted(_ object: ManagedObject) throws {
        var saved: [(index: Int, members: [ManagedObject])] = []
        for (i, relationship) in object.entity.relationships.enumerated() {
            let members: [ManagedObject]
            switch object.originals[relationship.name] {
            case .toOne(let destination)?: members = destination.map { [$0] } ?? []
            case .toMany(let old?)?: members = Array(old)
            case .toMany(nil)?: members = try relatedObjectIDs(of: object, relationship: relationship).map { self.object(with: $0) }
            case .attribute?, nil: continue
            }
            saved.append((i, members.filter { $0.status == .clean || $0.status == .inserted }))
        }
        record(.status(object, from: .deleted, to: .clean))
        restoreStatus(object, to: .clean)
        for (i, members) in saved {
            if object.entity.relationships[i].isToMany {
                try replaceToMany(of: object, index: i, with: OrderedSet(members))
            } else {
                try setToOne(of: object, index: i, to: members.first)
            }
        }
    }
}

extension ManagedObject {
    /// A changed key's value at the last save: an attribute's value, a to-one's destination
    /// (or `.null`), a to-many's members as an array; nil when the key is unchanged or its
    /// saved members were never read.
    func originalValue(forKey key: String) -> ObjectValue? {
        switch originals[key] {
        case .attribute(let value)?: return value
        case .toOne(let destination)?: return destination.map { .object($0) } ?? .null
        case .toMany(let members?)?: return .array(members.map { .object($0) })
        case .toMany(nil)?, nil: return nil
        }
    }

    /// Whether `key` holds a value not yet saved: any key of an inserted object, a changed
    /// key of an updated one.
    public func hasUnsavedValue(forKey key: String) -> Bool {
        status == .inserted || (status == .clean && changedKeys.contains(key))
    }
}
