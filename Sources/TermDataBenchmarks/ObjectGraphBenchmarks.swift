import Foundation
import ObjectModel
import ObjectGraph
import Migration
import Predicates
import ToDoApp

/// Inserting, saving, fetching and migrating with the atomic stores.
enum ObjectGraphBenchmarks {
    static func run() throws {
        let count = Int(ProcessInfo.processInfo.environment["TERMDATA_BENCH_OBJECTS"] ?? "") ?? 100_000
        let versions = try ToDoStore.bundledVersions()
        let v1 = versions.version(named: "ToDo")!
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("termdata-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        for type in [StoreType.binary, .xml] {
            let url = folder.appendingPathComponent("todo.\(type.rawValue)")
            let coordinator = PersistentStoreCoordinator(model: v1)
            try coordinator.addStore(type: type, at: url)
            let context = ManagedObjectContext(coordinator: coordinator)
            let insert = try measure {
                for i in 0..<count {
                    let item = try context.insertObject(forEntityName: "ToDo")
                    item["name"] = .string("item \(i)")
                    item["dueDate"] = .date(Date(timeIntervalSinceReferenceDate: Double(i)))
                }
            }
            let save = try measure { try context.save() }
            let reader = ManagedObjectContext(coordinator: coordinator)
            var fetched: FetchedObjects = []
            let fetch = try measure { fetched = try reader.fetch(FetchRequest(entityName: "ToDo")) }
            let touch = measure { for o in fetched { _ = o.string("name") } }
            let filtered = try measure {
                var request = FetchRequest(entityName: "ToDo", predicate: try ObjectPredicate(format: "name BEGINSWITH 'item 9'"),
                                           sortDescriptors: [ObjectSortDescriptor(key: "dueDate", ascending: false)])
                request.fetchLimit = 50
                _ = try reader.fetch(request)
            }
            let v2 = try ModelVersions(versions: versions.versions, currentVersionName: "ToDo 2")
            let migrate = try measure { try StoreMigrator(versions: v2).migrateStore(at: url, type: type) }
            print(String(format: "%@ store, %d objects: insert %.2f s, save %.2f s, fetch as faults %.2f s, fire faults %.2f s, filtered+sorted+limit 50 %.3f s, migrate v1→v2 %.2f s",
                         type.rawValue, count, insert, save, fetch, touch, filtered, migrate))
        }
        try relationships(v1: v1)
        try performCost(v1: v1)
    }

    /// What reaching a context through its queue costs: a count of an empty in-memory store
    /// called directly on a confined context, through performAndWait on it (on its thread
    /// already), and through performAndWait on a private-queue context from another thread.
    static func performCost(v1: ManagedObjectModel) throws {
        let calls = Int(ProcessInfo.processInfo.environment["TERMDATA_BENCH_PERFORMS"] ?? "") ?? 100_000
        let coordinator = PersistentStoreCoordinator(model: v1)
        try coordinator.addStore(type: .inMemory)
        let confined = ManagedObjectContext(coordinator: coordinator)
        let background = ManagedObjectContext(coordinator: coordinator, concurrencyType: .privateQueue)
        let request = FetchRequest(entityName: "Category")
        var total = 0
        let direct = try measure { for _ in 0..<calls { total += try confined.count(for: request) } }
        let inline = try measure { for _ in 0..<calls { total += try confined.performAndWait { try confined.count(for: request) } } }
        let queued = try measure { for _ in 0..<calls { total += try background.performAndWait { try background.count(for: request) } } }
        precondition(total == 0)
        print(String(format: "%d counts: direct %.0f ns each, performAndWait on a confined context %.0f ns, on a private queue from another thread %.0f ns (%.0f ns over direct)",
                     calls, direct * 1e9 / Double(calls), inline * 1e9 / Double(calls), queued * 1e9 / Double(calls),
                     (queued - direct) * 1e9 / Double(calls)))
    }

    /// One category holding many items: filling the to-many through the items' inverse,
    /// deleting the category (its nullify rule empties each item's category), undo and redo.
    static func relationships(v1: ManagedObjectModel) throws {
        let count = Int(ProcessInfo.processInfo.environment["TERMDATA_BENCH_MEMBERS"] ?? "") ?? 100_000
        let coordinator = PersistentStoreCoordinator(model: v1)
        try coordinator.addStore(type: .inMemory)
        let context = ManagedObjectContext(coordinator: coordinator)
        context.undoManager = UndoStack()
        let category = try context.insertObject(forEntityName: "Category")
        category["name"] = .string("Home")
        try context.save()
        let fill = try measure {
            for i in 0..<count {
                let item = try context.insertObject(forEntityName: "ToDo")
                item["name"] = .string("item \(i)")
                try item.setValue(category, forKey: "category")
            }
            try context.save()
        }
        context.undoManager?.removeAllActions()
        let delete = measure {
            context.delete(category)
            context.processPendingChanges()
        }
        let undo = measure { context.undo() }
        let redo = measure { context.redo() }
        print(String(format: "one category, %d items: fill and save %.2f s, delete the category %.2f s, undo %.2f s, redo %.2f s",
                     count, fill, delete, undo, redo))
        // Every item deleted at once: each runs its delete rules at the end of the event.
        let items = Array(try context.fetch(FetchRequest(entityName: "ToDo")))
        let deleteAll = measure {
            for item in items { context.delete(item) }
            context.processPendingChanges()
        }
        print(String(format: "%d items deleted at once: %.2f s", items.count, deleteAll))
    }

    static func measure(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}
