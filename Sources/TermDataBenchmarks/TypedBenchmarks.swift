import Foundation
import ObjectGraph
import Predicates
import ToDoApp

/// Typed properties of generated classes (the ToDo app's `ToDoItem`) beside the key-based
/// accessors they stand for, and a `#Predicate` fetch beside the same format-string fetch.
///
/// `TERMDATA_BENCH_ITEMS` changes the number of items (100,000).
enum TypedBenchmarks {
    static func run() throws {
        let count = ProcessInfo.processInfo.environment["TERMDATA_BENCH_ITEMS"].flatMap(Int.init) ?? 100_000
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("termdata-bench-typed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ToDoStore.open(at: folder.appendingPathComponent("ToDo.sqlite"), type: .sqlite, seeded: false)
        let context = store.context
        context.undoManager = nil
        for i in 0..<count {
            let item = try context.insert(ToDoItem.self)
            item.name = "item \(i)"
            item.completed = i % 3 == 0
        }
        try context.save()
        let items = Array(try context.fetch(ToDoItem.fetchRequest()))
        var sink = 0
        for item in items { sink &+= item.name.utf8.count }   // every fault fired, for both sides alike

        let rounds = 10
        let keyRead = ObjectGraphBenchmarks.measure {
            for _ in 0..<rounds { for item in items { sink &+= item.string("name")!.utf8.count + (item.bool("completed")! ? 1 : 0) } }
        }
        let typedRead = ObjectGraphBenchmarks.measure {
            for _ in 0..<rounds { for item in items { sink &+= item.name.utf8.count + (item.completed ? 1 : 0) } }
        }
        let keyWrite = ObjectGraphBenchmarks.measure {
            for round in 0..<rounds { for (i, item) in items.enumerated() { item["doNotAlert"] = .bool((i + round) % 2 == 0) } }
        }
        let typedWrite = ObjectGraphBenchmarks.measure {
            for round in 0..<rounds { for (i, item) in items.enumerated() { item.doNotAlert = (i + round) % 2 == 1 } }
        }
        context.rollback()
        let reads = Double(rounds * count * 2), writes = Double(rounds * count)
        print(String(format: "read a String and a Bool of %d items x%d: key-based %.1f ns/read, typed %.1f ns/read (ratio %.2f)",
                     count, rounds, keyRead / reads * 1e9, typedRead / reads * 1e9, typedRead / keyRead))
        print(String(format: "write a Bool of %d items x%d: key-based %.1f ns/write, typed %.1f ns/write (ratio %.2f)",
                     count, rounds, keyWrite / writes * 1e9, typedWrite / writes * 1e9, typedWrite / keyWrite))

        // The same query both ways; what differs is turning Swift's predicate into the model's.
        let fetches = 20
        var counts = (0, 0)
        let formatFetch = try ObjectGraphBenchmarks.measure {
            for _ in 0..<fetches {
                counts.0 = try context.count(for: FetchRequest(entityName: "ToDo",
                                                               predicate: try ObjectPredicate(format: "completed == NO AND name CONTAINS %@", "77")))
            }
        }
        let needle = "77"
        let swiftFetch = try ObjectGraphBenchmarks.measure {
            for _ in 0..<fetches {
                counts.1 = try context.count(for: try FetchRequest<ToDoItem>(#Predicate { !$0.completed && $0.name.contains(needle) }))
            }
        }
        guard counts.0 == counts.1 else { throw BenchmarkFailure("the two fetches disagree: \(counts.0) and \(counts.1)") }
        let translations = 10_000
        let translate = try ObjectGraphBenchmarks.measure {
            for _ in 0..<translations { _ = try ObjectPredicate(#Predicate<ToDoItem> { !$0.completed && $0.name.contains(needle) }) }
        }
        print(String(format: "count %d of %d items matching completed == NO AND name CONTAINS \"77\": format string %.2f ms, #Predicate %.2f ms (ratio %.2f); turning the #Predicate into a predicate alone: %.1f µs",
                     counts.0, count, formatFetch / Double(fetches) * 1e3, swiftFetch / Double(fetches) * 1e3, swiftFetch / formatFetch,
                     translate / Double(translations) * 1e6))
        if sink == 42 { print("") }
    }
}
