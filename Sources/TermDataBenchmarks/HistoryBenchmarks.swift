import Foundation
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import Synchronization

/// What persistent history costs a save, and how soon another connection's commit is noticed.
///
/// ```
/// swift build -c release --product termdata-bench && .build/release/termdata-bench history
/// ```
enum HistoryBenchmarks {
    static let modelXML = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Owner" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="owner" inverseEntity="Item"/>
        </entity>
        <entity name="Item" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <attribute name="value" optional="YES" attributeType="Integer 64" usesScalarValueType="NO"/>
            <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="items" inverseEntity="Owner"/>
        </entity>
        </model>
        """

    /// A batch insert of a million rows against the sqlite3 C API inserting the same rows
    /// with one prepared statement (the SQLite benchmark's floor), best of five each.
    static func batchInsert(in dir: URL) throws {
        let rows = ProcessInfo.processInfo.environment["TERMDATA_BENCH_ROWS"].flatMap(Int.init) ?? 1_000_000
        let modelDir = dir.appendingPathComponent("Bench.xcdatamodel")
        try FileManager.default.createDirectory(at: modelDir, withIntermediateDirectories: true)
        try Data(SQLiteBenchmarks.modelXML.utf8).write(to: modelDir.appendingPathComponent("contents"))
        let model = try XcodeModelFile.read(modelDir).current
        let objects: [[String: ObjectValue]] = (0..<rows).map { i in
            ["name": .string("item \(i)"), "value": .int(i), "created": .date(Date(timeIntervalSinceReferenceDate: Double(i))),
             "score": .double(Double(i % 1000) / 1000)]
        }
        var run = 0
        var batch: [Double] = [], raw: [Double] = []
        for _ in 0..<5 {
            run += 1
            let coordinator = PersistentStoreCoordinator(model: model)
            let url = dir.appendingPathComponent("Batch\(run).sqlite")
            try coordinator.addStore(type: .sqlite, at: url)
            let request = BatchInsertRequest(entityName: "Item", objects: objects)
            batch.append(try SQLiteBenchmarks.time { _ = try coordinator.execute(.insert(request)) })
            coordinator.removeStore(coordinator.stores[0])
            let rawURL = dir.appendingPathComponent("Raw\(run).sqlite")
            try SQLiteBenchmarks.copySchema(from: url, to: rawURL)
            let sqlite = try RawSQLite(rawURL)
            raw.append(try SQLiteBenchmarks.time { try sqlite.insertItems(rows, firstKey: 1) })
        }
        print("work".padding(toLength: 44, withPad: " ", startingAt: 0) + "  store (s)   sqlite3 (s)   ratio")
        SQLiteBenchmarks.report("batch insert \(rows) rows (no history)", batch.min()!, raw.min()!)
    }

    static func run() throws {
        let inserts = ProcessInfo.processInfo.environment["TERMDATA_BENCH_INSERTS"].flatMap(Int.init) ?? 100_000
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("termdata-bench-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let modelDir = dir.appendingPathComponent("History.xcdatamodel")
        try FileManager.default.createDirectory(at: modelDir, withIntermediateDirectories: true)
        try Data(modelXML.utf8).write(to: modelDir.appendingPathComponent("contents"))
        let model = try XcodeModelFile.read(modelDir).current

        print("inserts: \(inserts) items in 3 owners")
        print("work".padding(toLength: 44, withPad: " ", startingAt: 0) + "  history (s) without (s)   ratio")
        var run = 0
        func insertAndSave(tracksHistory: Bool) throws -> Double {
            run += 1
            let coordinator = PersistentStoreCoordinator(model: model)
            try coordinator.addStore(type: .sqlite, at: dir.appendingPathComponent("Store\(run).sqlite"),
                                     options: StoreOptions(tracksHistory: tracksHistory))
            let context = ManagedObjectContext(coordinator: coordinator)
            return try SQLiteBenchmarks.time {
                let owners = try (0..<3).map { i in
                    let owner = try context.insertObject(forEntityName: "Owner")
                    owner["name"] = .string("owner \(i)")
                    return owner
                }
                for i in 0..<inserts {
                    let item = try context.insertObject(forEntityName: "Item")
                    item["name"] = .string("item \(i)")
                    item["value"] = .int(i)
                    item["owner"] = .object(owners[i % 3])
                }
                try context.save()
            }
        }
        var with: [Double] = [], without: [Double] = []
        // Nine each, not five: on a shared machine a run of either side can take half as long again.
        for _ in 0..<9 {
            with.append(try insertAndSave(tracksHistory: true))
            without.append(try insertAndSave(tracksHistory: false))
        }
        SQLiteBenchmarks.report("insert and save \(inserts) objects", with.min()!, without.min()!)

        // Updates and deletes keep the values they replace, a row per changed column.
        func batch(tracksHistory: Bool) throws -> (update: Double, delete: Double) {
            run += 1
            let coordinator = PersistentStoreCoordinator(model: model)
            try coordinator.addStore(type: .sqlite, at: dir.appendingPathComponent("Store\(run).sqlite"),
                                     options: StoreOptions(tracksHistory: tracksHistory))
            let objects: [[String: ObjectValue]] = (0..<inserts).map { ["name": .string("item \($0)"), "value": .int($0)] }
            _ = try coordinator.execute(.insert(BatchInsertRequest(entityName: "Item", objects: objects)))
            let update = try SQLiteBenchmarks.time {
                _ = try coordinator.execute(.update(BatchUpdateRequest(entityName: "Item", propertiesToUpdate: ["name": "renamed", "value": 0])))
            }
            let delete = try SQLiteBenchmarks.time { _ = try coordinator.execute(.delete(BatchDeleteRequest(entityName: "Item"))) }
            coordinator.removeStore(coordinator.stores[0])
            return (update, delete)
        }
        var batches: [(with: (update: Double, delete: Double), without: (update: Double, delete: Double))] = []
        for _ in 0..<5 { batches.append((try batch(tracksHistory: true), try batch(tracksHistory: false))) }
        SQLiteBenchmarks.report("batch update 2 values of \(inserts) objects", batches.map(\.with.update).min()!,
                                batches.map(\.without.update).min()!)
        SQLiteBenchmarks.report("batch delete \(inserts) objects", batches.map(\.with.delete).min()!, batches.map(\.without.delete).min()!)

        try batchInsert(in: dir)

        // Another connection's commit, to the notice: twenty single-object saves, a second apart.
        let url = dir.appendingPathComponent("Watched.sqlite")
        let watching = PersistentStoreCoordinator(model: model)
        try watching.addStore(type: .sqlite, at: url, options: StoreOptions(tracksHistory: true))
        let writer = PersistentStoreCoordinator(model: model)
        try writer.addStore(type: .sqlite, at: url, options: StoreOptions(tracksHistory: true))
        let context = ManagedObjectContext(coordinator: writer)
        let heard = Mutex<[Double]>([])
        let observer = watching.observeRemoteChanges { _ in
            let now = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
            heard.withLock { $0.append(now) }
        }
        var delays: [Double] = []
        for i in 0..<20 {
            Thread.sleep(forTimeInterval: 0.3 + Double(i % 7) * 0.01)
            heard.withLock { $0 = [] }
            try context.insertObject(forEntityName: "Item")["value"] = .int(i)
            try context.save()
            let committed = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
            let deadline = Date().addingTimeInterval(2)
            while Date() < deadline, heard.withLock({ $0.isEmpty }) { Thread.sleep(forTimeInterval: 0.001) }
            if let first = heard.withLock({ $0.first }) { delays.append(max(0, first - committed)) }
        }
        watching.removeRemoteChangeObserver(observer)
        delays.sort()
        print(String(format: "commit to notice (%d commits): median %.0f ms, max %.0f ms", delays.count,
                     delays[delays.count / 2] * 1000, (delays.last ?? 0) * 1000))
    }
}
