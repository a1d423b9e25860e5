import Foundation
import Predicates

/// An object as a store keeps it: stored attribute values and relationship destinations
/// by name, with the row's version for optimistic locking.
public struct StoredRow: Sendable, Equatable {
    public var objectID: ManagedObjectID
    /// 1 when first saved, one more at each saved update.
    public var version: Int64
    /// Stored (non-transient) attribute values; a missing key is nil.
    public var attributes: [String: ObjectValue]
    /// To-one destinations; a missing key is nil.
    public var toOne: [String: ManagedObjectID]
    /// To-many destinations; atomic stores fill every to-many relationship, an
    /// incremental store may leave this empty and answer `relatedObjectIDs` instead.
    public var toMany: [String: [ManagedObjectID]]

    public init(objectID: ManagedObjectID, version: Int64 = 1, attributes: [String: ObjectValue] = [:],
                toOne: [String: ManagedObjectID] = [:], toMany: [String: [ManagedObjectID]] = [:]) {
        self.objectID = objectID
        self.version = version
        self.attributes = attributes
        self.toOne = toOne
        self.toMany = toMany
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

    public init(inserted: [StoredRow] = [], updated: [StoredRow] = [],
                deleted: [(objectID: ManagedObjectID, version: Int64)] = [], overwritesConflicts: Bool = false) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.overwritesConflicts = overwritesConflicts
    }

    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}

/// What a store reports back from a successful save.
public struct StoreSaveResult: Sendable {
    /// Permanent IDs for the inserted objects' temporary ones.
    public var permanentIDs: [ManagedObjectID: ManagedObjectID]
    /// New versions of inserted and updated objects, by permanent ID.
    public var versions: [ManagedObjectID: Int64]

    public init(permanentIDs: [ManagedObjectID: ManagedObjectID] = [:], versions: [ManagedObjectID: Int64] = [:]) {
        self.permanentIDs = permanentIDs
        self.versions = versions
    }
}

/// A row that changed in the store since the context read it.
public struct MergeConflict: Sendable, CustomStringConvertible {
    public var objectID: ManagedObjectID
    /// The version the context read.
    public var oldVersion: Int64
    /// The version now in the store; 0 when another save deleted the row.
    public var newVersion: Int64
    /// The row as it is now in the store, when it still exists.
    public var persisted: StoredRow?

    public init(objectID: ManagedObjectID, oldVersion: Int64, newVersion: Int64, persisted: StoredRow?) {
        self.objectID = objectID
        self.oldVersion = oldVersion
        self.newVersion = newVersion
        self.persisted = persisted
    }

    public var description: String {
        newVersion == 0
            ? "\(objectID.entityName) \(objectID) was deleted by another save"
            : "\(objectID.entityName) \(objectID) was changed by another save (version \(oldVersion) read, \(newVersion) stored)"
    }
}

/// A save that found rows changed by others since they were read.
public struct MergeConflictError: Error, CustomStringConvertible {
    public var conflicts: [MergeConflict]

    public init(conflicts: [MergeConflict]) { self.conflicts = conflicts }

    public var description: String {
        "could not save: \(conflicts.count) object(s) changed by another save:\n"
            + conflicts.map { "  " + $0.description }.joined(separator: "\n")
    }
}
