import Foundation
import Interchange
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import Testing
import TestSupport

/// Two stores compared through the library, with a many-to-many and small batches.
@Suite("Store diff")
struct StoreDiffTests {
    func library(at url: URL) throws -> ManagedObjectContext {
        SQLiteStore.register()
        let coordinator = PersistentStoreCoordinator(model: try ModelFixtures.libraryModel())
        try coordinator.addStore(type: .sqlite, at: url)
        return ManagedObjectContext(coordinator: coordinator)
    }

    @Test("a many-to-many member added and a book moved show on the objects concerned; batches of two find the same as one batch")
    func manyToMany() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try library(at: folder.appendingPathComponent("a.sqlite"))
        let shelves = try ["Poetry", "Prose"].map { title in
            let shelf = try first.insertObject(forEntityName: "Shelf")
            shelf["title"] = .string(title)
            return shelf
        }
        let tag = try first.insertObject(forEntityName: "Tag")
        tag["label"] = "classic"
        for i in 0..<7 {
            let book = try first.insertObject(forEntityName: "Book")
            book["title"] = .string("Book \(i)")
            book["shelf"] = .object(shelves[i % 2])
        }
        try first.save()
        try first.coordinator.stores[0].copyStore(to: folder.appendingPathComponent("b.sqlite"))
        let second = try library(at: folder.appendingPathComponent("b.sqlite"))
        let books = try second.fetch(FetchRequest(entityName: "Book", sortDescriptors: [ObjectSortDescriptor(key: "title")]))
        books[3]["tags"] = .set([.object(try #require(try second.fetch(FetchRequest(entityName: "Tag")).first))])
        books[5]["shelf"] = .object(try #require(try second.fetch(FetchRequest(entityName: "Shelf")).first { $0["title"] == "Poetry" }))
        second.delete(books[6])
        try second.save()
        second.reset()

        for batch in [2, 5_000] {
            var lines: [String] = []
            let summary = try StoreDiff.compare(first, with: second, batchSize: batch) { lines.append($0.description) }
            #expect(summary == StoreDiff.Summary(added: 0, removed: 1, changed: 3, first: 10, second: 9), "batch \(batch): \(lines)")
            let book3 = books[3].objectID.primaryKey!, book5 = books[5].objectID.primaryKey!
            #expect(lines.contains("changed Book \(book3): tags [] → [Tag 1]"), "\(lines)")
            #expect(lines.contains("changed Book \(book5): shelf Shelf 2 → Shelf 1"), "\(lines)")
            #expect(lines.contains("changed Tag 1: books [] → [Book \(book3)]"), "the tag's side of the many-to-many")
            #expect(lines.contains { $0.hasPrefix("removed Book \(books[6].objectID.primaryKey!): ") && $0.contains("title=“Book 6”") })
            #expect(!lines.contains { $0.hasPrefix("changed Shelf") }, "a shelf's books show in the books' shelves")
        }
    }
}
