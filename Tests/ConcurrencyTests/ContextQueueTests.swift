import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import TestSupport

/// Contexts on queues: where a context may be used, and how work reaches its queue.
@Suite("Contexts on queues")
struct ContextQueueTests {
    struct Refused: Error, Equatable { let reason: String }

    @Test("perform runs on the private queue and returns the closure's value; its error is thrown as it was")
    func performReturnsAndThrows() async throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let background = ManagedObjectContext(coordinator: stack.coordinator, concurrencyType: .privateQueue)
        #expect(!background.isOnQueue)
        let id = try await background.perform {
            #expect(background.isOnQueue)
            let item = try background.insertObject(forEntityName: "ToDo")
            item["name"] = "From the background"
            try background.save()
            return item.objectID
        }
        #expect(id.primaryKey != nil, "saved: a permanent ID")
        await #expect(throws: Refused(reason: "no")) {
            try await background.perform { () throws(Refused) -> Int in throw Refused(reason: "no") }
        }
        // A closure that cannot throw needs no try.
        let count: Int = await background.perform { (try? background.count(for: FetchRequest(entityName: "ToDo"))) ?? -1 }
        #expect(count == 1)
    }

    @Test("performAndWait waits for the queue, runs at once when already on it, and nests across contexts")
    func performAndWaitNests() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let first = ManagedObjectContext(coordinator: stack.coordinator, concurrencyType: .privateQueue)
        let second = ManagedObjectContext(coordinator: stack.coordinator, concurrencyType: .privateQueue)
        let names = try first.performAndWait {
            let item = try first.insertObject(forEntityName: "ToDo")
            item["name"] = "Nested"
            try first.save()
            // On first's queue: its own performAndWait runs at once; second's waits for second's.
            #expect(first.performAndWait { first.isOnQueue })
            return try second.performAndWait {
                // first's block waits for this one, so first's queue is still this block's.
                #expect(second.isOnQueue && first.isOnQueue)
                return try second.fetch(FetchRequest(entityName: "ToDo")).compactMap { $0.string("name") }
            }
        }
        #expect(names == ["Nested"])
    }

    @Test("a confined context runs perform at once on its own thread")
    func confinedPerform() async throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let context = stack.context
        #expect(context.concurrencyType == .confined)
        #expect(context.isOnQueue)
        #expect(try context.performAndWait { try context.count(for: FetchRequest(entityName: "ToDo")) } == 0)
    }

    @Test("the container's background tasks run on contexts of their own and save to the same store")
    func backgroundTasks() async throws {
        let container = PersistentContainer(name: "ToDo", model: try ModelFixtures.toDoModel(),
                                            storeDescriptions: [.init(type: .inMemory, url: nil)])
        try container.loadPersistentStores()
        var saved = 0
        for task in 0..<4 {
            saved += try await container.performBackgroundTask { context in
                #expect(context.concurrencyType == .privateQueue && context.isOnQueue)
                for n in 0..<25 { try context.insertObject(forEntityName: "ToDo")["name"] = .string("task \(task) item \(n)") }
                try context.save()
                return 25
            }
        }
        // Private-queue contexts on one coordinator, saving at the same time.
        let coordinator = container.coordinator
        saved += try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 4..<8 {
                group.addTask {
                    let context = ManagedObjectContext(coordinator: coordinator, concurrencyType: .privateQueue)
                    return try await context.perform {
                        for n in 0..<25 { try context.insertObject(forEntityName: "ToDo")["name"] = .string("task \(task) item \(n)") }
                        try context.save()
                        return 25
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(saved == 200)
        let check = container.newBackgroundContext()
        let names = try await check.perform { try check.fetch(FetchRequest(entityName: "ToDo")).compactMap { $0.string("name") } }
        #expect(Set(names).count == 200)
    }

    @Test("using a private-queue context off its queue traps, naming the call")
    func offQueueTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let model = try ManagedObjectModel(entities: [EntityDescription(name: "Note", attributes: [AttributeDescription(name: "text", type: .string)])])
            let coordinator = PersistentStoreCoordinator(model: model)
            try coordinator.addStore(type: .inMemory)
            let background = ManagedObjectContext(coordinator: coordinator, concurrencyType: .privateQueue)
            _ = try background.count(for: FetchRequest(entityName: "Note"))
        }.map { result in
            let text = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(text.contains("count(for:) was called off the context's queue"), "\(text)")
        }
    }
}
