import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

/// A store query that takes minutes can be stopped from another thread, and only inside
/// the work marked as interruptible.
@Suite("Interrupting store work")
struct InterruptTests {
    /// A SQLite store of `count` items in one category, and `ToDoFixture.slowFilter`.
    static func slowStore(count: Int) throws -> (PersistentStoreCoordinator, String) {
        SQLiteStore.register()
        let url = try Fixtures.temporaryDirectory("interrupt").appendingPathComponent("Store.sqlite")
        let coordinator = PersistentStoreCoordinator(model: try ModelFixtures.toDoModel())
        try coordinator.addStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let home = try context.insertObject(forEntityName: "Category")
        home["name"] = "Home"
        for n in 0..<count {
            let item = try context.insertObject(forEntityName: "ToDo")
            item["name"] = .string("item \(n)")
            try item.setValue(home, forKey: "category")
        }
        try context.save()
        return (coordinator, ToDoFixture.slowFilter)
    }

    @Test("interruptWork stops a query running inside interruptibly at once; the connection works after it")
    func stopsRunningQuery() throws {
        let (coordinator, slow) = try Self.slowStore(count: 8_000)
        let outcome = LockedBox<(seconds: Double, error: String?)?>(nil)
        let started = DispatchSemaphore(value: 0)
        let thread = Thread {
            let context = ManagedObjectContext(coordinator: coordinator)
            let start = Date()
            started.signal()
            do {
                let request = FetchRequest(entityName: "ToDo", predicate: try ObjectPredicate(format: slow))
                _ = try coordinator.interruptibly { try context.count(for: request) }
                outcome.value = (Date().timeIntervalSince(start), nil)
            } catch {
                outcome.value = (Date().timeIntervalSince(start), "\(error)")
            }
        }
        thread.start()
        started.wait()
        Thread.sleep(forTimeInterval: 0.3)
        #expect(coordinator.interruptWork(), "work was running")
        let deadline = Date().addingTimeInterval(20)
        while outcome.value == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        let result = try #require(outcome.value)
        #expect(result.error == "\(ObjectGraphError.stopped)", "said as stopped: \(String(describing: result.error))")
        #expect(result.seconds < 2, "stopped at once, not after the whole query: \(result.seconds) s")
        // The next query runs as usual.
        let context = ManagedObjectContext(coordinator: coordinator)
        #expect(try context.count(for: FetchRequest(entityName: "ToDo")) == 8_000)
    }

    @Test("outside interruptibly nothing is stopped: a save or a fetch then runs to its end")
    func onlyInsideSections() throws {
        let (coordinator, _) = try Self.slowStore(count: 10)
        #expect(!coordinator.interruptWork(), "no work to stop")
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.insertObject(forEntityName: "ToDo")["name"] = "after"
        try context.save()
        #expect(try context.count(for: FetchRequest(entityName: "ToDo")) == 11)
    }
}
