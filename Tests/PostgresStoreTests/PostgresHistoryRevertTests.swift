import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import PostgresStore
import TestSupport

/// What each change replaced, and a transaction taken back, on a real PostgreSQL server.
@Suite("History: values before, and a transaction taken back, on PostgreSQL")
struct PostgresHistoryRevertTests {
    /// The library on a PostgreSQL store that keeps history, and its stack.
    static func library() throws -> (LibraryFixture, PostgresTestStack) {
        var options = StoreOptions()
        options.tracksHistory = true
        let stack = try PostgresTestStack(model: try ModelFixtures.libraryModel(), options: options)
        return (try LibraryFixture(coordinator: stack.coordinator, context: stack.context), stack)
    }

    static let published = LibraryFixture.published
    static func id(_ value: ObjectValue?) -> ManagedObjectID? { LibraryFixture.id(value) }
    static func members(_ object: ManagedObject, _ key: String) -> Set<ManagedObjectID> { LibraryFixture.members(object, key) }

    @Test("an update keeps what it replaced — text, a number, a date, a decimal, bytes, a to-one, a many-to-many member — and a revert restores it all in a transaction of its own")
    func revertUpdate() throws {
        let (library, _) = try Self.library()
        let moved = try library.save(author: "importer") { context in
            let dune = try context.existingObject(with: library.dune)
            dune["title"] = "Dune Messiah"
            dune["pages"] = 256
            dune["published"] = .date(Date(timeIntervalSince1970: 0))
            dune["price"] = .decimal(1)
            dune["cover"] = .data(Data([1, 2, 3]))
            dune["shelf"] = .object(try context.existingObject(with: library.prose))
            dune["tags"] = .set([.object(try context.existingObject(with: library.scifi))])
        }
        let update = try #require(try library.transaction(moved).changes.first { $0.changedObjectID == library.dune })
        let previous = try #require(update.previousValues)
        #expect(previous["title"] == "Dune")
        #expect(previous["pages"] == 412)
        #expect(previous["published"] == .date(Self.published))
        #expect(previous["price"] == .decimal(LibraryFixture.price))
        #expect(previous["cover"] == .data(LibraryFixture.cover))
        #expect(Self.id(previous["shelf"]) == library.poetry)
        #expect(update.left["tags"] == [library.classic])

        let plan = try library.coordinator.planRevert(of: moved)
        #expect(plan.conflicts.isEmpty)
        let number = try #require(try library.coordinator.revert(plan))
        let dune = try library.object(library.dune)
        #expect(dune["title"] == "Dune")
        #expect(dune["pages"] == 412)
        #expect(dune["published"] == .date(Self.published))
        #expect(dune["price"] == .decimal(LibraryFixture.price))
        #expect(dune["cover"] == .data(LibraryFixture.cover))
        #expect(Self.id(dune["shelf"]) == library.poetry)
        #expect(Self.members(dune, "tags") == [library.classic, library.scifi])
        let last = try #require(try library.coordinator.fetchHistory(HistoryRequest()).last)
        #expect(last.transactionNumber == number)
        #expect(last.author == "termdata revert")
    }

    @Test("a value changed again later refuses the revert; a delete is taken back with the object's values, shelf and tags")
    func conflictAndDelete() throws {
        let (library, _) = try Self.library()
        let renamed = try library.save { context in try context.existingObject(with: library.dune)["title"] = "Dune Messiah" }
        let again = try library.save(author: "editor") { context in try context.existingObject(with: library.dune)["title"] = "Children of Dune" }
        let refused = try library.coordinator.planRevert(of: renamed)
        #expect(refused.conflicts.map(\.keys) == [["title"]])
        #expect(refused.conflicts.first?.later.transactionNumber == again.transactionNumbers.first?.value)
        #expect(throws: HistoryRevertError.self) { try library.coordinator.revert(refused) }
        #expect(try library.object(library.dune)["title"] == "Children of Dune")

        let deleted = try library.save { context in context.delete(try context.existingObject(with: library.dune)) }
        try library.coordinator.revert(try library.coordinator.planRevert(of: deleted))
        let dune = try library.object(library.dune)
        #expect(dune["title"] == "Children of Dune")
        #expect(dune["price"] == .decimal(LibraryFixture.price))
        #expect(Self.id(dune["shelf"]) == library.poetry)
        #expect(Self.members(dune, "tags") == [library.classic, library.scifi])
        #expect(Self.members(try library.object(library.classic), "books") == [library.dune])
    }

    @Test("a store whose history began before values were kept gets them when opened to write: later changes can be taken back")
    func upgrade() throws {
        let (library, stack) = try Self.library()
        // As such a store was: no ZPREVIOUS, and trigger functions that write none.
        for table in ["ZBOOK", "ZSHELF", "ZTAG"] {
            _ = try stack.store.plainRows(#"DROP TRIGGER "Z_HC_\#(table)" ON "\#(table)""#)
        }
        _ = try stack.store.plainRows(#"ALTER TABLE "ACHANGE" DROP COLUMN "ZPREVIOUS""#)
        var options = StoreOptions()
        options.tracksHistory = true
        let reopened = try stack.reopened(options: options)
        for table in ["ZBOOK", "ZSHELF", "ZTAG"] {
            _ = try reopened.store.plainRows(#"CREATE TRIGGER "Z_HC_\#(table)" AFTER INSERT OR UPDATE OR DELETE ON "\#(table)" FOR EACH ROW EXECUTE FUNCTION "Z_HC_\#(table)"()"#)
        }
        let context = reopened.newContext()
        try context.existingObject(with: library.dune)["title"] = "Dune Messiah"
        try context.save()
        let token = try reopened.coordinator.currentHistoryToken()
        let plan = try reopened.coordinator.planRevert(of: token)
        #expect(plan.steps.first?.values.first.map { [$0.now, $0.restored] } == ["Dune Messiah", "Dune"])
    }
}
