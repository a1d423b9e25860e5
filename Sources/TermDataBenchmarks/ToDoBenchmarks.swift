import Foundation
import Bindings
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TerminalUI
import ToDoApp

/// The ToDo application and the controllers over a store of a million items.
///
/// `termdata-bench todo` builds the store once (in the temporary folder, reused by later
/// runs), then measures in fresh processes, so memory figures are the application's own:
/// - the time from opening the store to the first frame, and the memory then;
/// - a fetched-results controller: count and first window, a jump to the middle, a re-sort,
///   a filter on a wide range of an indexed key, and the same filter sorted by another key.
///
/// `TERMDATA_BENCH_ITEMS` changes the size (1,000,000).
enum ToDoBenchmarks {
    static var items: Int { ProcessInfo.processInfo.environment["TERMDATA_BENCH_ITEMS"].flatMap(Int.init) ?? 1_000_000 }

    static var storeURL: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("termdata-bench-todo-\(items).sqlite")
    }

    static func run() throws {
        try buildStore()
        for mode in ["todo-first-frame", "todo-controller"] {
            let (status, output) = try runChild(mode)
            print(output, terminator: "")
            if status != 0 { print("(\(mode) exited with \(status))") }
        }
    }

    /// The child measurements, run in processes of their own.
    static func runChild() throws {
        switch CommandLine.arguments.dropFirst().first {
        case "todo-first-frame": try firstFrame()
        case "todo-controller": try controller()
        default: break
        }
    }

    static func buildStore() throws {
        guard !FileManager.default.fileExists(atPath: storeURL.path) else {
            print("store: \(storeURL.path) (reused)")
            return
        }
        let started = Date()
        let versions = try ToDoStore.bundledVersions()
        let store = try SQLiteStore(model: versions.current, url: storeURL)
        var categories: [ManagedObjectID] = []
        let categoryRows = ["Home", "Work", "Errands"].map { name in
            StoredRow(objectID: .temporary(entityName: "Category"), attributes: ["name": .string(name)])
        }
        let made = try store.save(StoreChanges(inserted: categoryRows))
        categories = made.insertedIDs
        let batch = 100_000
        var start = 0
        while start < items {
            let rows = (start..<min(items, start + batch)).map { i in
                StoredRow(objectID: .temporary(entityName: "ToDo"), attributes: [
                    "name": .string("Item \(i)"),
                    "dueDate": .date(Date(timeIntervalSinceReferenceDate: 800_000_000 + Double((i * 7919) % items) * 60)),
                    "completed": .bool(i % 3 == 0), "doNotAlert": .bool(false),
                ], toOne: ["category": categories[i % 3]])
            }
            _ = try store.save(StoreChanges(inserted: rows))
            start += batch
        }
        store.close()
        print(String(format: "store: %d items written in %.1f s to %@", items, Date().timeIntervalSince(started), storeURL.path))
    }

    static func firstFrame() throws {
        let before = residentMemory()
        let started = DispatchTime.now().uptimeNanoseconds
        var store: ToDoStore!
        let opening = try measure { store = try ToDoStore.open(at: storeURL, type: .sqlite) }
        let driver = MemoryDriver(size: Size(width: 120, height: 40))
        var todo: ToDoApplication!
        let building = try measure { todo = try ToDoApplication(store: store, driver: driver) }
        var lines: [String] = []
        let drawing = measure { lines = todo.app.runScript("") }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
        if ProcessInfo.processInfo.environment["TERMDATA_BENCH_DETAIL"] != nil {
            print(String(format: "  open store %.1f ms, build windows %.1f ms, load and draw %.1f ms", opening * 1000, building * 1000, drawing * 1000))
        }
        let jump = measure { todo.app.runScript("G") }
        let after = residentMemory()
        guard lines.contains(where: { $0.contains("Item ") }) else { throw BenchmarkFailure("the first frame shows no items") }
        print(String(format: "ToDo, %d items: open to first frame %.1f ms; G (last row) %.1f ms; memory %.1f MB resident (%.1f MB at start, peak %.1f MB)",
                     items, elapsed, jump * 1000, after / 1e6, before / 1e6, peakMemory() / 1e6))
    }

    static func controller() throws {
        let versions = try ToDoStore.bundledVersions()
        let coordinator = PersistentStoreCoordinator(model: versions.current)
        try coordinator.addStore(type: .sqlite, at: storeURL)
        let context = ManagedObjectContext(coordinator: coordinator)
        let before = residentMemory()
        let results = FetchedResultsController(
            fetchRequest: FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "dueDate")]), context: context)
        results.windowSize = 40
        let first = try measure {
            try results.performFetch()
            for o in try results.objects(in: 0..<40) { _ = o.string("name") }
        }
        let total = results.count
        let middle = try measure {
            for o in try results.objects(in: results.count / 2..<results.count / 2 + 40) { _ = o.string("name") }
        }
        let resort = try measure {
            try results.update(predicate: nil, sortDescriptors: [ObjectSortDescriptor(key: "name", ascending: false)])
            for o in try results.objects(in: 0..<40) { _ = o.string("name") }
        }
        let filtered = try measure {
            try results.update(predicate: try ObjectPredicate(format: "completed == NO AND dueDate > %@", Date(timeIntervalSinceReferenceDate: 800_000_000)),
                               sortDescriptors: [ObjectSortDescriptor(key: "dueDate")])
            for o in try results.objects(in: 0..<40) { _ = o.string("name") }
        }
        // The same filter sorted by another key: SQLite reads every match before the first window.
        let filteredByName = try measure {
            try results.update(predicate: try ObjectPredicate(format: "completed == NO AND dueDate > %@", Date(timeIntervalSinceReferenceDate: 800_000_000)),
                               sortDescriptors: [ObjectSortDescriptor(key: "name")])
            for o in try results.objects(in: 0..<40) { _ = o.string("name") }
        }
        print(String(format: "controller over %d rows: count + first window %.1f ms; jump to the middle %.1f ms; re-sort by name + first window %.1f ms; filter + first window %.1f ms; same filter sorted by name %.1f ms; memory %+.1f MB",
                     total, first * 1000, middle * 1000, resort * 1000, filtered * 1000, filteredByName * 1000, (residentMemory() - before) / 1e6))
    }

    static func measure(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Resident memory in bytes (VmRSS).
    static func residentMemory() -> Double { statusField("VmRSS:") }
    /// Peak resident memory in bytes (VmHWM).
    static func peakMemory() -> Double { statusField("VmHWM:") }

    private static func statusField(_ name: String) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name) }),
              let kb = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kb * 1024
    }

    /// Runs this executable again with one argument, collecting its output.
    private static func runChild(_ mode: String) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = [mode]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// A benchmark whose setting up did not come out as it must for the figures to mean anything.
struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
