import Foundation
import Testing
import Bindings
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

/// Many writers on queues of their own, one reader following them: nothing lost, nothing
/// twice. Run under ThreadSanitizer by `.ci/run`.
@Suite("Concurrent saves")
struct ConcurrentSavesTests {
    static let writers = 8
    static let objectsPerWriter = 10_000
    static let batch = 1_000

    @Test("8 background contexts each insert and save 10,000 objects while the main context fetches and a fetched-results controller follows")
    func eightWriters() throws {
        SQLiteStore.register()
        let url = try Fixtures.temporaryDirectory("concurrent").appendingPathComponent("Store.sqlite")
        let coordinator = PersistentStoreCoordinator(model: try ModelFixtures.toDoModel())
        try coordinator.addStore(type: .sqlite, at: url)
        let main = ManagedObjectContext(coordinator: coordinator)
        let results = FetchedResultsController(fetchRequest: FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")]),
                                               context: main)
        try results.performFetch()

        // Saves reach the main context as notices, merged on its own thread.
        let notices = LockedBox<[ContextDidSave]>([])
        let observer = coordinator.observeSaves { save in notices.mutate { $0.append(save) } }
        defer { coordinator.removeSaveObserver(observer) }

        let done = DispatchGroup()
        let failures = LockedBox<[String]>([])
        for writer in 0..<Self.writers {
            let context = ManagedObjectContext(coordinator: coordinator, concurrencyType: .privateQueue)
            context.name = "writer \(writer)"
            done.enter()
            context.perform {
                defer { done.leave() }
                do {
                    for start in stride(from: 0, to: Self.objectsPerWriter, by: Self.batch) {
                        for n in start..<(start + Self.batch) {
                            try context.insertObject(forEntityName: "ToDo")["name"] = .string(String(format: "w%d-%05d", writer, n))
                        }
                        try context.save()
                        context.reset()
                    }
                } catch {
                    failures.mutate { $0.append("writer \(writer): \(error)") }
                }
            }
        }

        var counts: [Int] = []
        var merged = 0
        func mergeWaiting() throws {
            var pending: [ContextDidSave] = []
            notices.mutate { pending = $0; $0 = [] }
            for save in pending {
                main.mergeChanges(fromContextDidSave: save)
                merged += save.inserted.count
            }
            // The store may hold saves whose notices have not arrived yet, never fewer; the
            // controller counts again in the store on each merge, so it lies between.
            let following = results.count
            counts.append(try main.count(for: FetchRequest(entityName: "ToDo")))
            #expect(merged <= following && following <= counts.last!, "the controller follows the merged saves")
        }
        while done.wait(timeout: .now() + .milliseconds(20)) == .timedOut { try mergeWaiting() }
        try mergeWaiting()

        #expect(failures.value.isEmpty, "\(failures.value)")
        let total = Self.writers * Self.objectsPerWriter
        #expect(counts.last == total)
        #expect(counts == counts.sorted(), "the count never goes back")
        #expect(counts.count > 2, "the main context read while the writers wrote")
        let names = try main.fetchDictionaries(FetchRequest(entityName: "ToDo", resultType: .dictionaries, propertiesToFetch: [.key("name")]))
            .compactMap { $0["name"]?.stringValue }
        #expect(names.count == total)
        #expect(Set(names).count == total, "no object saved twice")
        #expect(results.count == total)
        #expect(try results.object(at: 0).string("name") == "w0-00000")
        #expect(try results.object(at: total - 1).string("name") == String(format: "w%d-%05d", Self.writers - 1, Self.objectsPerWriter - 1))
    }
}
