import Foundation
import GRDBSQLite
import Bindings
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
        try keyPathSort(context: context, raw: raw)
        try deletePreview(coordinator: coordinator, raw: raw)
        try storeCheck(coordinator: coordinator, raw: raw)
    }

    /// `termdata check` on the million items (`SQLiteStore.check()`), against SQLite's own
    /// `PRAGMA integrity_check` on the same file (the issue: at most 3× that).
    static func storeCheck(coordinator: PersistentStoreCoordinator, raw: RawSQLite) throws {
        guard let store = coordinator.stores.first as? SQLiteStore else { return }
        var found = 0
        let (checked, floor) = try SQLiteBenchmarks.interleaved(store: {
            try SQLiteBenchmarks.time { found = try store.check().count }
        }, raw: {
            try SQLiteBenchmarks.time { try raw.readAll("PRAGMA integrity_check") }
        })
        SQLiteBenchmarks.report("store check [\(found) findings]", checked, floor)
    }

    /// The delete panel on 100,000 marked items (`d` with the marks, past 1,000): what the
    /// delete rules will do, read from the store by ID (`DeletePreview(deletingObjectsWith:)`)
    /// on a new context, none of the items loaded; against what a user would run to learn the
    /// same, the categories the items leave, through the sqlite3 C API, 500 keys a statement.
    static func deletePreview(coordinator: PersistentStoreCoordinator, raw: RawSQLite) throws {
        let marked = 100_000
        var request = FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")], fetchLimit: marked)
        request.includesPendingChanges = false
        let ids = try ManagedObjectContext(coordinator: coordinator).fetchObjectIDs(request)
        let keys = ids.compactMap(\.primaryKey)
        let statements = stride(from: 0, to: keys.count, by: 500).map { start in
            "SELECT DISTINCT ZCATEGORY FROM ZTODO WHERE Z_PK IN (" + keys[start..<min(keys.count, start + 500)].map(String.init).joined(separator: ",") + ")"
        }
        var said: [String] = []
        let (store, floor) = try SQLiteBenchmarks.interleaved(store: {
            try SQLiteBenchmarks.time {
                let context = ManagedObjectContext(coordinator: coordinator)
                let preview = try DeletePreview(deletingObjectsWith: ids, in: context)
                said = preview.lines { $0.entity.name }
            }
        }, raw: {
            try SQLiteBenchmarks.time { for sql in statements { try raw.readAll(sql) } }
        })
        SQLiteBenchmarks.report("delete panel on \(marked.formatted()) marks", store, floor)
        print("  " + said.joined(separator: " "))
    }

    /// The browser's table sorted by a key-path column and a second key (`s` on
    /// `category.name`, `S` on `name`): a lazy array controller, both keys as text the way
    /// the browser sorts text, to its first screen of 40 rows; against the statement a user
    /// would write (the join, `ORDER BY … COLLATE NOCASE`, the first 40 rows and a count).
    /// The resident memory added says whether the million rows were read into memory.
    static func keyPathSort(context: ManagedObjectContext, raw: RawSQLite) throws {
        let sorts = ["category.name", "name"].map { ObjectSortDescriptor(key: $0, ascending: true, comparison: .localizedCaseInsensitiveCompare) }
        let before = ToDoBenchmarks.residentMemory()
        var firstName = ""
        let (store, floor) = try SQLiteBenchmarks.interleaved(store: {
            var controller: ArrayController?
            let seconds = try SQLiteBenchmarks.time {
                controller = try ArrayController(context: context, entityName: "ToDo", sortDescriptors: sorts, usesLazyFetching: true)
                for row in 0..<min(40, controller?.arrangedCount ?? 0) {
                    let item = controller?.arrangedObject(at: row)
                    if row == 0 { firstName = item?.string("name") ?? "" }
                    _ = item?.object("category")?.string("name")
                }
            }
            // Outside the time: the controller goes before the context forgets its objects,
            // so that nothing reads the sort again.
            controller = nil
            context.reset()
            return seconds
        }, raw: {
            try SQLiteBenchmarks.time {
                try raw.readAll("SELECT t.Z_PK, t.ZNAME, t.ZDUEDATE, t.ZCOMPLETED, c.ZNAME FROM ZTODO t LEFT JOIN ZCATEGORY c ON c.Z_PK = t.ZCATEGORY "
                                + "ORDER BY c.ZNAME COLLATE NOCASE, t.ZNAME COLLATE NOCASE LIMIT 40")
                try raw.readAll("SELECT COUNT(*) FROM ZTODO")
            }
        })
        SQLiteBenchmarks.report("sort by category.name, then name [\(firstName)]", store, floor)
        print(String(format: "  resident memory after the sorts: %+.1f MB", (ToDoBenchmarks.residentMemory() - before) / 1e6))
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
