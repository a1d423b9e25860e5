import Foundation
import Synchronization
import Testing
import ObjectGraph
import ObjectModel
import SQLiteStore
import TestSupport

/// `performAndWait` nested across contexts: a block holds its queue until it returns, so a
/// context whose queue the calling thread already holds is used at once, as Core Data does,
/// instead of waiting for a queue that waits for it.
@Suite("performAndWait nested across contexts")
struct NestedPerformTests {
    @MainActor
    @Test("a private-queue child saved through performAndWait on the main actor pushes into its main-queue parent")
    func mainQueueParentPrivateChild() throws {
        let (coordinator, _) = try ParentChildContextTests.stack(.sqlite)
        let parent = ManagedObjectContext(coordinator: coordinator, concurrencyType: .mainQueue)
        let child = ManagedObjectContext(parent: parent, concurrencyType: .privateQueue)
        // The child reads through its parent (rows) and saves into it (the push): both reach
        // the main-queue parent from a block the main actor waits for.
        let names = try child.performAndWait {
            try child.insertObject(forEntityName: "ToDo")["name"] = "Bread"
            try ParentChildContextTests.item("Milk", in: child)["name"] = "Oat milk"
            try child.save()
            return try ParentChildContextTests.names(child)
        }
        #expect(names == ["Bread", "Oat milk", "Rent"])
        #expect(parent.insertedObjects.count == 1 && parent.updatedObjects.count == 1)
        try parent.save()
        #expect(try ParentChildContextTests.stored(coordinator) == ["Bread", "Oat milk", "Rent"])
    }

    @Test("a grandchild's block reaches its private-queue parent and grandparent from another thread")
    func threeLevelsFromAnotherThread() async throws {
        let (coordinator, _) = try ParentChildContextTests.stack(.sqlite)
        let root = ManagedObjectContext(coordinator: coordinator, concurrencyType: .privateQueue)
        let middle = ManagedObjectContext(parent: root, concurrencyType: .privateQueue)
        let leaf = ManagedObjectContext(parent: middle, concurrencyType: .privateQueue)
        let names = try await Task.detached {
            try leaf.performAndWait {
                try leaf.insertObject(forEntityName: "ToDo")["name"] = "Tea"
                try leaf.save()
                // The middle context is used from inside the leaf's block: its own
                // performAndWait nests, and its save reaches the root from there.
                try middle.performAndWait { try middle.save() }
                return try ParentChildContextTests.names(leaf)
            }
        }.value
        #expect(names == ["Milk", "Rent", "Tea"])
        try await root.perform { try root.save() }
        #expect(try ParentChildContextTests.stored(coordinator) == ["Milk", "Rent", "Tea"])
    }

    @Test("a block that holds one queue does not make another thread's work count as on it")
    func heldQueueIsTheThreadsOwn() async throws {
        let (coordinator, _) = try ParentChildContextTests.stack(.sqlite)
        let parent = ManagedObjectContext(coordinator: coordinator, concurrencyType: .privateQueue)
        let child = ManagedObjectContext(parent: parent, concurrencyType: .privateQueue)
        let seen = parent.performAndWait {
            let here = child.performAndWait { parent.isOnQueue }
            // Another thread, while this one waits in the parent's block.
            let elsewhere = Mutex(true)
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                elsewhere.withLock { $0 = parent.isOnQueue }
                done.signal()
            }
            done.wait()
            return (here: here, elsewhere: elsewhere.withLock { $0 })
        }
        #expect(seen.here, "inside the child's block the thread still holds the parent's queue")
        #expect(!seen.elsewhere, "another thread does not hold the parent's queue")
        #expect(!parent.isOnQueue && !child.isOnQueue)
    }
}
