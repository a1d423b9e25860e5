import Foundation
import Logging
import NIOCore
import NIOPosix
import ObjectGraph
import ObjectModel
import PostgresNIO
import PostgresStore
import Predicates
import Synchronization
import ToDoApp

/// The PostgreSQL store against the same SQL sent through postgres-nio directly: inserting
/// and saving, a filtered and sorted fetch with a limit, a count; and how soon another
/// client's save is noticed, and how many saves eight client processes make together.
///
/// Needs a server: `TERMDATA_BENCH_POSTGRES` is a `postgres://` URL whose database the
/// benchmark may make schemas in; `docs/floors/postgres-server.sh` starts a throwaway one.
///
/// ```
/// eval "$(docs/floors/postgres-server.sh)"
/// swift build -c release --product termdata-bench && .build/release/termdata-bench postgres
/// ```
enum PostgresBenchmarks {
    static func run() throws {
        let env = ProcessInfo.processInfo.environment
        guard let base = env["TERMDATA_BENCH_POSTGRES"] else {
            print("TERMDATA_BENCH_POSTGRES is not set: start a server with docs/floors/postgres-server.sh")
            return
        }
        PostgresStore.register()
        let inserts = env["TERMDATA_BENCH_INSERTS"].flatMap(Int.init) ?? 100_000
        let rows = env["TERMDATA_BENCH_ROWS"].flatMap(Int.init) ?? 1_000_000
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("termdata-bench-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let modelDir = dir.appendingPathComponent("Bench.xcdatamodel")
        try FileManager.default.createDirectory(at: modelDir, withIntermediateDirectories: true)
        try Data(SQLiteBenchmarks.modelXML.utf8).write(to: modelDir.appendingPathComponent("contents"))
        let model = try XcodeModelFile.read(modelDir).current
        func url(_ schema: String) -> URL { URL(string: base + (base.contains("?") ? "&" : "?") + "schema=\(schema)")! }
        let location = try PostgresLocation(url: url("public"))
        let raw = try RawPostgres(location)
        defer { raw.close() }

        print("work".padding(toLength: 44, withPad: " ", startingAt: 0) + "  store (s)   postgres-nio (s)  ratio")
        // Insert and save.
        var store: [Double] = [], floor: [Double] = []
        for run in 0..<3 {
            let schema = "bench_insert_\(run)_\(UUID().uuidString.prefix(8).lowercased())"
            let coordinator = PersistentStoreCoordinator(model: model)
            try coordinator.addStore(type: .postgres, at: url(schema))
            let context = ManagedObjectContext(coordinator: coordinator)
            store.append(try SQLiteBenchmarks.time {
                for i in 0..<inserts {
                    let item = try context.insertObject(forEntityName: "Item")
                    item["name"] = .string("item \(i)")
                    item["value"] = .int(i)
                    item["score"] = .double(Double(i % 1000) / 1000)
                    item["created"] = .date(Date(timeIntervalSinceReferenceDate: Double(i)))
                }
                try context.save()
            })
            coordinator.removeStore(coordinator.stores[0])
            try raw.execute(#"TRUNCATE "\#(schema)"."ZITEM""#)
            floor.append(try SQLiteBenchmarks.time { try raw.insertItems(inserts, schema: schema, from: 0) })
            try raw.execute(#"DROP SCHEMA "\#(schema)" CASCADE"#)
        }
        SQLiteBenchmarks.report("insert and save \(inserts) objects", store.min()!, floor.min()!)

        // A million rows to read.
        let schema = "bench_read_\(UUID().uuidString.prefix(8).lowercased())"
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(type: .postgres, at: url(schema))
        for start in stride(from: 0, to: rows, by: 100_000) { try raw.insertItems(min(100_000, rows - start), schema: schema, from: start) }
        try raw.execute(#"ANALYZE "\#(schema)"."ZITEM""#)
        defer { try? raw.execute(#"DROP SCHEMA "\#(schema)" CASCADE"#) }
        let predicate = try ObjectPredicate(format: "value >= 500000 AND name BEGINSWITH 'item 9'")
        let request = FetchRequest(entityName: "Item", predicate: predicate,
                                   sortDescriptors: [ObjectSortDescriptor(key: "value", ascending: false)], fetchLimit: 50)
        let floorFetch = #"""
            SELECT "Z_PK", "Z_OPT", "ZVALUE", "ZSCORE", "ZCREATED", "ZNAME" FROM "\#(schema)"."ZITEM"
            WHERE "ZVALUE" >= 500000 AND "ZNAME" LIKE 'item 9%' ORDER BY "ZVALUE" DESC NULLS LAST, "Z_PK" NULLS FIRST LIMIT 50
            """#
        let fetched = try SQLiteBenchmarks.interleaved(store: {
            let context = ManagedObjectContext(coordinator: coordinator)
            return try SQLiteBenchmarks.time {
                let objects = try context.fetch(request)
                for object in objects { _ = object.string("name") }
            }
        }, raw: { try SQLiteBenchmarks.time { _ = try raw.decodedItems(floorFetch) } })
        SQLiteBenchmarks.report("filtered sorted fetch, limit 50, \(rows) rows", fetched.store, fetched.raw)
        let counted = try SQLiteBenchmarks.interleaved(store: {
            let context = ManagedObjectContext(coordinator: coordinator)
            return try SQLiteBenchmarks.time { _ = try context.count(for: FetchRequest(entityName: "Item", predicate: predicate)) }
        }, raw: {
            try SQLiteBenchmarks.time {
                _ = try raw.rows(#"SELECT count(*) FROM "\#(schema)"."ZITEM" WHERE "ZVALUE" >= 500000 AND "ZNAME" LIKE 'item 9%'"#)
            }
        })
        SQLiteBenchmarks.report("count of the same, \(rows) rows", counted.store, counted.raw)
        // Every result of a large fetch of faults, each made (not filled): keys, decoded.
        let many = min(100_000, rows)
        let manyRequest = FetchRequest(entityName: "Item", predicate: try ObjectPredicate(format: "value < %@", many))
        var madeCount = 0, keyCount = 0
        let made = try SQLiteBenchmarks.interleaved(store: {
            let context = ManagedObjectContext(coordinator: coordinator)
            return try SQLiteBenchmarks.time {
                let objects = try context.fetch(manyRequest)
                madeCount = 0
                for object in objects where object.isFault { madeCount += 1 }
            }
        }, raw: {
            try SQLiteBenchmarks.time { keyCount = try raw.keys(#"SELECT "Z_PK", "Z_ENT" FROM "\#(schema)"."ZITEM" WHERE "ZVALUE" < \#(many)"#).count }
        })
        precondition(madeCount == many && keyCount == many, "\(madeCount) objects, \(keyCount) keys")
        SQLiteBenchmarks.report("fetch \(many) objects as faults, every one read", made.store, made.raw)
        coordinator.removeStore(coordinator.stores[0])

        try remoteNotice(model: model, url: url("bench_notice_\(UUID().uuidString.prefix(8).lowercased())"), raw: raw)
        try clients(url: url("bench_clients_\(UUID().uuidString.prefix(8).lowercased())"), raw: raw)
    }

    /// From one client's save returning to another's remote-change notice, twenty times.
    static func remoteNotice(model: ManagedObjectModel, url: URL, raw: RawPostgres) throws {
        var options = StoreOptions()
        options.tracksHistory = true
        let watcher = PersistentStoreCoordinator(model: model)
        try watcher.addStore(type: .postgres, at: url, options: options)
        let writer = PersistentStoreCoordinator(model: model)
        try writer.addStore(type: .postgres, at: url, options: options)
        let seen = Mutex<Int64>(0)
        let observer = watcher.observeRemoteChanges { notice in
            seen.withLock { $0 = max($0, notice.token.transactionNumbers.values.max() ?? 0) }
        }
        defer { watcher.removeRemoteChangeObserver(observer) }
        let context = ManagedObjectContext(coordinator: writer)
        var delays: [Double] = []
        for i in 0..<20 {
            try context.insertObject(forEntityName: "Item")["name"] = .string("notice \(i)")
            try context.save()
            let saved = DispatchTime.now().uptimeNanoseconds
            let number = try writer.currentHistoryToken().transactionNumbers.values.max() ?? 0
            while seen.withLock({ $0 }) < number { usleep(200) }
            delays.append(Double(DispatchTime.now().uptimeNanoseconds - saved) / 1e6)
        }
        delays.sort()
        print(String(format: "remote change noticed after a save: median %.1f ms, max %.1f ms (20 saves)", delays[10], delays.last!))
        try raw.execute(#"DROP SCHEMA "\#(url.query!.replacingOccurrences(of: "schema=", with: ""))" CASCADE"#)
    }

    /// Eight client processes (`postgres-client`), each making 500 saves that change one of
    /// 20 shared items and insert a row; half settle conflicts by policy, half refresh and retry.
    static func clients(url: URL, raw: RawPostgres) throws {
        let setup = PersistentStoreCoordinator(model: try ToDoStore.bundledVersions().current)
        try setup.addStore(type: .postgres, at: url)
        let seed = ManagedObjectContext(coordinator: setup)
        for i in 0..<20 { try seed.insertObject(forEntityName: "ToDo")["name"] = .string(String(format: "shared %02d", i)) }
        try seed.save()
        setup.removeStore(setup.stores[0])
        let saves = 500, clientCount = 8
        let outputs = Mutex([String]())
        let start = DispatchTime.now().uptimeNanoseconds
        DispatchQueue.concurrentPerform(iterations: clientCount) { client in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            process.arguments = ["postgres-client", url.absoluteString, "\(client)", "\(saves)"]
            let pipe = Pipe()
            process.standardOutput = pipe
            do {
                try process.run()
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                outputs.withLock { $0.append(process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : "failed") }
            } catch {
                outputs.withLock { $0.append("failed: \(error)") }
            }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let conflicts = outputs.withLock { $0 }.compactMap { line -> Int? in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["conflicts"] as? Int
        }
        print(String(format: "8 client processes × %d saves to 20 shared items: %.0f saves/s (%.2f s, %d conflicts retried)",
                     saves, Double(saves * clientCount) / seconds, seconds, conflicts.reduce(0, +)))
        if conflicts.count < clientCount { print("  \(clientCount - conflicts.count) client(s) failed") }
        try raw.execute(#"DROP SCHEMA "\#(url.query!.replacingOccurrences(of: "schema=", with: ""))" CASCADE"#)
    }
}

/// The floor: one postgres-nio connection sending the statements the store sends.
final class RawPostgres {
    let connection: PostgresConnection
    let logger = Logger(label: "bench")

    init(_ location: PostgresLocation) throws {
        let configuration = PostgresConnection.Configuration(host: location.host, port: location.port, username: location.user,
                                                             password: location.password, database: location.database, tls: .disable)
        connection = try PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration,
                                                    id: 1, logger: logger).wait()
    }

    func execute(_ sql: String) throws { _ = try connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).wait() }

    func rows(_ sql: String) throws -> Int { try connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).wait().count }

    /// The keys and entity numbers of a SELECT of `Z_PK`, `Z_ENT`, decoded.
    func keys(_ sql: String) throws -> [(Int64, Int64)] {
        try connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).wait().map { try $0.decode((Int64, Int64).self) }
    }

    /// The rows of a SELECT of an item's columns, each cell decoded into its Swift value, as
    /// a program reading them would (the store decodes every column too).
    func decodedItems(_ sql: String) throws -> [(Int64, Int64, Int64, Double, Date, String)] {
        try connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).wait().map {
            try $0.decode((Int64, Int64, Int64, Double, Date, String).self)
        }
    }

    /// The store's insert: keys from its sequence, then multi-row INSERTs of the same
    /// columns (the folded copies NULL: the names are lower-case ASCII) in one transaction.
    func insertItems(_ count: Int, schema: String, from first: Int) throws {
        try execute("BEGIN")
        let keys = try connection.query(PostgresQuery(unsafeSQL: #"SELECT nextval('"\#(schema)"."Z_PK_SEQ_1"') FROM generate_series(1, \#(count))"#),
                                        logger: logger).wait().map { try $0.decode(Int64.self) }
        let columns = #""Z_PK", "Z_ENT", "Z_OPT", "ZVALUE", "ZSCORE", "ZCREATED", "ZNAME", "Z_FC_NAME", "Z_FD_NAME", "Z_FCD_NAME""#
        let perRow = 10, rowsPerStatement = 65_535 / perRow
        var i = 0
        while i < count {
            let end = min(count, i + rowsPerStatement)
            var bindings = PostgresBindings(capacity: (end - i) * perRow)
            var sql = #"INSERT INTO "\#(schema)"."ZITEM" (\#(columns)) VALUES "#
            for r in i..<end {
                let n = first + r
                let base = (r - i) * perRow
                sql += (r == i ? "(" : ", (") + (1...perRow).map { "$\(base + $0)" }.joined(separator: ", ") + ")"
                bindings.append(keys[r]); bindings.append(Int64(1)); bindings.append(Int64(1)); bindings.append(Int64(n))
                bindings.append(Double(n % 1000) / 1000); bindings.append(Date(timeIntervalSinceReferenceDate: Double(n)))
                bindings.append("item \(n)"); bindings.appendNull(); bindings.appendNull(); bindings.appendNull()
            }
            _ = try connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger).wait()
            i = end
        }
        try execute("COMMIT")
    }

    func close() {
        let closing: EventLoopFuture<Void> = connection.close()
        try? closing.wait()
    }
}
