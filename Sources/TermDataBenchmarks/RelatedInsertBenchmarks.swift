import Foundation
import GRDBSQLite
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore

/// Inserting many objects related to a few owners (a to-one with its to-many inverse) through
/// a context, saved in batches as an import does, beside the sqlite3 C API inserting the same
/// rows, foreign key included, with one prepared statement and a transaction per batch.
///
/// `TERMDATA_BENCH_RELATED` changes the number of objects (1,000,000) and
/// `TERMDATA_BENCH_BATCH` the batch (10,000); `TERMDATA_BENCH_PROFILE_RELATED=1` runs the
/// context side alone, for a profiler.
enum RelatedInsertBenchmarks {
    static let modelXML = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Owner" representedClassName="Owner" syncable="YES">
            <attribute name="name" attributeType="String"/>
            <relationship name="items" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Item" inverseName="owner" inverseEntity="Item"/>
        </entity>
        <entity name="Item" representedClassName="Item" syncable="YES">
            <attribute name="name" attributeType="String"/>
            <attribute name="value" attributeType="Integer 64" defaultValueString="0"/>
            <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="items" inverseEntity="Owner"/>
        </entity>
    </model>
    """

    static func run() throws {
        let env = ProcessInfo.processInfo.environment
        let count = env["TERMDATA_BENCH_RELATED"].flatMap(Int.init) ?? 1_000_000
        let batch = env["TERMDATA_BENCH_BATCH"].flatMap(Int.init) ?? 10_000
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("termdata-bench-related-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let modelDir = dir.appendingPathComponent("Related.xcdatamodel")
        try FileManager.default.createDirectory(at: modelDir, withIntermediateDirectories: true)
        try Data(modelXML.utf8).write(to: modelDir.appendingPathComponent("contents"))
        let model = try XcodeModelFile.read(modelDir).current

        var run = 0
        if env["TERMDATA_BENCH_PROFILE_RELATED"] != nil {
            print(String(format: "context: %.2f s", try throughContext(model, count, batch, into: dir.appendingPathComponent("Profile.sqlite"))))
            return
        }
        // Three runs each, taking turns: a million rows is long enough to even out the load.
        var contextTimes: [Double] = [], rawTimes: [Double] = []
        for _ in 0..<3 {
            run += 1
            contextTimes.append(try throughContext(model, count, batch, into: dir.appendingPathComponent("Context\(run).sqlite")))
            rawTimes.append(try raw(model, count, batch, into: dir.appendingPathComponent("Raw\(run).sqlite")))
        }
        SQLiteBenchmarks.report("insert \(count) items joining 3 owners, saved every \(batch)", contextTimes.min()!, rawTimes.min()!)
    }

    /// Three owners saved first; then the items, each joining one, a save (and a reset, as
    /// an import keeps memory flat) every batch.
    static func throughContext(_ model: ManagedObjectModel, _ count: Int, _ batch: Int, into url: URL) throws -> Double {
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        for name in ["Home", "Work", "Errands"] { try context.insertObject(forEntityName: "Owner")["name"] = .string(name) }
        try context.save()
        let owners = try context.fetchObjectIDs(FetchRequest(entityName: "Owner", sortDescriptors: [ObjectSortDescriptor(key: "name")]))
        context.reset()
        return try SQLiteBenchmarks.time {
            var start = 0
            while start < count {
                let ownerObjects = owners.map { context.object(with: $0) }
                for i in start..<min(count, start + batch) {
                    let item = try context.insertObject(forEntityName: "Item")
                    item["name"] = .string("item \(i)")
                    item["value"] = .int(i)
                    item["owner"] = .object(ownerObjects[i % 3])
                }
                try context.save()
                context.reset()
                start += batch
            }
        }
    }

    /// The same rows through the C API, into the same schema.
    static func raw(_ model: ManagedObjectModel, _ count: Int, _ batch: Int, into url: URL) throws -> Double {
        do {
            let coordinator = PersistentStoreCoordinator(model: model)
            coordinator.removeStore(try coordinator.addStore(type: .sqlite, at: url))
        }
        let db = try RawSQLite(url)
        return try SQLiteBenchmarks.time { try db.insertRelated(count, batch: batch) }
    }
}

extension RawSQLite {
    /// Three owners, then `count` items each joining one, a transaction per batch.
    func insertRelated(_ count: Int, batch: Int) throws {
        try exec("PRAGMA journal_mode=WAL")
        try exec("BEGIN IMMEDIATE")
        try exec("INSERT INTO ZOWNER (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 2, 1, 'Errands'), (2, 2, 1, 'Home'), (3, 2, 1, 'Work')")
        try exec("UPDATE Z_PRIMARYKEY SET Z_MAX = 3 WHERE Z_NAME = 'Owner'")
        try exec("COMMIT")
        let statement = try prepare("INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZVALUE, ZOWNER, ZNAME) VALUES (?, 1, 1, ?, ?, ?)")
        defer { sqlite3_finalize(statement) }
        var start = 0
        while start < count {
            let end = min(count, start + batch)
            try exec("BEGIN IMMEDIATE")
            for i in start..<end {
                sqlite3_bind_int64(statement, 1, Int64(i + 1))
                sqlite3_bind_int64(statement, 2, Int64(i))
                sqlite3_bind_int64(statement, 3, Int64(i % 3 + 1))
                sqlite3_bind_text(statement, 4, "item \(i)", -1, Self.transient)
                guard sqlite3_step(statement) == SQLITE_DONE else { throw RawError(message: String(cString: sqlite3_errmsg(db))) }
                sqlite3_reset(statement)
            }
            try exec("UPDATE Z_PRIMARYKEY SET Z_MAX = \(end) WHERE Z_NAME = 'Item'")
            try exec("COMMIT")
            start = end
        }
    }
}
