import Foundation
import ObjectModel
import Predicates

extension PersistentStoreCoordinator {
    // MARK: Taking a transaction back

    /// What taking back the transaction `token` names (one store's transaction number) would
    /// write, and the later changes that stand in the way. Reads only.
    ///
    /// ```swift
    /// let plan = try coordinator.planRevert(of: HistoryToken(text: "42", storeIdentifiers: ids)!)
    /// if plan.conflicts.isEmpty { try coordinator.revert(plan) }
    /// ```
    public func planRevert(of token: HistoryToken) throws -> HistoryRevert {
        guard token.transactionNumbers.count == 1, let (storeID, number) = token.transactionNumbers.first,
              let store = stores.first(where: { $0.identifier == storeID }) as? any HistoryTrackingStore else {
            throw ObjectGraphError.unknownStore(token.description)
        }
        return try reading(store) {
            let from = HistoryToken([storeID: number - 1])
            guard let transaction = try store.fetchHistory(HistoryRequest(after: from, fetchLimit: 1)).first,
                  transaction.transactionNumber == number else { throw HistoryRevertError.noTransaction(number) }
            let later = try store.fetchHistory(HistoryRequest(after: token))
            return try RevertPlanner(store: store, model: model, transaction: transaction, later: later).plan()
        }
    }

    /// Takes a transaction back as `plan` says, in one new transaction of the store's
    /// history (by `author`); refuses a plan with conflicts. Returns the new transaction's
    /// number. A store changed since the plan was made refuses it with `MergeConflictError`,
    /// and is left as it was.
    @discardableResult
    public func revert(_ plan: HistoryRevert, author: String = "termdata revert") throws -> Int64? {
        guard plan.conflicts.isEmpty else { throw HistoryRevertError.conflicts(plan.transaction.transactionNumber, plan.conflicts) }
        guard let store = stores.first(where: { $0.identifier == plan.transaction.storeIdentifier }) else {
            throw ObjectGraphError.unknownStore(plan.transaction.storeIdentifier)
        }
        var changes = plan.changes
        changes.transaction = TransactionInfo(author: author, contextName: "revert of transaction \(plan.transaction.transactionNumber)")
        let result = try locked { try store.save(changes) }
        return result.transactionNumber
    }
}

/// Works out a revert: the rows to write and the later changes in the way.
private struct RevertPlanner {
    let store: any PersistentStore
    let model: ManagedObjectModel
    let transaction: HistoryTransaction
    let later: [HistoryTransaction]

