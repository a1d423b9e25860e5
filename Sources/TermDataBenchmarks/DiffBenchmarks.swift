import Foundation
import Interchange
import ObjectGraph
import SQLiteStore
import ToDoApp

/// `termdata diff` on two stores of a million items (`termdata-bench todo`'s store, and a copy
/// with 1,000 items renamed, 1,000 moved to another category, 100 deleted and 100 added),
/// against what a user would run to learn the same: sqlite3 with the copy attached, `EXCEPT`
/// both ways on each table. Also the most memory the process held, since the diff is to read
/// in bounded memory.
///
/// `termdata-bench diff`; `TERMDATA_BENCH_ITEMS` changes the size, as for `todo`.
enum DiffBenchmarks {
    static func run() throws {
        try ToDoBenchmarks.buildStore()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("termdata-bench-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (first, second) = (dir.appendingPathComponent("yesterday.sqlite"), dir.appendingPathComponent("today.sqlite"))
        let source = try RawSQLite(ToDoBenchmarks.storeURL)
        try source.exec("VACUUM INTO '\(first.path)'")
        try source.exec("VACUUM INTO '\(second.path)'")
        let today = try RawSQLite(second)
        try today.exec("""
            BEGIN;
            UPDATE ZTODO SET ZNAME = ZNAME || ' (renamed)', Z_OPT = Z_OPT + 1 WHERE Z_PK % 1000 = 1;
            UPDATE ZTODO SET ZCATEGORY = (ZCATEGORY % 3) + 1, Z_OPT = Z_OPT + 1 WHERE Z_PK % 1000 = 2;
            DELETE FROM ZTODO WHERE Z_PK % 10000 = 3;
            INSERT INTO ZTODO (Z_PK, Z_ENT, Z_OPT, ZCOMPLETED, ZNAME) SELECT Z_PK + 10000000, Z_ENT, 1, 0, 'new ' || Z_PK FROM ZTODO WHERE Z_PK % 10000 = 4;
            COMMIT;
            """)
        let model = try ToDoStore.bundledVersions().current
        func open(_ url: URL) throws -> ManagedObjectContext {
            let coordinator = PersistentStoreCoordinator(model: model)
            var options = StoreOptions()
            options.readOnly = true
            try coordinator.addStore(type: .sqlite, at: url, options: options)
            return ManagedObjectContext(coordinator: coordinator)
        }
        let contexts = (try open(first), try open(second))
        var summary = StoreDiff.Summary()
        var stores: [Double] = [], floors: [Double] = []
        let raw = try RawSQLite(first)
        try raw.exec("ATTACH '\(second.path)' AS today")
        for _ in 0..<3 {
            stores.append(try SQLiteBenchmarks.time {
                summary = try StoreDiff.compare(contexts.0, with: contexts.1) { _ in }
            })
            floors.append(try SQLiteBenchmarks.time {
                for table in ["ZTODO", "ZCATEGORY"] {
                    try raw.readAll("SELECT * FROM main.\(table) EXCEPT SELECT * FROM today.\(table)")
                    try raw.readAll("SELECT * FROM today.\(table) EXCEPT SELECT * FROM main.\(table)")
                }
            })
        }
        print("diff of two stores of \(ToDoBenchmarks.items) items, best of three each")
        print("work".padding(toLength: 44, withPad: " ", startingAt: 0) + "  store (s)   sqlite3 (s)   ratio")
        SQLiteBenchmarks.report("diff [\(summary.added) added, \(summary.removed) removed, \(summary.changed) changed]",
                                stores.min()!, floors.min()!)
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        print("most memory held by the process: \(usage.ru_maxrss / 1024) MB")
    }
}
