import Foundation
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore

/// A SQLite store that counts how the context asks it for rows.
final class CountingStore: PersistentStore {
    let base: SQLiteStore
    private(set) var singleRowRequests = 0
    private(set) var batchRequests: [Int] = []

    init(_ base: SQLiteStore) { self.base = base }

    var identifier: String { base.identifier }
    var type: StoreType { base.type }
    var url: URL? { base.url }
    var configurationName: String? { base.configurationName }
    var metadata: StoreMetadata { base.metadata }
    var isReadOnly: Bool { base.isReadOnly }

    func execute(_ request: StoreRequest) throws -> StoreResult { try base.execute(request) }
    func needsMembers(ofRelationship name: String, entityName: String) -> Bool {
        base.needsMembers(ofRelationship: name, entityName: entityName)
    }
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
    func save(_ changes: StoreChanges) throws -> StoreSaveResult { try base.save(changes) }
    func obtainPermanentIDs(for entityNames: [String]) throws -> [ManagedObjectID] { try base.obtainPermanentIDs(for: entityNames) }
    func close() { base.close() }
    func copyStore(to url: URL) throws { try base.copyStore(to: url) }
}
