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
    static let published = Date(timeIntervalSince1970: 1_700_000_000.25)

    /// Two shelves, two tags and a book on the first with both tags, saved.
    struct Library {
        let stack: PostgresTestStack
        let poetry: ManagedObjectID, prose: ManagedObjectID, dune: ManagedObjectID
        let classic: ManagedObjectID, scifi: ManagedObjectID

        init() throws {
            var options = StoreOptions()
            options.tracksHistory = true
            stack = try PostgresTestStack(model: try ModelFixtures.libraryModel(), options: options)
            let context = stack.context
            let poetry = try context.insertObject(forEntityName: "Shelf"), prose = try context.insertObject(forEntityName: "Shelf")
            poetry["title"] = "Poetry"
            prose["title"] = "Prose"
            let classic = try context.insertObject(forEntityName: "Tag"), scifi = try context.insertObject(forEntityName: "Tag")
            classic["label"] = "classic"
            scifi["label"] = "sf"
            let dune = try context.insertObject(forEntityName: "Book")
            dune["title"] = "Dune"
            dune["pages"] = 412
            dune["published"] = .date(PostgresHistoryRevertTests.published)
            dune["price"] = .decimal(Decimal(string: "12.345678901234567890")!)
            dune["cover"] = .data(Data((0..<200).map { UInt8($0) }))
            dune["shelf"] = .object(poetry)
            dune["tags"] = .set([.object(classic), .object(scifi)])
            try context.save()
            (self.poetry, self.prose, self.dune) = (poetry.objectID, prose.objectID, dune.objectID)
            (self.classic, self.scifi) = (classic.objectID, scifi.objectID)
        }

        func save(author: String? = nil, _ change: (ManagedObjectContext) throws -> Void) throws -> HistoryToken {
            let context = stack.newContext()
            context.transactionAuthor = author
            try change(context)
            try context.save()
            return try stack.coordinator.currentHistoryToken()
        }

        func object(_ id: ManagedObjectID) throws -> ManagedObject {
            stack.context.reset()
            return try stack.context.existingObject(with: id)
        }

        func transaction(_ token: HistoryToken) throws -> HistoryTransaction {
            let number = try #require(token.transactionNumbers.first?.value)
            let history = try stack.coordinator.fetchHistory(HistoryRequest(after: HistoryToken(token.transactionNumbers.mapValues { _ in number - 1 })))
            return try #require(history.first)
        }
    }

    static func id(_ value: ObjectValue?) -> ManagedObjectID? {
        if case .object(let object)? = value { return (object as? ManagedObjectID) ?? (object as? ManagedObject)?.objectID }
        return nil
    }

    static func members(_ object: ManagedObject, _ key: String) -> Set<ManagedObjectID> {
        switch object[key] {
        case .set(let values), .array(let values): Set(values.compactMap { id($0) })
        default: []
        }
    }

    @Test("an update keeps what it replaced — text, a number, a date, a decimal, bytes, a to-one, a many-to-many member — and a revert restores it all in a transaction of its own")
    func revertUpdate() throws {
        let library = try Library()
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
        #expect(previous["price"] == .decimal(Decimal(string: "12.345678901234567890")!))
        #expect(previous["cover"] == .data(Data((0..<200).map { UInt8($0) })))
        #expect(Self.id(previous["shelf"]) == library.poetry)
        #expect(update.left["tags"] == [library.classic])

        let plan = try library.stack.coordinator.planRevert(of: moved)
        #expect(plan.conflicts.isEmpty)
        let number = try #require(try library.stack.coordinator.revert(plan))
        let dune = try library.object(library.dune)
        #expect(dune["title"] == "Dune")
        #expect(dune["pages"] == 412)
        #expect(dune["published"] == .date(Self.published))
        #expect(dune["price"] == .decimal(Decimal(string: "12.345678901234567890")!))
        #expect(dune["cover"] == .data(Data((0..<200).map { UInt8($0) })))
        #expect(Self.id(dune["shelf"]) == library.poetry)
        #expect(Self.members(dune, "tags") == [library.classic, library.scifi])
        let last = try #require(try library.stack.coordinator.fetchHistory(HistoryRequest()).last)
        #expect(last.transactionNumber == number)
        #expect(last.author == "termdata revert")
    }

    @Test("a value changed again later refuses the revert; a delete is taken back with the object's values, shelf and tags")
    func conflictAndDelete() throws {
        let library = try Library()
        let renamed = try library.save { context in try context.existingObject(with: library.dune)["title"] = "Dune Messiah" }
        let again = try library.save(author: "editor") { context in try context.existingObject(with: library.dune)["title"] = "Children of Dune" }
        let refused = try library.stack.coordinator.planRevert(of: renamed)
        #expect(refused.conflicts.map(\.keys) == [["title"]])
        #expect(refused.conflicts.first?.later.transactionNumber == again.transactionNumbers.first?.value)
        #expect(throws: HistoryRevertError.self) { try library.stack.coordinator.revert(refused) }
        #expect(try library.object(library.dune)["title"] == "Children of Dune")

        let deleted = try library.save { context in context.delete(try context.existingObject(with: library.dune)) }
        try library.stack.coordinator.revert(try library.stack.coordinator.planRevert(of: deleted))
        let dune = try library.object(library.dune)
        #expect(dune["title"] == "Children of Dune")
        #expect(dune["price"] == .decimal(Decimal(string: "12.345678901234567890")!))
        #expect(Self.id(dune["shelf"]) == library.poetry)
        #expect(Self.members(dune, "tags") == [library.classic, library.scifi])
        #expect(Self.members(try library.object(library.classic), "books") == [library.dune])
    }

    @Test("a store whose history began before values were kept gets them when opened to write: later changes can be taken back")
    func upgrade() throws {
        let library = try Library()
        // As such a store was: no ZPREVIOUS, and trigger functions that write none.
        for table in ["ZBOOK", "ZSHELF", "ZTAG"] {
            _ = try library.stack.store.plainRows(#"DROP TRIGGER "Z_HC_\#(table)" ON "\#(table)""#)
        }
        _ = try library.stack.store.plainRows(#"ALTER TABLE "ACHANGE" DROP COLUMN "ZPREVIOUS""#)
        var options = StoreOptions()
        options.tracksHistory = true
        let reopened = try library.stack.reopened(options: options)
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
