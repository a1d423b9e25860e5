import Foundation
import ObjectGraph
import ObjectModel
import Predicates
import PostgresStore

/// A PostgreSQL store that counts how the context asks it for rows, and can run another
/// client's work just before each of its saves.
final class InterferingStore: PersistentStore {
    let base: PostgresStore
    private(set) var singleRowRequests = 0
    private(set) var batchRequests: [Int] = []
    private(set) var saves = 0
    /// Runs before each save with the save's number (from 1).
    var beforeSave: (Int) throws -> Void = { _ in }

    init(_ base: PostgresStore) { self.base = base }

    var identifier: String { base.identifier }
    var type: StoreType { base.type }
    var url: URL? { base.url }
    var configurationName: String? { base.configurationName }
    var metadata: StoreMetadata { base.metadata }
    var isReadOnly: Bool { base.isReadOnly }
    var ordersTiesByKey: Bool { base.ordersTiesByKey }
    var faultBatchSize: Int { base.faultBatchSize }

    func execute(_ request: StoreRequest) throws -> StoreResult { try base.execute(request) }
    func row(for objectID: ManagedObjectID) throws -> StoredRow? {
        singleRowRequests += 1
        return try base.row(for: objectID)
    }
    func rows(for objectIDs: [ManagedObjectID]) throws -> [StoredRow] {
        batchRequests.append(objectIDs.count)
        return try base.rows(for: objectIDs)
    }
    func relatedObjectIDs(of objectID: ManagedObjectID, relationship: RelationshipDescription) throws -> [ManagedObjectID] {
        try base.relatedObjectIDs(of: objectID, relationship: relationship)
    }
    func save(_ changes: StoreChanges) throws -> StoreSaveResult {
        saves += 1
        try beforeSave(saves)
        return try base.save(changes)
    }
    func obtainPermanentIDs(for entityNames: [String]) throws -> [ManagedObjectID] { try base.obtainPermanentIDs(for: entityNames) }
    func close() { base.close() }
    func copyStore(to url: URL) throws { try base.copyStore(to: url) }
}
