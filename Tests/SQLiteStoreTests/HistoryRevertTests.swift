import Foundation
import GRDB
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import Testing
import TestSupport

/// The values each change replaced, and a transaction taken back by them.
@Suite("History: values before, and a transaction taken back")
struct HistoryRevertTests {
    /// The library on a SQLite store that keeps history.
    static func library() throws -> LibraryFixture {
        let stack = try LibraryModel.stack()
        return try LibraryFixture(coordinator: stack.coordinator, context: stack.context)
    }

    static func id(_ value: ObjectValue?) -> ManagedObjectID? { LibraryFixture.id(value) }
    static func members(_ object: ManagedObject, _ key: String) -> Set<ManagedObjectID> { LibraryFixture.members(object, key) }

    @Test("an update keeps the values it replaced — attributes and a to-one — and a delete every value with its many-to-many members")
    func previousValues() throws {
        let library = try Self.library()
        let moved = try library.save { context in
            let dune = try context.existingObject(with: library.dune)
            dune["title"] = "Dune Messiah"
            dune["pages"] = 256
            dune["shelf"] = .object(try context.existingObject(with: library.prose))
            dune["tags"] = .set([.object(try context.existingObject(with: library.scifi))])
        }
        let update = try library.change(of: library.dune, in: moved)
        #expect(update.updatedProperties == ["title", "pages", "shelf", "tags"])
        let previous = try #require(update.previousValues)
        #expect(previous["title"] == "Dune")
        #expect(previous["pages"] == 412)
        #expect(Self.id(previous["shelf"]) == library.poetry)
        #expect(previous.count == 3, "only what changed: \(previous)")
        #expect(update.left["tags"] == [library.classic])
        #expect(update.joined["tags"] == nil)
        // The tag's side of the many-to-many says it too.
        #expect(try library.change(of: library.classic, in: moved).left["books"] == [library.dune])

        let deleted = try library.save { context in context.delete(try context.existingObject(with: library.dune)) }
        let delete = try library.change(of: library.dune, in: deleted)
        let kept = try #require(delete.previousValues)
        #expect(kept["title"] == "Dune Messiah")
        #expect(kept["pages"] == 256)
        #expect(kept["isbn"] == .null)
        #expect(Self.id(kept["shelf"]) == library.prose)
        #expect(delete.left["tags"] == [library.scifi])
    }

    @Test("taking back an update restores its values, its to-one and its many-to-many, in a transaction of its own")
    func revertUpdate() throws {
        let library = try Self.library()
        let moved = try library.save(author: "importer") { context in
            let dune = try context.existingObject(with: library.dune)
            dune["title"] = "Dune Messiah"
            dune["shelf"] = .object(try context.existingObject(with: library.prose))
            dune["tags"] = .set([.object(try context.existingObject(with: library.scifi))])
        }
        // A later change of another key does not stand in the way.
        _ = try library.save { context in try context.existingObject(with: library.dune)["pages"] = 500 }

        let plan = try library.coordinator.planRevert(of: moved)
        #expect(plan.conflicts.isEmpty)
        #expect(plan.transaction.author == "importer")
        let step = try #require(plan.steps.first { $0.objectID == library.dune })
        #expect(step.kind == .restore)
        #expect(step.values.first { $0.key == "title" }.map { [$0.now, $0.restored] } == ["Dune Messiah", "Dune"])

        let number = try #require(try library.coordinator.revert(plan))
        let dune = try library.object(library.dune)
        #expect(dune["title"] == "Dune")
        #expect(dune["pages"] == 500, "a later change of another key stays")
        #expect(Self.id(dune["shelf"]) == library.poetry)
        #expect(Self.members(dune, "tags") == [library.classic, library.scifi])
        #expect(Self.members(try library.object(library.poetry), "books") == [library.dune])

        let history = try library.coordinator.fetchHistory(HistoryRequest())
        let revert = try #require(history.last)
        #expect(revert.transactionNumber == number)
        #expect(revert.author == "termdata revert")
        #expect(revert.contextName == "revert of transaction \(moved)")
    }

    @Test("a value changed again later refuses the revert, naming the later transaction, and the store is left as it was")
    func conflict() throws {
        let library = try Self.library()
        let renamed = try library.save { context in try context.existingObject(with: library.dune)["title"] = "Dune Messiah" }
        let again = try library.save(author: "editor") { context in try context.existingObject(with: library.dune)["title"] = "Children of Dune" }

        let plan = try library.coordinator.planRevert(of: renamed)
        let conflict = try #require(plan.conflicts.first)
        #expect(plan.conflicts.count == 1)
        #expect(conflict.objectID == library.dune)
        #expect(conflict.keys == ["title"])
        #expect(conflict.later.transactionNumber == again.transactionNumbers.first?.value)
        #expect(conflict.description.contains("(editor) changed title after"))
        #expect(throws: HistoryRevertError.self) { try library.coordinator.revert(plan) }
        #expect(try library.object(library.dune)["title"] == "Children of Dune")
        #expect(try library.coordinator.currentHistoryToken() == again, "no transaction written")
    }

