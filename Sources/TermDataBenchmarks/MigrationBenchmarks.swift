import Foundation
import GRDB
import Migration
import ObjectGraph
import ObjectModel
import SQLiteStore
import ToDoApp

/// Migrating a version-1 ToDo store of a million items to version 2, beside the same
/// schema change done with plain `ALTER TABLE` on a copy of the same file; and the general
/// (copying) path with the article's custom policy on a tenth of the rows.
///
/// `TERMDATA_BENCH_ITEMS` changes the size (1,000,000).
enum MigrationBenchmarks {
    static func run() throws {
        let items = ProcessInfo.processInfo.environment["TERMDATA_BENCH_ITEMS"].flatMap(Int.init) ?? 1_000_000
        let versions = try ToDoStore.bundledVersions()
        let v1 = versions.version(named: "ToDo")!
        DoNotAlertMigrationPolicy.register()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("termdata-bench-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }

        let original = dir.appendingPathComponent("v1.sqlite")
        try write(items, to: original, model: v1)
        let inPlaceCopy = dir.appendingPathComponent("inplace.sqlite")
        let alterCopy = dir.appendingPathComponent("alter.sqlite")
        try FileManager.default.copyItem(at: original, to: inPlaceCopy)
        try FileManager.default.copyItem(at: original, to: alterCopy)

        let migrator = StoreMigrator(versions: versions)
        var inPlace = false
        let migrate = try measure { inPlace = try migrator.migrateStore(at: inPlaceCopy, type: .sqlite).allSatisfy(\.inPlace) }
        let alter = try measure {
            let db = try DatabaseQueue(path: alterCopy.path)
            try db.write { db in
                try db.execute(sql: "ALTER TABLE ZTODO ADD COLUMN ZDONOTALERT INTEGER")
                try db.execute(sql: "ALTER TABLE ZTODO ADD COLUMN ZLASTALERTDATE TIMESTAMP")
                try db.execute(sql: "UPDATE ZTODO SET ZDONOTALERT = 0 WHERE Z_ENT = 2")
            }
            try db.close()
        }
        print(String(format: "migrate %d items v1 → v2 %@: %.2f s; plain ALTER TABLE + UPDATE on the same file: %.2f s (ratio %.2f)",
                     items, inPlace ? "in place" : "(general path)", migrate, alter, migrate / alter))

        let policyItems = max(1, items / 10)
        let policyStore = dir.appendingPathComponent("policy.sqlite")
        try write(policyItems, to: policyStore, model: v1)
        let general = try measure {
            _ = try StoreMigrator(versions: versions, mappings: try ToDoStore.bundledMappings()).migrateStore(at: policyStore, type: .sqlite)
        }
        print(String(format: "migrate %d items v1 → v2 with the article's custom policy (general path): %.2f s", policyItems, general))
    }

    static func write(_ items: Int, to url: URL, model: ManagedObjectModel) throws {
        let store = try SQLiteStore(model: model, url: url)
        var start = 0
        while start < items {
            let rows = (start..<min(items, start + 100_000)).map { i in
                StoredRow(objectID: .temporary(entityName: "ToDo"), attributes: [
                    "name": .string(i % 10 == 0 ? "a\(i)" : "item \(i)"), "completed": .bool(false),
                    "dueDate": .date(Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(i))),
                ])
            }
            _ = try store.save(StoreChanges(inserted: rows))
            start += 100_000
        }
        store.close()
    }

    static func measure(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}
