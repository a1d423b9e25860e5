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
/// - keys while a slow filter runs in the background: the time from a key to its frame;
/// - frames while a background context inserts 100,000 items and the table scrolls;
/// - keys while File ▸ Import… adds 150,000 items, and while a category of a third of the
///   items is deleted (on a copy of the store);
/// - the category panel: keys between categories of a third of the items each.
///
/// `TERMDATA_BENCH_ITEMS` changes the size (1,000,000).
enum ToDoBenchmarks {
    static var items: Int { ProcessInfo.processInfo.environment["TERMDATA_BENCH_ITEMS"].flatMap(Int.init) ?? 1_000_000 }

    static var storeURL: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("termdata-bench-todo-\(items).sqlite")
    }

    static func run() throws {
        try buildStore()
        for mode in ["todo-first-frame", "todo-controller", "todo-busy-keys", "todo-busy-frames", "todo-busy-import", "todo-busy-delete", "todo-categories"] {
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
        case "todo-busy-keys": try keysWhileFiltering()
        case "todo-busy-frames": try framesWhileInserting()
        case "todo-busy-import": try keysWhileImporting()
        case "todo-busy-delete": try keysWhileDeletingCategory()
        case "todo-categories": try categoryPanel()
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
        // An unsaved change: the controller folds it into the store's windows.
        let edit = measure { todo.app.runScript("g ") }
        let move = measure { todo.app.runScript("jjjjjjjjjj") } / 10
        guard store.context.hasChanges else { throw BenchmarkFailure("Space changed nothing") }
        print(String(format: "ToDo, %d items: open to first frame %.1f ms; G (last row) %.1f ms; memory %.1f MB resident (%.1f MB at start, peak %.1f MB); with one unsaved change: g and Space %.1f ms, then j %.1f ms",
                     items, elapsed, jump * 1000, after / 1e6, before / 1e6, peakMemory() / 1e6, edit * 1000, move * 1000))
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

    /// Keys pressed while a regular-expression filter reads every row in the background: the
    /// time from each key to its frame, and the filter's own time.
    static func keysWhileFiltering() throws {
        let store = try ToDoStore.open(at: storeURL, type: .sqlite)
        let todo = try ToDoApplication(store: store, driver: MemoryDriver(size: Size(width: 120, height: 40)))
        todo.app.runScript("")
        // The same keys with nothing running, for comparison.
        var idle = (0..<30).map { _ in measure { todo.app.runScript("j") } } + (0..<30).map { _ in measure { todo.app.runScript("k") } }
        idle.sort()
        let started = DispatchTime.now().uptimeNanoseconds
        todo.app.runScript("/name MATCHES '.*9.*9.*9.*'<Enter>", waitingForWork: false)
        var times: [Double] = []
        // Down the table, then help open and closed, while the filter runs.
        let keys = Array(repeating: "j", count: 30) + ["?", "<Esc>"] + Array(repeating: "k", count: 10)
        for key in keys where todo.app.isWorking {
            times.append(measure { todo.app.runScript(key, waitingForWork: false) })
        }
        let answered = times.count
        guard todo.app.isWorking else { throw BenchmarkFailure("the filter ended before the keys did (\(answered) keys)") }
        todo.app.waitForWork(timeout: 600)
        let filtering = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        times.sort()
        print(String(format: "keys while a MATCHES filter reads %d rows in the background: %d keys, key to frame median %.2f ms, max %.2f ms (idle: median %.2f ms, max %.2f ms); the filter took %.1f s (%d matches)",
                     items, answered, times[times.count / 2] * 1000, times.last! * 1000, idle[idle.count / 2] * 1000, idle.last! * 1000,
                     filtering, todo.items.arrangedCount))
    }

    /// The table scrolled while a background context inserts 100,000 items, saving every
    /// 1,000: the time of each frame.
    static func framesWhileInserting() throws {
        let store = try ToDoStore.open(at: storeURL, type: .sqlite)
        let todo = try ToDoApplication(store: store, driver: MemoryDriver(size: Size(width: 120, height: 40)))
        todo.app.runScript("")
        let writer = ManagedObjectContext(coordinator: store.coordinator, concurrencyType: .privateQueue)
        let done = DispatchSemaphore(value: 0)
        let started = DispatchTime.now().uptimeNanoseconds
        writer.perform {
            do {
                for batch in 0..<100 {
                    for n in 0..<1_000 { try writer.insertObject(forEntityName: "ToDo")["name"] = .string("Inserted \(batch)-\(n)") }
                    try writer.save()
                    writer.reset()
                }
            } catch {
                print("insert failed: \(error)")
            }
            done.signal()
        }
        var frames: [Double] = []
        var key = "j"
        while done.wait(timeout: .now()) == .timedOut {
            frames.append(measure { todo.app.runScript(key, waitingForWork: false) })
            if frames.count % 50 == 0 { key = key == "j" ? "k" : "j" }
        }
        let inserting = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        guard !frames.isEmpty else { throw BenchmarkFailure("no frame was drawn while inserting") }
        frames.sort()
        let over = frames.filter { $0 > 0.016 }.count
        print(String(format: "frames while a background context inserts 100,000 items (%.1f s): %d frames, median %.2f ms, max %.2f ms, %d over 16 ms",
                     inserting, frames.count, frames[frames.count / 2] * 1000, frames.last! * 1000, over))
        // The rows written stay out of the next runs' store.
        let cleanup = ManagedObjectContext(coordinator: store.coordinator)
        let inserted = try cleanup.fetchObjectIDs(FetchRequest(entityName: "ToDo", predicate: try ObjectPredicate(format: "name BEGINSWITH 'Inserted '")))
        for id in inserted { cleanup.delete(cleanup.object(with: id)) }
        try cleanup.save()
    }

    /// Keys pressed while File ▸ Import… reads a graph file of 150,000 items and saves them
    /// to the store: the time from each key to its frame, the import's own time, and keys
    /// after it.
    static func keysWhileImporting() throws {
        let count = 150_000
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("termdata-bench-import-\(count).json")
        var json = #"{"format": "termdata-graph", "version": 1, "entities": {"ToDo": ["#
        json += (0..<count).map { #"{"@id": "t\#($0)", "name": "Imported item number \#($0)", "completed": \#($0 % 2 == 0)}"# }
            .joined(separator: ",")
        json += "]}}"
        try Data(json.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let store = try ToDoStore.open(at: storeURL, type: .sqlite)
        let todo = try ToDoApplication(store: store, driver: MemoryDriver(size: Size(width: 120, height: 40)))
        todo.app.runScript("")
        let started = DispatchTime.now().uptimeNanoseconds
        todo.app.perform("todo.import")
        todo.app.runScript(file.path + "<Enter>", waitingForWork: false)
        var times: [Double] = []
        var key = "j"
        while todo.app.isWorking {
            times.append(measure { todo.app.runScript(key, waitingForWork: false) })
            if times.count % 20 == 0 { key = key == "j" ? "k" : "j" }
            if Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9 > 600 { throw BenchmarkFailure("the import did not end") }
        }
        let importing = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let imported = try ManagedObjectContext(coordinator: store.coordinator).fetchObjectIDs(
            FetchRequest(entityName: "ToDo", predicate: try ObjectPredicate(format: "name BEGINSWITH 'Imported item '")))
        guard imported.count == count else { throw BenchmarkFailure("\(imported.count) objects imported, not \(count)") }
        times.sort()
        let over = times.filter { $0 > 0.05 }.count
        // Keys once the import is in.
        var after = (0..<20).map { _ in measure { todo.app.runScript("j") } } + (0..<20).map { _ in measure { todo.app.runScript("k") } }
        after.sort()
        print(String(format: "keys while File ▸ Import… adds %d items (%.1f s): %d keys, key to frame median %.2f ms, max %.1f ms, %d over 50 ms; then median %.2f ms, max %.1f ms",
                     count, importing, times.count, times[times.count / 2] * 1000, times.last! * 1000, over,
                     after[after.count / 2] * 1000, after.last! * 1000))
        // The rows written stay out of the next runs' store.
        let cleanup = ManagedObjectContext(coordinator: store.coordinator)
        for id in imported { cleanup.delete(cleanup.object(with: id)) }
        try cleanup.save()
    }

    /// Keys pressed while a category of a third of the items is deleted (in the background,
    /// saved at once), on a copy of the store: the time from each key to its frame, and the
    /// delete's own time.
    static func keysWhileDeletingCategory() throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("termdata-bench-delete-\(UUID().uuidString).sqlite")
        try FileManager.default.copyItem(at: storeURL, to: copy)
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy.path + suffix) } }
        let store = try ToDoStore.open(at: copy, type: .sqlite)
        let todo = try ToDoApplication(store: store, driver: MemoryDriver(size: Size(width: 120, height: 40)))
        todo.app.runScript("c")
        let home = try store.context.fetch(FetchRequest(entityName: "Category", predicate: try ObjectPredicate(format: "name == 'Home'")))
        guard let category = home.first else { throw BenchmarkFailure("no Home category") }
        todo.categories.setSelectedObjects([category])
        let started = DispatchTime.now().uptimeNanoseconds
        let asking = measure { todo.app.runScript("d") }
        todo.app.runScript("<Enter>", waitingForWork: false)
        guard todo.app.isWorking else { throw BenchmarkFailure("the delete did not run in the background") }
        // The panel closed: the keys move through the items.
        todo.app.runScript("c", waitingForWork: false)
        var times: [Double] = []
        var key = "j"
        while todo.app.isWorking {
            times.append(measure { todo.app.runScript(key, waitingForWork: false) })
            if times.count % 20 == 0 { key = key == "j" ? "k" : "j" }
        }
        let deleting = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let left = try ManagedObjectContext(coordinator: store.coordinator).count(for: FetchRequest(entityName: "ToDo", predicate: try ObjectPredicate(format: "category == nil")))
        guard left >= items / 3 else { throw BenchmarkFailure("\(left) items without a category after the delete") }
        times.sort()
        print(String(format: "keys while deleting a category of %d items (%.1f s, the question %.1f ms): %d keys, key to frame median %.2f ms, max %.1f ms, %d over 50 ms",
                     left, deleting, asking * 1000, times.count, times[times.count / 2] * 1000, times.last! * 1000, times.filter { $0 > 0.05 }.count))
    }

    /// The category panel: keys moving between categories of a third of the items each, the
    /// items of the selected one shown beside them, sorted by due date.
    static func categoryPanel() throws {
        let store = try ToDoStore.open(at: storeURL, type: .sqlite)
        let todo = try ToDoApplication(store: store, driver: MemoryDriver(size: Size(width: 120, height: 40)))
        todo.app.runScript("")
        let opening = measure { todo.app.runScript("c") }
        var times: [Double] = [], shown: [Double] = []
        for key in Array(repeating: "j", count: 2) + Array(repeating: "k", count: 2) + Array(repeating: "j", count: 2) {
            let started = DispatchTime.now().uptimeNanoseconds
            times.append(measure { todo.app.runScript(key, waitingForWork: false) })
            todo.app.waitForWork(timeout: 600)
            todo.app.runScript("")
            shown.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
            guard todo.categoryItems.arrangedCount >= items / 3 else { throw BenchmarkFailure("\(todo.categoryItems.arrangedCount) items shown") }
        }
        times.sort()
        shown.sort()
        print(String(format: "category panel over %d items: open %.1f ms; a key to the next category: median %.1f ms, max %.1f ms; its items shown after median %.1f ms, max %.1f ms",
                     items, opening * 1000, times[times.count / 2] * 1000, times.last! * 1000, shown[shown.count / 2] * 1000, shown.last! * 1000))
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
