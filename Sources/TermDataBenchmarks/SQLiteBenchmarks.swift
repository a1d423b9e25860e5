import Foundation
import GRDBSQLite
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore

/// The SQLite store against the same work done through the sqlite3 C API, on the same
/// rows: inserting and saving objects, fetching them as faults (and reading every result), a filtered and sorted
/// fetch with a limit on a million rows, and a count.
///
/// `TERMDATA_BENCH_INSERTS` and `TERMDATA_BENCH_ROWS` change the sizes (100,000 and 1,000,000);
/// `TERMDATA_BENCH_PROFILE_INSERT=1` runs only the context side of the insert line, and
/// `TERMDATA_BENCH_PROFILE_FAULTS=1` only that of the fault line (timing its parts), for a profiler.
enum SQLiteBenchmarks {
    static let modelXML = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Item" representedClassName="Item" syncable="YES">
            <attribute name="name" attributeType="String"/>
            <attribute name="value" attributeType="Integer 64" defaultValueString="0" indexed="YES"/>
            <attribute name="score" attributeType="Double" defaultValueString="0"/>
            <attribute name="created" optional="YES" attributeType="Date"/>
        </entity>
    </model>
    """

    static func run() throws {
        let env = ProcessInfo.processInfo.environment
        let inserts = env["TERMDATA_BENCH_INSERTS"].flatMap(Int.init) ?? 100_000
        let rows = env["TERMDATA_BENCH_ROWS"].flatMap(Int.init) ?? 1_000_000
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("termdata-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let modelDir = dir.appendingPathComponent("Bench.xcdatamodel")
        try FileManager.default.createDirectory(at: modelDir, withIntermediateDirectories: true)
        try Data(modelXML.utf8).write(to: modelDir.appendingPathComponent("contents"))
        let model = try XcodeModelFile.read(modelDir).current

        print("inserts: \(inserts), large table: \(rows) rows")
        print("work".padding(toLength: 44, withPad: " ", startingAt: 0) + "  store (s)   sqlite3 (s)   ratio")

        // 1. Insert and save. The two sides take turns, each run into a new file, so that a
        // change in the machine's load falls on both; each side reports its best run.
        let schemaURL = dir.appendingPathComponent("Schema.sqlite")
        do {
            let coordinator = PersistentStoreCoordinator(model: model)
            coordinator.removeStore(try coordinator.addStore(type: .sqlite, at: schemaURL))
        }
        var storeURL = dir.appendingPathComponent("Store.sqlite")
        var phases: [(String, Double)] = []
        var run = 0
        let contextInsert = {
            run += 1
            storeURL = dir.appendingPathComponent("Store\(run).sqlite")
            let coordinator = PersistentStoreCoordinator(model: model)
            try coordinator.addStore(type: .sqlite, at: storeURL)
            let context = ManagedObjectContext(coordinator: coordinator)
            var times: [(String, Double)] = []
            times.append(("insert and set values", try time {
                for i in 0..<inserts {
                    let item = try context.insertObject(forEntityName: "Item")
                    item["name"] = .string("item \(i)")
                    item["value"] = .int(i)
                    item["score"] = .double(Double(i % 1000) / 1000)
                    item["created"] = .date(Date(timeIntervalSinceReferenceDate: Double(i)))
                }
            }))
            times.append(("save", try time { try context.save() }))
            let total = times.map(\.1).reduce(0, +)
            if phases.isEmpty || total < phases.map(\.1).reduce(0, +) { phases = times }
            return total
        }
        if env["TERMDATA_BENCH_PROFILE_FAULTS"] != nil {
            // Only the context side of the fault line, for a profiler.
            _ = try contextInsert()
            for _ in 0..<10 {
                var objects: FetchedObjects = []
                let coordinator = PersistentStoreCoordinator(model: model)
                let open = try time { try coordinator.addStore(type: .sqlite, at: storeURL) }
                let context = ManagedObjectContext(coordinator: coordinator)
                let fetch = try time { objects = try context.fetch(FetchRequest(entityName: "Item")) }
                let make = try time { for object in objects { precondition(object.isFault) } }
                let release = try time { objects = [] }
                print(String(format: "open %.4f  fetch %.4f  make %.4f  release %.4f", open, fetch, make, release))
            }
            return
        }
        if env["TERMDATA_BENCH_PROFILE_INSERT"] != nil {
            // Only the context side of the insert line, for a profiler.
            for _ in 0..<5 { _ = try contextInsert() }
            return
        }
        let (storeInsert, rawInsert) = try interleaved(store: contextInsert, raw: {
            let url = dir.appendingPathComponent("RawInsert\(run).sqlite")
            try copySchema(from: schemaURL, to: url)
            return try time { try RawSQLite(url).insertItems(inserts, firstKey: 1) }
        })
        if env["TERMDATA_BENCH_DETAIL"] != nil {
            for (phase, seconds) in phases { print("  \(phase): \(String(format: "%.4f", seconds)) s") }
        }
        report("insert and save \(inserts) objects", storeInsert, rawInsert)

        // 1b. The store's own part of a save: the rows a context hands it (values in the
        // entity's attribute order), written in one transaction into a new file each run.
        let item = model.entity(named: "Item")!
        let changes = StoreChanges(inserted: (0..<inserts).map { i in
            var values = item.defaultAttributeValues
            values[item.attributeIndex(of: "name")!] = .string("item \(i)")
            values[item.attributeIndex(of: "value")!] = .int(i)
            values[item.attributeIndex(of: "score")!] = .double(Double(i % 1000) / 1000)
            values[item.attributeIndex(of: "created")!] = .date(Date(timeIntervalSinceReferenceDate: Double(i)))
            return StoredRow(objectID: .temporary(entityName: "Item"), version: 0, entity: item, values: values)
        })
        run = 0
        let (storeSave, rawInsert2) = try interleaved(store: {
            run += 1
            let directStore = try SQLiteStore(model: model, url: dir.appendingPathComponent("Direct\(run).sqlite"))
            defer { directStore.close() }
            return try time { _ = try directStore.save(changes) }
        }, raw: {
            let url = dir.appendingPathComponent("Raw2-\(run).sqlite")
            try copySchema(from: schemaURL, to: url)
            return try time { try RawSQLite(url).insertItems(inserts, firstKey: 1) }
        })
        report("store.save of \(inserts) rows (no context)", storeSave, rawInsert2)

        // 2. Fetch them all as faults.
        let rawKeys = {
            try time {
                let keys = try RawSQLite(storeURL).keys("SELECT Z_PK, Z_ENT FROM ZITEM")
                precondition(keys.count == inserts)
            }
        }
        // A new coordinator and context on the store each run, and every item fetched.
        func fetchItems(then read: (FetchedObjects) -> Void) throws -> Double {
            try time {
                let coordinator = PersistentStoreCoordinator(model: model)
                try coordinator.addStore(type: .sqlite, at: storeURL)
                read(try ManagedObjectContext(coordinator: coordinator).fetch(FetchRequest(entityName: "Item")))
            }
        }
        let (storeFaults, rawFaults) = try interleaved(store: {
            try fetchItems { objects in precondition(objects.count == inserts, "fetched \(objects.count)") }
        }, raw: rawKeys)
        report("fetch \(inserts) objects as faults", storeFaults, rawFaults)
        // The same, with every result read: a fault object made for each row, then freed.
        let (storeMade, rawMade) = try interleaved(store: {
            try fetchItems { objects in
                var faults = 0
                for object in objects where object.isFault { faults += 1 }
                precondition(faults == inserts, "made \(faults) faults")
            }
        }, raw: rawKeys)
        report("  the same, every result read", storeMade, rawMade)
        let idStore = try SQLiteStore(model: model, url: storeURL)
        let (storeIDs, rawIDs) = try interleaved(store: {
            try time {
                guard case .rows(let ids, _) = try idStore.execute(StoreRequest(fetch: FetchRequest(entityName: "Item"), entityNames: ["Item"])) else { return }
                precondition(ids.count == inserts)
            }
        }, raw: rawKeys)
        idStore.close()
        report("store fetch of \(inserts) object IDs (no context)", storeIDs, rawIDs)

        // 3. A million rows: filtered, sorted, limit 50, values read.
        let bigURL = dir.appendingPathComponent("Big.sqlite")
        do {
            let coordinator = PersistentStoreCoordinator(model: model)
            let store = try coordinator.addStore(type: .sqlite, at: bigURL)
            coordinator.removeStore(store)
            try RawSQLite(bigURL).insertItems(rows, firstKey: 1)
        }
        let bigCoordinator = PersistentStoreCoordinator(model: model)
        try bigCoordinator.addStore(type: .sqlite, at: bigURL)
        let predicate = try ObjectPredicate(format: "score < 0.25 AND name BEGINSWITH 'item 9'")
        let request = FetchRequest(entityName: "Item", predicate: predicate,
                                   sortDescriptors: [ObjectSortDescriptor(key: "value", ascending: false)], fetchLimit: 50,
                                   fetchBatchSize: 50)
        var storeNames: [String] = []
        var rawNames: [String] = []
        let (storeTop, rawTop) = try interleaved(store: {
            try time {
                let context = ManagedObjectContext(coordinator: bigCoordinator)
                storeNames = try context.fetch(request).map { $0.string("name") ?? "" }
            }
        }, raw: {
            try time {
                rawNames = try RawSQLite(bigURL).names(
                    "SELECT Z_PK, ZNAME, ZVALUE, ZSCORE, ZCREATED FROM ZITEM WHERE ZSCORE < 0.25 AND substr(ZNAME, 1, 6) = 'item 9' ORDER BY ZVALUE DESC LIMIT 50")
            }
        })
        precondition(storeNames == rawNames, "different results: \(storeNames.prefix(3)) vs \(rawNames.prefix(3))")
        report("filter, sort, limit 50 of \(rows) rows", storeTop, rawTop)

        // 4. Count.
        let countRequest = FetchRequest(entityName: "Item", predicate: try ObjectPredicate(format: "score < 0.25"))
        var storeCount = 0, rawCount = 0
        let (storeCountTime, rawCountTime) = try interleaved(store: {
            try time { storeCount = try ManagedObjectContext(coordinator: bigCoordinator).count(for: countRequest) }
        }, raw: {
            try time { rawCount = try RawSQLite(bigURL).count("SELECT COUNT(*) FROM ZITEM WHERE ZSCORE < 0.25") }
        })
        precondition(storeCount == rawCount, "counts differ: \(storeCount) vs \(rawCount)")
        report("count matching of \(rows) rows", storeCountTime, rawCountTime)

        // 5. Text tests under [c], [d], [cd] and LIKE, against SQLite's built-in lower() and LIKE
        // on the same (ASCII) names. Each side counts the rows it matches, or fetches 50 sorted.
        let textCases: [(label: String, format: String, raw: String)] = [
            ("BEGINSWITH[c], sort, limit 50", "name BEGINSWITH[c] 'ITEM 9' AND score < 0.25",
             "SELECT Z_PK, ZNAME FROM ZITEM WHERE lower(ZNAME) LIKE 'item 9%' AND ZSCORE < 0.25 ORDER BY ZVALUE DESC LIMIT 50"),
            ("CONTAINS[cd], count", "name CONTAINS[cd] '99'", "SELECT COUNT(*) FROM ZITEM WHERE lower(ZNAME) LIKE '%99%'"),
            ("ENDSWITH[c], count", "name ENDSWITH[c] '7'", "SELECT COUNT(*) FROM ZITEM WHERE lower(ZNAME) LIKE '%7'"),
            ("==[c], count", "name ==[c] 'ITEM 123456'", "SELECT COUNT(*) FROM ZITEM WHERE lower(ZNAME) = 'item 123456'"),
            ("LIKE[c], count", "name LIKE[c] 'ITEM ?9*'", "SELECT COUNT(*) FROM ZITEM WHERE ZNAME LIKE 'item _9%'"),
            ("BEGINSWITH[d], count", "name BEGINSWITH[d] 'item 4'", "SELECT COUNT(*) FROM ZITEM WHERE substr(ZNAME, 1, 6) = 'item 4'"),
        ]
        for text in textCases {
            let predicate = try ObjectPredicate(format: text.format)
            let sorted = text.raw.contains("LIMIT 50")
            var storeAnswer: [String] = [], rawAnswer: [String] = []
            let (storeTime, rawTime) = try interleaved(store: {
                try time {
                    let context = ManagedObjectContext(coordinator: bigCoordinator)
                    if sorted {
                        storeAnswer = try context.fetch(FetchRequest(entityName: "Item", predicate: predicate,
                                                                     sortDescriptors: [ObjectSortDescriptor(key: "value", ascending: false)],
                                                                     fetchLimit: 50, fetchBatchSize: 50)).map { $0.string("name") ?? "" }
                    } else {
                        storeAnswer = [String(try context.count(for: FetchRequest(entityName: "Item", predicate: predicate)))]
                    }
                }
            }, raw: {
                try time {
                    let raw = try RawSQLite(bigURL)
                    rawAnswer = sorted ? try raw.names(text.raw) : [String(try raw.count(text.raw))]
                }
            })
            precondition(storeAnswer == rawAnswer, "\(text.format): \(storeAnswer.prefix(3)) vs \(rawAnswer.prefix(3))")
            report(text.label, storeTime, rawTime)
        }
    }

    static func time(_ body: () throws -> Void) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// The best of nine runs of each side, the sides taking turns. Each closure times its
    /// own work (so that set-up such as creating a file is left out) and returns seconds.
    static func interleaved(store: () throws -> Double, raw: () throws -> Double) throws -> (store: Double, raw: Double) {
        var storeTimes: [Double] = [], rawTimes: [Double] = []
        // Nine, not five: on a shared machine a run of either side can take half as long
        // again, and the best of five was often such a run.
        for _ in 0..<9 {
            storeTimes.append(try store())
            rawTimes.append(try raw())
        }
        return (storeTimes.min()!, rawTimes.min()!)
    }

    static func report(_ work: String, _ store: Double, _ raw: Double) {
        let ratio = raw > 0 ? store / raw : 0
        print(work.padding(toLength: 44, withPad: " ", startingAt: 0)
              + String(format: "  %9.4f   %11.4f   %5.2fx", store, raw, ratio))
    }

    /// Creates the store's tables in a new file, for the raw inserts.
    static func copySchema(from source: URL, to target: URL) throws {
        let raw = try RawSQLite(source)
        let statements = try raw.strings("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name LIKE 'Z%'")
        let out = try RawSQLite(target)
        for sql in statements { try out.exec(sql) }
        try out.exec("PRAGMA journal_mode=WAL")
    }
}

/// The sqlite3 C API, directly.
final class RawSQLite {
    private(set) var db: OpaquePointer?
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ url: URL) throws {
        guard sqlite3_open(url.path, &db) == SQLITE_OK else { throw RawError(message: "cannot open \(url.path)") }
    }

    deinit { sqlite3_close(db) }

    struct RawError: Error { var message: String }

    func exec(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw RawError(message: String(cString: sqlite3_errmsg(db))) }
    }

    func prepare(_ sql: String) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
            throw RawError(message: String(cString: sqlite3_errmsg(db)))
        }
        return statement
    }

    /// Inserts `count` items in one transaction with one prepared statement.
    func insertItems(_ count: Int, firstKey: Int) throws {
        try exec("PRAGMA journal_mode=WAL")
        try exec("BEGIN IMMEDIATE")
        let statement = try prepare("INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZVALUE, ZCREATED, ZSCORE, ZNAME) VALUES (?, 1, 1, ?, ?, ?, ?)")
        defer { sqlite3_finalize(statement) }
        for i in 0..<count {
            sqlite3_bind_int64(statement, 1, Int64(firstKey + i))
            sqlite3_bind_int64(statement, 2, Int64(i))
            sqlite3_bind_double(statement, 3, Double(i))
            sqlite3_bind_double(statement, 4, Double(i % 1000) / 1000)
            sqlite3_bind_text(statement, 5, "item \(i)", -1, Self.transient)
            guard sqlite3_step(statement) == SQLITE_DONE else { throw RawError(message: String(cString: sqlite3_errmsg(db))) }
            sqlite3_reset(statement)
        }
        try exec("UPDATE Z_PRIMARYKEY SET Z_MAX = \(firstKey + count - 1) WHERE Z_NAME = 'Item'")
        try exec("COMMIT")
    }

    func keys(_ sql: String) throws -> [(Int64, Int64)] {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        var result: [(Int64, Int64)] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            result.append((sqlite3_column_int64(statement, 0), sqlite3_column_int64(statement, 1)))
        }
        return result
    }

    func names(_ sql: String) throws -> [String] {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        var result: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            result.append(String(cString: sqlite3_column_text(statement, 1)))
        }
        return result
    }

    func strings(_ sql: String) throws -> [String] {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        var result: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW { result.append(String(cString: sqlite3_column_text(statement, 0))) }
        return result
    }

    func count(_ sql: String) throws -> Int {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { return 0 }
        return Int(sqlite3_column_int64(statement, 0))
    }
}
