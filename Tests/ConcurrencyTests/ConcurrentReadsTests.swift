import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import Synchronization
import TestSupport

/// Contexts on several threads read one SQLite store at once: a read waits neither for a
/// save in progress nor for another thread's slow read, and a context's slow read can be
/// stopped without touching anyone else's.
@Suite("Concurrent reads")
struct ConcurrentReadsTests {
    static func coordinator(_ name: String) throws -> PersistentStoreCoordinator {
        SQLiteStore.register()
        let url = try Fixtures.temporaryDirectory(name).appendingPathComponent("Store.sqlite")
        let coordinator = PersistentStoreCoordinator(model: try ModelFixtures.toDoModel())
        try coordinator.addStore(type: .sqlite, at: url)
        return coordinator
    }

    @Test("a fetch on one queue is answered while another queue's save is still writing, with the last saved state")
    func readDuringSave() throws {
        let coordinator = try Self.coordinator("read-during-save")
        let seed = ManagedObjectContext(coordinator: coordinator)
        try seed.insertObject(forEntityName: "ToDo")["name"] = "Saved before"
        try seed.save()

        let writer = ManagedObjectContext(coordinator: coordinator, concurrencyType: .privateQueue)
        let writing = DispatchSemaphore(value: 0)
        let saved = Atomic<Bool>(false)
        let done = DispatchSemaphore(value: 0)
        writer.perform {
            for n in 0..<100_000 { try? writer.insertObject(forEntityName: "ToDo")["name"] = .string("new \(n)") }
            writer.observe { if case .willSave = $0 { writing.signal() } }
            try? writer.save()
            saved.store(true, ordering: .sequentiallyConsistent)
            done.signal()
        }
        writing.wait()
        let reader = ManagedObjectContext(coordinator: coordinator, concurrencyType: .privateQueue)
        let (count, whileSaving) = try reader.performAndWait {
            let count = try reader.count(for: FetchRequest(entityName: "ToDo"))
            return (count, !saved.load(ordering: .sequentiallyConsistent))
        }
        done.wait()
        #expect(whileSaving, "the fetch did not wait for the save")
        #expect(count == 1, "it saw the last commit, not the save in progress")
        #expect(try reader.performAndWait { try reader.count(for: FetchRequest(entityName: "ToDo")) } == 100_001)
    }

    @Test("interruptWork stops the slow fetch of one context's queue; another context's fetches go on and succeed")
    func interruptOneQueue() throws {
        let coordinator = try Self.coordinator("interrupt-one")
        let seed = ManagedObjectContext(coordinator: coordinator)
        let list = try seed.insertObject(forEntityName: "Category")
        list["name"] = "All"
        for n in 0..<4_000 {
            let item = try seed.insertObject(forEntityName: "ToDo")
            item["name"] = .string("item \(n)")
            try item.setValue(list, forKey: "category")
        }
        try seed.save()

        // Every item looks through every item of its category: millions of steps.
        let slow = FetchRequest(entityName: "ToDo", predicate: try ObjectPredicate(
            format: "SUBQUERY(category.todos, $t, $t.name CONTAINS 'zzz' AND $t.name != name).@count > 0"))
        let background = ManagedObjectContext(coordinator: coordinator, concurrencyType: .privateQueue)
        let started = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<Int, any Error>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        background.perform {
            started.signal()
            let result = Result { try background.count(for: slow) }
            outcome.withLock { $0 = result }
            finished.signal()
        }
        started.wait()
        // Meanwhile another queue reads, unhindered.
        let other = ManagedObjectContext(coordinator: coordinator, concurrencyType: .privateQueue)
        let names = try other.performAndWait {
            try (0..<20).map { n in try other.fetch(FetchRequest(entityName: "ToDo", predicate: try ObjectPredicate(format: "name == %@", "item \(n)"))).count }
        }
        #expect(names == Array(repeating: 1, count: 20))
        Thread.sleep(forTimeInterval: 0.05)
        #expect(background.interruptWork(), "a block was running")
        finished.wait()
        let result = try #require(outcome.withLock { $0 })
        #expect(throws: (any Error).self, "the slow count was stopped") { try result.get() }
        // The queue goes on: its next fetch works.
        #expect(try background.performAndWait { try background.count(for: FetchRequest(entityName: "ToDo")) } == 4_000)
        #expect(!background.interruptWork(), "nothing runs now")
    }
}
