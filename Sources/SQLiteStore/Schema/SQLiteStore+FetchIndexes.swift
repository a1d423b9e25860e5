import Foundation
import GRDB
import ObjectGraph
import SQLSyntax

extension SQLiteStore {
    /// Creates the fetch indexes the model declares that an existing file lacks (`Z_<Entity>_<name>`,
    /// as Core Data names them): a store made before the model had them, or by a program that
    /// did not create them. An index changes no row; a store opened read-only is left as it is.
    func createMissingFetchIndexes(path: String) throws {
        let indexes = schema.tables.flatMap(\.indexes).filter { $0.ascending != nil }
        guard !indexes.isEmpty else { return }
        do {
            try database.inDatabase { db in
                let present = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'"))
                let missing = indexes.filter { !present.contains($0.name) }
                guard !missing.isEmpty else { return }
                try db.inTransaction(.immediate) {
                    for index in missing { try db.execute(sql: index.creation(ifNotExists: true).sqlite) }
                    return .commit
                }
            }
        } catch {
            throw ObjectGraphError.storeFormat(file: path, reason: "could not create the model's fetch indexes (\(Self.describe(error)))")
        }
    }
}