    func plan() throws -> HistoryRevert {
        let mine = Dictionary(transaction.changes.map { ($0.changedObjectID, $0) }, uniquingKeysWith: { first, _ in first })
        let inserted = Set(transaction.changes.filter { $0.changeType == .insert }.map(\.changedObjectID))
        let recreated = Set(transaction.changes.filter { $0.changeType == .delete }.map(\.changedObjectID))
        var conflicts: [HistoryRevert.Conflict] = []

        // Later changes to the same objects: an insert taken back must not have been touched
        // since; an update's keys must not have changed again.
        for next in later {
            for change in next.changes {
                guard let own = mine[change.changedObjectID] else { continue }
                switch own.changeType {
                case .insert:
                    conflicts.append(.init(objectID: change.changedObjectID, keys: change.updatedProperties?.sorted() ?? [],
                                           later: next, laterChange: change.changeType))
                case .update:
                    let keys = (own.updatedProperties ?? []).intersection(change.updatedProperties ?? [])
                    if change.changeType == .delete || !keys.isEmpty {
                        conflicts.append(.init(objectID: change.changedObjectID, keys: keys.sorted(), later: next, laterChange: change.changeType))
                    }
                case .delete:
                    break
                }
            }
        }

        var steps: [HistoryRevert.Step] = []
        var changes = StoreChanges()
        for change in transaction.changes {
            let id = change.changedObjectID
            guard let entity = model.entity(named: id.entityName) else { continue }
            switch change.changeType {
            case .insert:
                guard let row = try store.row(for: id) else { continue }   // deleted since: a conflict says so
                // What refers to it now must be going too, or have come to it in this transaction.
                for relationship in entity.relationships {
                    guard let inverse = relationship.inverseName else { continue }
                    for other in try destinations(of: row, relationship) where !inserted.contains(other)
                        && mine[other]?.updatedProperties?.contains(inverse) != true {
                        // It came to refer to the object after this transaction.
                        if let since = later.last(where: { $0.changes.contains { $0.changedObjectID == other } }) {
                            conflicts.append(.init(objectID: other, keys: [inverse], later: since, laterChange: .update))
                        }
                    }
                }
                changes.deleted.append((id, row.version))
                steps.append(.init(kind: .remove, objectID: id, values: []))
            case .update:
                guard let previous = change.previousValues else { throw HistoryRevertError.valuesNotKept(transaction.transactionNumber) }
                guard var row = try store.row(for: id) else { continue }
                var values: [(key: String, now: ObjectValue, restored: ObjectValue)] = []
                for (key, value) in previous.sorted(by: { $0.key < $1.key }) {
                    if let relationship = entity.relationship(named: key) {
                        guard !relationship.isToMany else { continue }
                        values.append((key, row.toOne[key].map { .object($0) } ?? .null, value))
                        row.toOne[key] = value.objectID
                    } else {
                        values.append((key, row.attributes[key] ?? .null, value))
                        row.attributes[key] = value.isNull ? nil : value
                    }
                }
                for name in Set(change.joined.keys).union(change.left.keys).sorted() {
                    guard let relationship = entity.relationship(named: name) else { continue }
                    let now = try store.relatedObjectIDs(of: id, relationship: relationship)
                    let joined = Set(change.joined[name] ?? [])
                    let restored = now.filter { !joined.contains($0) } + (change.left[name] ?? []).filter { !now.contains($0) }
                    values.append((name, .array(now.map { .object($0) }), .array(restored.map { .object($0) })))
                    row.toMany[name] = restored
                }
                for key in row.toMany.keys where change.joined[key] == nil && change.left[key] == nil { row.toMany[key] = nil }
                changes.updated.append(row)
                steps.append(.init(kind: .restore, objectID: id, values: values))
            case .delete:
                guard let previous = change.previousValues else { throw HistoryRevertError.valuesNotKept(transaction.transactionNumber) }
                var attributes: [String: ObjectValue] = [:]
                var toOne: [String: ManagedObjectID] = [:]
                var values: [(key: String, now: ObjectValue, restored: ObjectValue)] = []
                for (key, value) in previous.sorted(by: { $0.key < $1.key }) where !value.isNull {
                    values.append((key, .null, value))
                    if entity.relationship(named: key) != nil {
                        guard let destination = value.objectID else { continue }
                        try requireExisting(destination, for: id, key: key, recreated: recreated)
                        toOne[key] = destination
                    } else {
                        attributes[key] = value
                    }
                }
                var toMany: [String: [ManagedObjectID]] = [:]
                for (name, members) in change.left.sorted(by: { $0.key < $1.key }) {
                    for member in members { try requireExisting(member, for: id, key: name, recreated: recreated) }
                    toMany[name] = members
                    values.append((name, .null, .array(members.map { .object($0) })))
                }
                changes.inserted.append(StoredRow(objectID: id, attributes: attributes, toOne: toOne, toMany: toMany))
                steps.append(.init(kind: .recreate, objectID: id, values: values))
            }
        }
        return HistoryRevert(transaction: transaction, steps: steps, conflicts: conflicts, changes: changes)
    }

    /// The objects a relationship of a stored row leads to now.
    private func destinations(of row: StoredRow, _ relationship: RelationshipDescription) throws -> [ManagedObjectID] {
        if !relationship.isToMany { return row.toOne[relationship.name].map { [$0] } ?? [] }
        if let members = row.toMany[relationship.name] { return members }
        return try store.relatedObjectIDs(of: row.objectID, relationship: relationship)
    }

    /// Refuses to make an object again that would refer to one gone (unless the revert makes
    /// that one again too).
    private func requireExisting(_ destination: ManagedObjectID, for id: ManagedObjectID, key: String,
                                 recreated: Set<ManagedObjectID>) throws {
        if recreated.contains(destination) { return }
        if try store.row(for: destination) == nil {
            throw HistoryRevertError.missingDestination(id, key: key, destination: destination)
        }
    }
}
