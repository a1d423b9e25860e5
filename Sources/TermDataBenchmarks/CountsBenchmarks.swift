import Foundation
import GRDBSQLite
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import ToDoApp

/// The browser's value counts (`F`, `termdata query --group-by`) on the ToDo store of a
/// million items (`termdata-bench todo` builds it), against the same `GROUP BY` through the
/// sqlite3 C API reading the same rows: a boolean, a name through a to-one relationship
/// (a join), and a text of a million distinct values (the first 1,001 and a count).
///
/// `termdata-bench counts`; `TERMDATA_BENCH_ITEMS` changes the size, as for `todo`.
enum CountsBenchmarks {
    static func run() throws {
        try ToDoBenchmarks.buildStore()
        let url = ToDoBenchmarks.storeURL
        let versions = try ToDoStore.bundledVersions()
        let coordinator = PersistentStoreCoordinator(model: versions.current)
        var options = StoreOptions()
        options.readOnly = true
        try coordinator.addStore(type: .sqlite, at: url, options: options)
        let context = ManagedObjectContext(coordinator: coordinator)
        let raw = try RawSQLite(url)
        print("value counts over \(ToDoBenchmarks.items) items, best of nine runs each")
        print("work".padding(toLength: 44, withPad: " ", startingAt: 0) + "  store (s)   sqlite3 (s)   ratio")

        let cases: [(work: String, keyPath: String, sql: [String])] = [
            ("completed (2 values)", "completed",
             ["SELECT ZCOMPLETED, COUNT(*) FROM ZTODO GROUP BY ZCOMPLETED ORDER BY 2 DESC, 1 LIMIT 1001"]),
            ("category.name (a join, 3 values)", "category.name",
             ["SELECT c.ZNAME, COUNT(*) FROM ZTODO t LEFT JOIN ZCATEGORY c ON c.Z_PK = t.ZCATEGORY GROUP BY c.ZNAME ORDER BY 2 DESC, 1 LIMIT 1001"]),
            ("name (all distinct; 1,001 and a count)", "name",
             ["SELECT ZNAME, COUNT(*) FROM ZTODO GROUP BY ZNAME ORDER BY 2 DESC, 1 LIMIT 1001", "SELECT COUNT(*) FROM ZTODO"]),
        ]
        for item in cases {
            var listed = 0
            let (store, floor) = try SQLiteBenchmarks.interleaved(store: {
                try SQLiteBenchmarks.time {
                    let counts = try ValueCounts(keyPath: item.keyPath, entityName: "ToDo", predicate: nil, in: context)
                    listed = counts.entries.count
                }
            }, raw: {
                try SQLiteBenchmarks.time {
                    for sql in item.sql { try raw.readAll(sql) }
                }
            })
            SQLiteBenchmarks.report(item.work + " [\(listed)]", store, floor)
        }
    }
}

extension RawSQLite {
    /// Steps through every row of a query, reading each column as text or a number.
    func readAll(_ sql: String) throws {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        var sink = 0
        while sqlite3_step(statement) == SQLITE_ROW {
            for column in 0..<sqlite3_column_count(statement) {
                if sqlite3_column_type(statement, column) == SQLITE_TEXT, let text = sqlite3_column_text(statement, column) {
                    sink &+= String(cString: text).utf8.count
                } else {
                    sink &+= Int(sqlite3_column_int64(statement, column))
                }
            }
        }
        if sink == -1 { print("") }
    }
}
