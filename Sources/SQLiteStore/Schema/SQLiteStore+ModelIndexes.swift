import Foundation
import GRDB
import ObjectGraph
import SQLSyntax

extension SQLiteStore {
    /// Creates the indexes Core Data names after the model — fetch indexes (`Z_<Entity>_<name>`)
    /// and uniqueness constraints (`Z_<Entity>_UNIQUE_<property>_…`) — that an existing file
    /// lacks: a store made before the model had them, or by a program that did not create them.
    /// An index changes no row. A uniqueness constraint whose values the store already holds
    /// twice gets no index (`termdata check` names the objects); the store opens all the same.
    /// A store opened read-only is left as it is.
    func createMissingModelIndexes(path: String) throws {
        let indexes = schema.tables.flatMap(\.indexes).filter { $0.ascending != nil }
        guard !indexes.isEmpty else { return }
        do {
            try database.inDatabase { db in
                let present = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'"))
                let missing = indexes.filter { !present.contains($0.name) }
                guard !missing.isEmpty else { return }
                try db.inTransaction(.immediate) {
                    for index in missing {
                        do {
                            try db.execute(sql: index.creation(ifNotExists: true).sqlite)
                        } catch let error as DatabaseError where index.isUnique && error.resultCode == .SQLITE_CONSTRAINT {
                            continue
                        }
                    }
                    return .commit
                }
            }
        } catch {
            throw ObjectGraphError.storeFormat(file: path, reason: "could not create the model's indexes (\(Self.describe(error)))")
        }
    }
}