    @Test("taking back a delete makes the object again under its ID, with its values, shelf and tags")
    func revertDelete() throws {
        let library = try Self.library()
        let deleted = try library.save { context in context.delete(try context.existingObject(with: library.dune)) }
        #expect(!library.exists(library.dune))

        let plan = try library.coordinator.planRevert(of: deleted)
        #expect(plan.steps.map(\.kind).contains(.recreate))
        try library.coordinator.revert(plan)
        let dune = try library.object(library.dune)
        #expect(dune["title"] == "Dune")
        #expect(dune["pages"] == 412)
        #expect(Self.id(dune["shelf"]) == library.poetry)
        #expect(Self.members(dune, "tags") == [library.classic, library.scifi])
        #expect(Self.members(try library.object(library.classic), "books") == [library.dune])
    }

    @Test("taking back an insert removes what it inserted, unless a later transaction changed it")
    func revertInsert() throws {
        let library = try Self.library()
        var emma: ManagedObjectID?
        let added = try library.save { context in
            let book = try context.insertObject(forEntityName: "Book")
            book["title"] = "Emma"
            book["shelf"] = .object(try context.existingObject(with: library.prose))
            try context.obtainPermanentIDs(for: [book])
            emma = book.objectID
        }
        let emmaID = try #require(emma)
        let plan = try library.coordinator.planRevert(of: added)
        #expect(plan.conflicts.isEmpty)
        #expect(plan.steps.contains { $0.kind == .remove && $0.objectID == emmaID })
        try library.coordinator.revert(plan)
        #expect(!library.exists(emmaID))
        #expect(Self.members(try library.object(library.prose), "books").isEmpty)

        // Inserted, then changed: refused.
        let again = try library.save { context in
            let book = try context.insertObject(forEntityName: "Book")
            book["title"] = "Kim"
            try context.obtainPermanentIDs(for: [book])
            emma = book.objectID
        }
        let kim = try #require(emma)
        _ = try library.save { context in try context.existingObject(with: kim)["pages"] = 300 }
        let refused = try library.coordinator.planRevert(of: again)
        #expect(refused.conflicts.map(\.objectID) == [kim])
        #expect(throws: HistoryRevertError.self) { try library.coordinator.revert(refused) }
        #expect(try library.object(kim)["title"] == "Kim")
    }

    @Test("another program's plain SQL is recorded with the values it replaced, and can be taken back")
    func plainSQL() throws {
        let library = try Self.library()
        let other = try DatabaseQueue(path: try #require(library.coordinator.stores.first?.url).path)
        try other.write { db in try db.execute(sql: "UPDATE ZBOOK SET ZTITLE = 'Dune (abridged)', ZPAGES = 99") }
        // The next save files the other program's change under a transaction of its own.
        _ = try library.save { context in try context.existingObject(with: library.poetry)["title"] = "Verse" }
        let history = try library.coordinator.fetchHistory(HistoryRequest())
        let stray = try #require(history.first { $0.changes.contains { $0.changedObjectID == library.dune && $0.changeType == .update } })
        #expect(stray.author == nil)
        let update = try #require(stray.changes.first { $0.changedObjectID == library.dune })
        #expect(update.previousValues == ["title": "Dune", "pages": 412])

        try library.coordinator.revert(try library.coordinator.planRevert(of: stray.token))
        let dune = try library.object(library.dune)
        #expect(dune["title"] == "Dune")
        #expect(dune["pages"] == 412)
        #expect(try library.object(library.poetry)["title"] == "Verse", "the other transaction stays")
    }

    @Test("history a store recorded before it kept values cannot be taken back, and says why")
    func valuesNotKept() throws {
        let library = try Self.library()
        let renamed = try library.save { context in try context.existingObject(with: library.dune)["title"] = "Dune Messiah" }
        let raw = try DatabaseQueue(path: try #require(library.coordinator.stores.first?.url).path)
        try raw.write { db in try db.execute(sql: "DELETE FROM TDHISTORYVALUE") }
        #expect(try library.change(of: library.dune, in: renamed).previousValues == nil)
        do {
            _ = try library.coordinator.planRevert(of: renamed)
            Issue.record("planned without the values")
        } catch let error as HistoryRevertError {
            #expect(error.description.contains("did not keep the values transaction"))
        }
    }

    @Test("trimming the history removes the values and members its changes kept, and later changes keep theirs")
    func trimmingRemovesValues() throws {
        let library = try Self.library()
        let moved = try library.save { context in
            let dune = try context.existingObject(with: library.dune)
            dune["title"] = "Dune Messiah"
            dune["tags"] = .set([])
        }
        let renamed = try library.save { context in try context.existingObject(with: library.dune)["title"] = "Children of Dune" }
        let url = try #require(library.coordinator.stores.first?.url)
        func counts() throws -> (values: Int, members: Int) {
            let rows = try SQLiteTestStack.rawRows(url, "SELECT (SELECT COUNT(*) FROM TDHISTORYVALUE), (SELECT COUNT(*) FROM TDHISTORYMEMBER)")
            return (rows[0][0], rows[0][1])
        }
        let before = try counts()
        #expect(before.values >= 2 && before.members >= 2, "\(before)")
        try library.coordinator.deleteHistory(through: moved)
        let after = try counts()
        #expect(after.members == 0, "the join rows the trimmed transactions removed")
        #expect(after.values == 1, "only the later rename's old title is left: \(after)")
        #expect(try library.change(of: library.dune, in: renamed).previousValues == ["title": "Dune Messiah"])
    }
}
