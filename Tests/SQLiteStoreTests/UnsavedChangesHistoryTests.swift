import Foundation
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import Testing
import TestSupport

/// The list of unsaved changes says what the save then writes: the store's own history of
/// that save records the same objects, kinds and keys.
@Suite("Unsaved changes against the store's history")
struct UnsavedChangesHistoryTests {
    /// Per object, "kind Entity: keys" (keys of updates only), sorted.
    static func listed(_ changes: [UnsavedChange]) -> [String] {
        var keys: [ObjectIdentifier: (change: UnsavedChange, keys: [String])] = [:]
        for change in changes {
            keys[ObjectIdentifier(change.object), default: (change, [])].keys += change.key.map { [$0] } ?? []
        }
        return keys.values.map { entry in
            let kind = ["inserted": "insert", "updated": "update", "deleted": "delete"]["\(entry.change.kind)"]!
            let properties = entry.change.kind == .updated ? ": " + entry.keys.sorted().joined(separator: ",") : ""
            return "\(kind) \(entry.change.object.entity.name) \(entry.change.object.objectID.uriRepresentation.lastPathComponent)\(properties)"
        }.sorted()
    }

    static func recorded(_ transaction: HistoryTransaction) -> [String] {
        transaction.changes.map { change in
            let type = ["insert", "update", "delete"][change.changeType.rawValue]
            let properties = change.updatedProperties.map { ": " + $0.sorted().joined(separator: ",") } ?? ""
            return "\(type) \(change.changedObjectID.entityName) \(change.changedObjectID.uriRepresentation.lastPathComponent)\(properties)"
        }.sorted()
    }

    @Test("values, a book moved between shelves, a new tag on two books, a new book, a deleted book and a revert: the list is the history")
    func agreesWithHistory() throws {
        let stack = try LibraryModel.stack()
        let context = stack.context
        context.undoManager = UndoStack()
        let (poetry, prose) = (try context.insertObject(forEntityName: "Shelf"), try context.insertObject(forEntityName: "Shelf"))
        poetry["title"] = "Poetry"
        prose["title"] = "Prose"
        var books: [ManagedObject] = []
        for (title, shelf) in [("Odes", poetry), ("Dune", prose), ("Emma", prose), ("Kim", prose)] {
            let book = try context.insertObject(forEntityName: "Book")
            book["title"] = .string(title)
            book["shelf"] = .object(shelf)
            books.append(book)
        }
        try context.save()
        let token = try stack.coordinator.currentHistoryToken()
        context.reset()
        func book(_ title: String) throws -> ManagedObject {
            try #require(try context.fetch(FetchRequest(entityName: "Book", predicate: try ObjectPredicate(format: "title == %@", title))).first)
        }

        try book("Odes")["pages"] = 90
        try book("Dune")["shelf"] = try book("Odes")["shelf"]            // prose's books not read: saved members unknown here
        let tag = try context.insertObject(forEntityName: "Tag")
        tag["label"] = "classic"
        tag["books"] = .set([.object(try book("Emma")), .object(try book("Kim"))])
        let new = try context.insertObject(forEntityName: "Book")
        new["title"] = "Ulysses"
        context.delete(try book("Kim"))
        let emma = try book("Emma")
        emma["title"] = "Emma!"
        try context.revert(try #require(context.unsavedChanges().first { $0.object === emma && $0.key == "title" }))

        let listed = context.unsavedChanges()
        #expect(listed.contains { $0.kind == .updated && $0.key == "books" && $0.oldValue == nil }, "a to-many never read: as saved")
        #expect(!listed.contains { $0.object === emma && $0.key == "title" }, "reverted")
        try context.obtainPermanentIDs(for: Array(context.insertedObjects))
        let before = Self.listed(listed)
        try context.save()
        let history = try stack.coordinator.fetchHistory(HistoryRequest(after: token))
        #expect(history.count == 1)
        let recorded = Self.recorded(try #require(history.first))
        #expect(before == recorded, "listed \(before), recorded \(recorded)")
        #expect(before.count == 8, "\(before)")
    }
}
