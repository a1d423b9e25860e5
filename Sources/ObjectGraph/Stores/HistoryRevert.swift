import Foundation
import Predicates

/// What taking one transaction back writes: each object it changed set back as it was, in a
/// new transaction of its own — objects it inserted removed, values it changed restored,
/// objects it deleted made again under their old IDs. Made by
/// `PersistentStoreCoordinator.planRevert(of:)`, written by `revert(_:)`, all or nothing.
///
/// A value a later transaction changed again is not taken back from under it: the plan
/// lists such changes as `conflicts`, and `revert(_:)` refuses while there are any.
public struct HistoryRevert: Sendable {
    /// The transaction taken back.
    public var transaction: HistoryTransaction
    /// What the revert writes, an object at a time, in the transaction's order.
    public var steps: [Step]
    /// Later changes that stand in the way.
    public var conflicts: [Conflict]
    /// The rows to write.
    var changes: StoreChanges

    /// One object set back.
    public struct Step: Sendable {
        /// What a step does to its object: `remove` one the transaction inserted, `restore` the
        /// values it changed, or `recreate` one it deleted, under its old ID.
        public enum Kind: Sendable {
            /// Removes an object the transaction inserted.
            case remove
            /// Restores the values the transaction changed.
            case restore
            /// Makes again, under its old ID, an object the transaction deleted.
            case recreate
        }
        /// Whether the object is removed, has values restored, or is made again.
        public var kind: Kind
        /// The object set back.
        public var objectID: ManagedObjectID
        /// For `restore`, each changed property: its value now and the value it gets back;
        /// for `recreate`, the values it gets back (now `.null`). To-many relationships list
        /// their members as `.array` of IDs.
        public var values: [(key: String, now: ObjectValue, restored: ObjectValue)]

        /// The step in words — `restore Book 3: title “Dune Messiah” → “Dune”` — with objects
        /// named by `name` and values written by `value`.
        public func text(name: (ManagedObjectID) -> String, value: (ObjectValue) -> String) -> String {
            switch kind {
            case .remove:
                return "remove \(name(objectID)) (it inserted it)"
            case .restore:
                return "restore \(name(objectID)): " + values.map { "\($0.key) \(value($0.now)) → \(value($0.restored))" }.joined(separator: "; ")
            case .recreate:
                return "make again \(name(objectID)): " + values.map { "\($0.key)=\(value($0.restored))" }.joined(separator: ", ")
            }
        }
    }

    /// A later transaction that changed what the revert would set back.
    public struct Conflict: Sendable, CustomStringConvertible {
        /// The object the later transaction changed.
        public var objectID: ManagedObjectID
        /// The properties both changed; empty when the later one inserted or deleted the object.
        public var keys: [String]
        /// The later transaction that changed the object.
        public var later: HistoryTransaction
        /// What the later transaction did to the object: inserted, updated or deleted it.
        public var laterChange: HistoryChangeType

        /// The conflict in words: the object, the later transaction (with its author and context
        /// name), and what it did.
        public var description: String {
            let who = [later.author, later.contextName].compactMap { $0 }.joined(separator: ", ")
            let what: String
            switch laterChange {
            case .delete: what = "deleted it"
            case .insert: what = "inserted it"
            case .update: what = keys.isEmpty ? "changed what refers to it" : "changed " + keys.joined(separator: ", ")
            }
            return "\(objectID.entityName) \(objectID.primaryKey.map(String.init) ?? objectID.description): transaction "
                + "\(later.transactionNumber)\(who.isEmpty ? "" : " (\(who))") \(what) after"
        }
    }
}

/// Why a transaction cannot be taken back.
public enum HistoryRevertError: Error, Sendable, CustomStringConvertible {
    /// The store's history has no transaction of that number (never, or trimmed since).
    case noTransaction(Int64)
    /// The store did not keep the values the transaction replaced: Core Data recorded it,
    /// or it came before the store kept them.
    case valuesNotKept(Int64)
    /// Later transactions changed what the revert would set back.
    case conflicts(Int64, [HistoryRevert.Conflict])
    /// An object the revert would make again refers to one that is gone.
    case missingDestination(ManagedObjectID, key: String, destination: ManagedObjectID)

    /// The reason in words, one conflict a line for `conflicts`.
    public var description: String {
        switch self {
        case .noTransaction(let n):
            return "the history has no transaction \(n) (it may have been deleted)"
        case .valuesNotKept(let n):
            return "the store did not keep the values transaction \(n) replaced (Core Data recorded it, or it came before the store kept them), so it cannot be taken back"
        case .conflicts(let n, let conflicts):
            return "transaction \(n) cannot be taken back: later transactions changed the same values\n"
                + conflicts.map { "  " + $0.description }.joined(separator: "\n")
        case .missingDestination(let id, let key, let destination):
            return "\(id.entityName) \(id.primaryKey.map(String.init) ?? "") cannot be made again: its \(key) was "
                + "\(destination.entityName) \(destination.primaryKey.map(String.init) ?? ""), which is no longer in the store"
        }
    }
}
