import Foundation
import GRDB
import SQLSyntax

extension SQLiteStore {
    /// Creates the indexes Core Data names after the model — fetch indexes (`Z_<Entity>_<name>`)
    /// and uniqueness constraints (`Z_<Entity>_UNIQUE_<property>_…`) — that an existing file
    /// lacks: a store made before the model had them, or by a program that did not create them.
    /// An index changes no row. A uniqueness constraint whose values the store already holds
    /// twice gets no index (`termdata check` names the objects). Making them is best effort: a
    /// file that cannot be written now, or another writer holding the lock, leaves the store
    /// as it was, and it opens all the same. A store opened read-only is left as it is.
    func createMissingModelIndexes() {
        let indexes = schema.tables.flatMap(\.indexes).filter { $0.ascending != nil }
        guard !indexes.isEmpty else { return }
        do {
            try database.inDatabase { db in
                // Only on tables the file has: a store opened while ignoring its versions may lack some.
                let names = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type IN ('table', 'index')"))
                let missing = indexes.filter { !names.contains($0.name) && names.contains($0.table) }
                guard !missing.isEmpty else { return }
                try db.inTransaction(.immediate) {
                    for index in missing {
                        // One the file cannot take — a unique index over values it holds twice, a
                        // column another version of the model lacks — is left out; the rest are made.
                        try? db.execute(sql: index.creation(ifNotExists: true).sqlite)
                    }
                    return .commit
                }
            }
        } catch {
            // The next open to write tries again.
        }
    }
}
