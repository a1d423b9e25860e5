import Foundation
import ObjectModel
import Predicates

/// An object as a store keeps it: stored attribute values and relationship destinations
/// by name, with the row's version for optimistic locking.
///
/// A row made by a context or read by the SQLite store holds its values in the order of
/// its entity's attributes (`init(objectID:version:entity:values:)`), so the hot paths
/// of saving and faulting move values without building a dictionary per object;
/// `attributes` gives them by name either way.
public struct StoredRow: Sendable, Equatable {
    /// The ID of the object the row holds.
    public var objectID: ManagedObjectID
    /// 1 when first saved, one more at each saved update.
    public var version: Int64
    /// To-one destinations; a missing key is nil.
    public var toOne: [String: ManagedObjectID]
    /// To-many destinations; atomic stores fill every to-many relationship, an
    /// incremental store may leave this empty and answer `relatedObjectIDs` instead.
    public var toMany: [String: [ManagedObjectID]]
    private var storage: Storage

    private enum Storage: Sendable {
        case named([String: ObjectValue])
        /// Every attribute of the entity, in order; transient ones are not part of the row.
        case positional(Entity, [ObjectValue])
    }

    /// A row with its attribute values by name (a missing key is `nil`) and its relationship
    /// destinations.
    public init(objectID: ManagedObjectID, version: Int64 = 1, attributes: [String: ObjectValue] = [:],
                toOne: [String: ManagedObjectID] = [:], toMany: [String: [ManagedObjectID]] = [:]) {
        self.objectID = objectID
        self.version = version
        self.storage = .named(attributes)
        self.toOne = toOne
        self.toMany = toMany
    }

    /// A row with a value for each of `entity.attributes`, in order (`.null` for none).
    public init(objectID: ManagedObjectID, version: Int64 = 1, entity: Entity, values: [ObjectValue],
                toOne: [String: ManagedObjectID] = [:], toMany: [String: [ManagedObjectID]] = [:]) {
        precondition(values.count == entity.attributes.count, "a row of \(entity.name) needs \(entity.attributes.count) values")
        self.objectID = objectID
        self.version = version
        self.storage = .positional(entity, values)
        self.toOne = toOne
        self.toMany = toMany
    }

    /// Stored (non-transient) attribute values; a missing key is nil.
    public var attributes: [String: ObjectValue] {
        get {
            switch storage {
            case .named(let values):
                return values
            case .positional(let entity, let values):
                var named: [String: ObjectValue] = [:]
                for (i, traits) in entity.attributeTraits.enumerated() where !traits.isTransient && !values[i].isNull {
                    named[entity.attributes[i].name] = values[i]
                }
                return named
            }
        }
        set { storage = .named(newValue) }
    }

    /// The values in the order of `entity.attributes`, when the row holds them that way for
    /// this very entity; `nil` otherwise (read `attributes`).
    public func values(inOrderOf entity: Entity) -> [ObjectValue]? {
        if case .positional(let own, let values) = storage, own === entity { return values }
        return nil
    }

    /// Whether two rows hold the same object, version, attribute values and destinations, however
    /// their values are kept.
    public static func == (lhs: StoredRow, rhs: StoredRow) -> Bool {
        lhs.objectID == rhs.objectID && lhs.version == rhs.version && lhs.toOne == rhs.toOne
            && lhs.toMany == rhs.toMany && lhs.attributes == rhs.attributes
    }
}

/// What a save asks a store to write, in one transaction.
public struct StoreChanges: Sendable {
    /// New objects, with temporary IDs; references between them use those IDs.
    public var inserted: [StoredRow]
    /// Changed objects with all their values; `version` is the version the context read.
    public var updated: [StoredRow]
    /// Deleted objects with the version the context read.
    public var deleted: [(objectID: ManagedObjectID, version: Int64)]
    /// Whether stale versions are overwritten instead of reported as conflicts.
    public var overwritesConflicts: Bool
    /// Who writes: what a store that keeps history records with the transaction.
    public var transaction = TransactionInfo()

    /// Changes to write; by default none, with conflicts reported rather than overwritten.
    public init(inserted: [StoredRow] = [], updated: [StoredRow] = [],
                deleted: [(objectID: ManagedObjectID, version: Int64)] = [], overwritesConflicts: Bool = false) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.overwritesConflicts = overwritesConflicts
    }

    /// Whether there is nothing to insert, update or delete.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}

/// What a store reports back from a successful save.
public struct StoreSaveResult: Sendable {
    /// The permanent ID of each inserted row, in the order of `StoreChanges.inserted`.
    public var insertedIDs: [ManagedObjectID]
    /// New versions of updated objects, by ID; an inserted row's version is 1.
    public var versions: [ManagedObjectID: Int64]
    /// The history transaction the save recorded, when the store keeps history and the save
    /// changed anything it records.
    public var transactionNumber: Int64?

    /// A result from the inserted rows' permanent IDs and the updated objects' new versions;
    /// `transactionNumber` starts `nil`.
    public init(insertedIDs: [ManagedObjectID] = [], versions: [ManagedObjectID: Int64] = [:]) {
        self.insertedIDs = insertedIDs
        self.versions = versions
    }

    /// Permanent IDs by the temporary IDs of `changes`, the save this result answers.
    public func permanentIDs(for changes: StoreChanges) -> [ManagedObjectID: ManagedObjectID] {
        var ids: [ManagedObjectID: ManagedObjectID] = [:]
        ids.reserveCapacity(insertedIDs.count)
        for (row, id) in zip(changes.inserted, insertedIDs) { ids[row.objectID] = id }
        return ids
    }
}

/// A row that changed in the store since the context read it.
public struct MergeConflict: Sendable, CustomStringConvertible {
    /// The object whose row changed.
    public var objectID: ManagedObjectID
    /// The version the context read.
    public var oldVersion: Int64
    /// The version now in the store; 0 when another save deleted the row.
    public var newVersion: Int64
    /// The row as it is now in the store, when it still exists.
    public var persisted: StoredRow?

    /// A conflict from the object, the version the context read, the version stored (0 if deleted)
    /// and the stored row.
    public init(objectID: ManagedObjectID, oldVersion: Int64, newVersion: Int64, persisted: StoredRow?) {
        self.objectID = objectID
        self.oldVersion = oldVersion
        self.newVersion = newVersion
        self.persisted = persisted
    }

    /// The conflict in words: the object, and whether another save changed (with both versions) or
    /// deleted it.
    public var description: String {
        newVersion == 0
            ? "\(objectID.entityName) \(objectID) was deleted by another save"
            : "\(objectID.entityName) \(objectID) was changed by another save (version \(oldVersion) read, \(newVersion) stored)"
    }
}

/// A save that found rows changed by others since they were read.
public struct MergeConflictError: Error, CustomStringConvertible {
    /// Every row the save found changed or deleted by others.
    public var conflicts: [MergeConflict]

    /// An error reporting the conflicts a save found.
    public init(conflicts: [MergeConflict]) { self.conflicts = conflicts }

    /// The error in words: how many objects changed, then one conflict a line.
    public var description: String {
        "could not save: \(conflicts.count) object(s) changed by another save:\n"
            + conflicts.map { "  " + $0.description }.joined(separator: "\n")
    }
}
