import Foundation
import ObjectModel

/// A store that writes many new rows in one transaction, handed to it in parts, so that an
/// import of a million objects never holds them all: each part is written and let go, and
/// the whole is kept or, on any error, none of it.
public protocol BulkInsertingStore: PersistentStore {
    /// Writes new rows in one transaction. Keys for `counts` objects of each entity are
    /// taken first, in a row: the n-th object of an entity (from 0) is to be keyed
    /// `firstKeys[entity] + n`. `body` then hands over the rows, in parts, under permanent
    /// IDs with those keys, referring to one another by them; with history on, the
    /// transaction records them under `transaction` as one.
    ///
    /// - Returns: the history transaction recorded, if any.
    /// - Throws: `body`'s error or the store's; either way the store is as it was.
    func insertInOneTransaction(counts: [String: Int], transaction: TransactionInfo,
                                _ body: (_ firstKeys: [String: Int64], _ write: ([StoredRow]) throws -> Void) throws -> Void) throws -> Int64?
}

extension PersistentStoreCoordinator {
    /// The store that holds every one of these entities, when it writes rows in bulk
    /// (`BulkInsertingStore`); nil when they live in several stores or the store does not.
    public func bulkInsertingStore(for entityNames: some Sequence<String>) -> (any BulkInsertingStore)? {
        var found: (any PersistentStore)?
        for name in entityNames {
            guard let store = stores(forEntityName: name).first else { return nil }
            if let found, found !== store { return nil }
            found = store
        }
        return found as? any BulkInsertingStore
    }

    /// Runs `BulkInsertingStore.insertInOneTransaction` on a store of this coordinator, no
    /// other work reaching the store meanwhile.
    @discardableResult
    public func insertInOneTransaction(into store: any BulkInsertingStore, counts: [String: Int], transaction: TransactionInfo,
                                       _ body: (_ firstKeys: [String: Int64], _ write: ([StoredRow]) throws -> Void) throws -> Void) throws -> Int64? {
        try locked { try store.insertInOneTransaction(counts: counts, transaction: transaction, body) }
    }
}
