import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

/// A count or a sorted window over a store, with unsaved changes: the store reads the rows the
/// changes leave alone and the changed objects are placed among them, which must give what
/// reading every match and sorting in memory gives.
@Suite("Unsaved changes folded into counts and windows")
struct FoldedChangesTests {
    @Test("counts and windows at every offset agree with the whole result, after inserts, renames, deletions and changes of match", arguments: [1, 2, 3])
    func windowsAgree(seed: UInt64) throws {
        SQLiteStore.register()
        let url = try Fixtures.temporaryDirectory("folded").appendingPathComponent("Store.sqlite")
        let coordinator = PersistentStoreCoordinator(model: try ModelFixtures.toDoModel())
        try coordinator.addStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        for n in 0..<300 {
            let item = try context.insertObject(forEntityName: "ToDo")
            item["name"] = .string(String(format: "item %03d", n))
            item["completed"] = .bool(n % 4 == 0)
        }
        try context.save()
        context.reset()

        var random = SeededGenerator(seed: seed)
        let items = try context.fetch(FetchRequest(entityName: "ToDo")).map { $0 }
        for (i, item) in items.shuffled(using: &random).prefix(40).enumerated() {
            switch i % 4 {
            case 0: context.delete(item)
            case 1: item["name"] = .string(String(format: "renamed %03d", Int.random(in: 0..<1_000, using: &random)) + "-\(i)")
            case 2: item["completed"] = .bool(!(item.bool("completed") ?? false))
            default: item["name"] = .string(String(format: "item %03d+", Int.random(in: 0..<300, using: &random)) + "\(i)")
            }
        }
        for i in 0..<15 {
            let item = try context.insertObject(forEntityName: "ToDo")
            item["name"] = .string(String(format: "item %03d*", Int.random(in: 0..<300, using: &random)) + "\(i)")
            item["completed"] = .bool(i % 2 == 0)
        }

        for format in [nil, "completed == NO", "name BEGINSWITH 'item 1'"] as [String?] {
            // By name (no two alike), and by completion (most tie: the store's key decides).
            for (key, ascending) in [("name", true), ("name", false), ("completed", true), ("completed", false)] {
                var request = FetchRequest(entityName: "ToDo", predicate: try format.map { try ObjectPredicate(format: $0) },
                                           sortDescriptors: [ObjectSortDescriptor(key: key, ascending: ascending)])
                // The whole result, read and sorted in memory.
                let whole = try context.fetchObjectIDs(request)
                #expect(try context.count(for: request) == whole.count, "count, \(format ?? "all")")
                for limit in [1, 7, 40] {
                    for offset in stride(from: 0, through: whole.count + 3, by: 5) {
                        request.fetchOffset = offset
                        request.fetchLimit = limit
                        let window = try context.fetchObjectIDs(request)
                        let expected = Array(whole[min(offset, whole.count)..<min(whole.count, offset + limit)])
                        #expect(window == expected, "\(format ?? "all"), \(key) \(ascending ? "ascending" : "descending"), offset \(offset), limit \(limit)")
                    }
                }
                request.fetchOffset = 0
                request.fetchLimit = 0
            }
        }
    }
}
