import Foundation
import GRDB
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import Testing
import TestSupport

/// A shelf of books with tags: a one-to-many, a many-to-many, and two attributes a deleted
/// book keeps in its history.
enum LibraryModel {
    static func model() throws -> ManagedObjectModel { try ModelFixtures.libraryModel() }

    static func stack(url: URL? = nil, tracksHistory: Bool = true) throws -> SQLiteTestStack {
        try SQLiteTestStack(model: model(), url: url, options: StoreOptions(tracksHistory: tracksHistory))
    }
}

@Suite("Persistent history")
struct PersistentHistoryTests {
    /// Changes of a transaction as "type Entity: properties", sorted, for comparing.
    private func summary(_ transaction: HistoryTransaction) -> [String] {
        transaction.changes.map { change in
            let type = ["insert", "update", "delete"][change.changeType.rawValue]
            let properties = change.updatedProperties.map { ": " + $0.sorted().joined(separator: ",") } ?? ""
            return "\(type) \(change.changedObjectID.entityName)\(properties)"
        }.sorted()
    }

    @Test("a save is recorded in Core Data's tables with its author, context name and changes")
    func saveIsRecorded() throws {
        let stack = try LibraryModel.stack()
        let context = stack.context
        context.transactionAuthor = "librarian"
        context.name = "front desk"
        let shelf = try context.insertObject(forEntityName: "Shelf")
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "Dune"
        book["shelf"] = .object(shelf)
        try context.save()

        let history = try stack.coordinator.fetchHistory(HistoryRequest())
        #expect(history.count == 1)
        let first = try #require(history.first)
        #expect(first.author == "librarian")
        #expect(first.contextName == "front desk")
        #expect(first.processID == String(ProcessInfo.processInfo.processIdentifier))
        #expect(abs(first.timestamp.timeIntervalSinceNow) < 60)
        #expect(summary(first).contains("insert Book"))
        #expect(summary(first).contains("insert Shelf"))
        #expect(Set(first.changes.map(\.changedObjectID)).isSuperset(of: [book.objectID, shelf.objectID]))

        // The tables are Core Data's, and the history entities are in Z_PRIMARYKEY under its numbers.
        let tables = try stack.rawRows("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'A%' ORDER BY name").map { $0[0] as String }
        #expect(tables == ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"])
        let entities = try stack.rawRows("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT").map { "\($0[0] as Int) \($0[1] as String)" }
        #expect(entities == ["16001 CHANGE", "16002 TRANSACTION", "16003 TRANSACTIONSTRING"])
        let names = try stack.rawRows("SELECT ZNAME FROM ATRANSACTIONSTRING ORDER BY ZNAME").map { $0[0] as String }
        #expect(names.contains("librarian") && names.contains("front desk"))
    }

    @Test("an update names the properties that changed, and the shelves a book moved between")
    func updatesNameTheirProperties() throws {
        let stack = try LibraryModel.stack()
        let context = stack.context
        let (a, b) = (try context.insertObject(forEntityName: "Shelf"), try context.insertObject(forEntityName: "Shelf"))
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "Dune"
        book["shelf"] = .object(a)
        try context.save()
        let token = try stack.coordinator.currentHistoryToken()

        book["pages"] = 412
        book["shelf"] = .object(b)
        try context.save()
        let history = try stack.coordinator.fetchHistory(HistoryRequest(after: token))
        #expect(history.count == 1)
        #expect(summary(history[0]) == ["update Book: pages,shelf", "update Shelf: books", "update Shelf: books"])
        #expect(Set(history[0].changes.filter { $0.changedObjectID.entityName == "Shelf" }.map(\.changedObjectID)) == [a.objectID, b.objectID])

        // A save that writes a row without changing a value records nothing.
        book["pages"] = 412
        try context.save()
        #expect(try stack.coordinator.fetchHistory(HistoryRequest(after: history[0].token)).isEmpty)
    }

    @Test("objectIDs narrows the history to one object's changes; the limit counts the transactions that touch it")
    func oneObjectsStory() throws {
        let stack = try LibraryModel.stack()
        let context = stack.context
        let (dune, emma) = (try context.insertObject(forEntityName: "Book"), try context.insertObject(forEntityName: "Book"))
        try context.save()
        emma["title"] = "Emma"
        try context.save()
        dune["title"] = "Dune"
        try context.save()
        var request = HistoryRequest()
        request.objectIDs = [dune.objectID]
        let story = try stack.coordinator.fetchHistory(request)
        #expect(story.map(summary) == [["insert Book"], ["update Book: title"]], "the second save touched Emma only")
        #expect(story.allSatisfy { $0.changes.allSatisfy { $0.changedObjectID == dune.objectID } })
        request.fetchLimit = 2
        #expect(try stack.coordinator.fetchHistory(request).count == 2, "both of Dune's, not the first two transactions")
    }

    @Test("a new book on a shelf is an update of the shelf; not of one the same save made, and once for many books")
    func newMembersUpdateTheirOwner() throws {
        let stack = try LibraryModel.stack()
        let context = stack.context
        let (old, renamed) = (try context.insertObject(forEntityName: "Shelf"), try context.insertObject(forEntityName: "Shelf"))
        try context.save()
        var token = try stack.coordinator.currentHistoryToken()

        let fresh = try context.insertObject(forEntityName: "Shelf")
        renamed["title"] = "Poetry"
        for shelf in [old, old, renamed, fresh] { try context.insertObject(forEntityName: "Book")["shelf"] = .object(shelf) }
        try context.save()
        let history = try stack.coordinator.fetchHistory(HistoryRequest(after: token))
        #expect(history.map(summary) == [["insert Book", "insert Book", "insert Book", "insert Book", "insert Shelf",
                                          "update Shelf: books", "update Shelf: books,title"]])
        let updates = history[0].changes.filter { $0.changeType == .update }
        #expect(Set(updates.map(\.changedObjectID)) == [old.objectID, renamed.objectID])
        token = history[0].token

        // Plain SQL's new book is filed with its shelf's update too.
        let raw = try DatabaseQueue(path: stack.url.path)
        try raw.write { db in
            try db.execute(sql: "INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZSHELF) VALUES (90, (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Book'), 1, ?)",
                           arguments: [old.objectID.primaryKey])
        }
        try raw.close()
        _ = try context.insertObject(forEntityName: "Tag")
        try context.save()
        let stray = try #require(try stack.coordinator.fetchHistory(HistoryRequest(after: token)).first)
        #expect(stray.author == nil)
        #expect(summary(stray) == ["insert Book", "update Shelf: books"])
    }

    @Test("many-to-many changes are updates of both sides")
    func manyToManyChanges() throws {
        let stack = try LibraryModel.stack()
        let context = stack.context
        let book = try context.insertObject(forEntityName: "Book")
        let tag = try context.insertObject(forEntityName: "Tag")
        try context.save()
        let token = try stack.coordinator.currentHistoryToken()
        try book.add(tag, toRelationship: "tags")
        try context.save()
        let history = try stack.coordinator.fetchHistory(HistoryRequest(after: token))
        #expect(history.map(summary) == [["update Book: tags", "update Tag: books"]])
    }

    @Test("a deleted book keeps its title and ISBN in its tombstone")
    func tombstones() throws {
        let stack = try LibraryModel.stack()
        let context = stack.context
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "Dune"
        book["isbn"] = "978-0441013593"
        book["pages"] = 412
        try context.save()
        let id = book.objectID
        let token = try stack.coordinator.currentHistoryToken()
        context.delete(book)
        try context.save()
        let change = try #require(try stack.coordinator.fetchHistory(HistoryRequest(after: token)).first?.changes.first)
        #expect(change.changeType == .delete)
        #expect(change.changedObjectID == id)
        #expect(change.tombstone == ["title": "Dune", "isbn": "978-0441013593"])
    }

    @Test("a save of many rows records each insert once, and the triggers still record other writers afterwards",
          arguments: [SQLiteStore.rowsInsertedWithoutTriggers - 1, SQLiteStore.rowsInsertedWithoutTriggers + 44])
    func manyInsertsRecordedOnce(count: Int) throws {
        let stack = try LibraryModel.stack()
        let token = try stack.coordinator.currentHistoryToken()
        let shelf = try stack.context.insertObject(forEntityName: "Shelf")
        try stack.context.save()
        for i in 0..<count {
            let book = try stack.context.insertObject(forEntityName: "Book")
            book["title"] = .string("book \(i)")
            book["shelf"] = .object(shelf)
        }
        try stack.context.save()
        let saved = try stack.coordinator.fetchHistory(HistoryRequest(after: token))
        #expect(saved.count == 2)
        let inserts = saved[1].changes.filter { $0.changeType == .insert }.map(\.changedObjectID)
        #expect(inserts.count == count && Set(inserts).count == count, "each new book once")
        #expect(summary(saved[1]).filter { $0.hasPrefix("update") } == ["update Shelf: books"])

        // The store's own connection, and another program's, record plain SQL as before.
        let after = try stack.coordinator.currentHistoryToken()
        let other = try DatabaseQueue(path: stack.url.path)
        try other.write { db in
            try db.execute(sql: "INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES (100000, (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Book'), 1, 'Emma')")
        }
        try other.close()
        try stack.context.insertObject(forEntityName: "Tag")["label"] = "sf"
        try stack.context.save()
        let later = try stack.coordinator.fetchHistory(HistoryRequest(after: after))
        #expect(later.map { summary($0) } == [["insert Book"], ["insert Tag"]])
    }

    @Test("a trigger of another program's in the file fires for every row of a large save")
    func foreignTriggerKeptOn() throws {
        let stack = try LibraryModel.stack()
        try stack.context.insertObject(forEntityName: "Shelf")["title"] = "first"
        try stack.context.save()
        let other = try DatabaseQueue(path: stack.url.path)
        try other.write { db in
            try db.execute(sql: "CREATE TRIGGER ZDERIVED_PAGES AFTER INSERT ON ZBOOK BEGIN UPDATE ZBOOK SET ZPAGES = 7 WHERE Z_PK = NEW.Z_PK; END")
        }
        try other.close()
        let count = SQLiteStore.rowsInsertedWithoutTriggers + 10
        for i in 0..<count { try stack.context.insertObject(forEntityName: "Book")["title"] = .string("book \(i)") }
        try stack.context.save()
        let fresh = ManagedObjectContext(coordinator: stack.coordinator)
        #expect(try fresh.count(for: FetchRequest(entityName: "Book", predicate: try ObjectPredicate(format: "pages == 7"))) == count)
    }

    @Test("plain SQL from another program is recorded, and filed under a transaction with no author")
    func otherWritersAreRecorded() throws {
        let stack = try LibraryModel.stack()
        let context = stack.context
        context.transactionAuthor = "app"
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "Dune"
        try context.save()
        let token = try stack.coordinator.currentHistoryToken()

        let other = try DatabaseQueue(path: stack.url.path)
        try other.write { db in
            try db.execute(sql: "UPDATE ZBOOK SET ZTITLE = 'Dune Messiah'")
            try db.execute(sql: "INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES (99, (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Book'), 1, 'Emma')")
        }
        try other.close()

        // The next save files them first, apart from its own changes.
        let tag = try context.insertObject(forEntityName: "Tag")
        tag["label"] = "sf"
        try context.save()
        let history = try stack.coordinator.fetchHistory(HistoryRequest(after: token))
        #expect(history.count == 2)
        #expect(history[0].author == nil)
        #expect(summary(history[0]) == ["insert Book", "update Book: title"])
        #expect(history[0].changes.contains { $0.changedObjectID.primaryKey == 99 })
        #expect(history[1].author == "app")
        #expect(summary(history[1]) == ["insert Tag"])
    }

    @Test("history is fetched after a token, by author, by context name and by entity")
    func filters() throws {
        let stack = try LibraryModel.stack()
        let (one, two) = (stack.newContext(), stack.newContext())
        one.transactionAuthor = "one"
        two.transactionAuthor = "two"
        two.name = "importer"
        _ = try one.insertObject(forEntityName: "Book")
        try one.save()
        _ = try two.insertObject(forEntityName: "Tag")
        try two.save()
        _ = try one.insertObject(forEntityName: "Tag")
        try one.save()

        let all = try stack.coordinator.fetchHistory(HistoryRequest())
        #expect(all.map(\.author) == ["one", "two", "one"])
        #expect(try stack.coordinator.fetchHistory(HistoryRequest(after: all[0].token)).map(\.transactionNumber)
            == all.dropFirst().map(\.transactionNumber))
        #expect(try stack.coordinator.fetchHistory(HistoryRequest(authors: ["two"])).map(\.author) == ["two"])
        var others = HistoryRequest()
        others.excludingAuthors = ["one"]
        #expect(try stack.coordinator.fetchHistory(others).map(\.author) == ["two"])
        #expect(try stack.coordinator.fetchHistory(HistoryRequest(contextNames: ["importer"])).count == 1)
        #expect(try stack.coordinator.fetchHistory(HistoryRequest(entityNames: ["Tag"])).map(\.author) == ["two", "one"])
        #expect(try stack.coordinator.fetchHistory(HistoryRequest(fetchLimit: 2)).count == 2)
    }

    @Test("history is deleted up to a token, or before a date")
    func deletingHistory() throws {
        let stack = try LibraryModel.stack()
        for _ in 0..<3 {
            _ = try stack.context.insertObject(forEntityName: "Book")
            try stack.context.save()
        }
        let all = try stack.coordinator.fetchHistory(HistoryRequest())
        #expect(try stack.coordinator.deleteHistory(through: all[0].token) == 1)
        #expect(try stack.coordinator.fetchHistory(HistoryRequest()).map(\.transactionNumber) == all.dropFirst().map(\.transactionNumber))
        #expect(try stack.rawRows("SELECT COUNT(*) FROM ACHANGE WHERE ZTRANSACTIONID = \(all[0].transactionNumber)")[0][0] as Int == 0)
        #expect(try stack.coordinator.deleteHistory(before: Date().addingTimeInterval(60)) == 2)
        #expect(try stack.coordinator.fetchHistory(HistoryRequest()).isEmpty)
        // The objects stay.
        #expect(try stack.context.count(for: FetchRequest(entityName: "Book")) == 3)
    }

    @Test("trimming history never gives a number again: a token taken before the trim still sees every later save", arguments: [false, true])
    func tokensNeverGoBack(reopened: Bool) throws {
        var stack = try LibraryModel.stack()
        for title in ["one", "two"] {
            let book = try stack.context.insertObject(forEntityName: "Book")
            book["title"] = .string(title)
            try stack.context.save()
        }
        let seen = try stack.coordinator.currentHistoryToken()
        let last = try #require(try stack.coordinator.fetchHistory(HistoryRequest()).last)
        #expect(try stack.coordinator.deleteHistory(through: seen) == 2)
        #expect(try stack.coordinator.currentHistoryToken() == seen, "the token stays where it was, not back at zero")
        if reopened { stack = try stack.reopened() }
        let book = try stack.context.insertObject(forEntityName: "Book")
        book["title"] = "three"
        try stack.context.save()
        let after = try stack.coordinator.fetchHistory(HistoryRequest(after: seen))
        #expect(after.map(\.transactionNumber) == [last.transactionNumber + 1], "the save after the trim is after the token")
        #expect(after.first.map(summary) == ["insert Book"])
        // Another writer's plain SQL, filed by the next save, is after it too.
        try DatabaseQueue(path: stack.url.path).write { try $0.execute(sql: "UPDATE ZBOOK SET ZTITLE = 'changed' WHERE ZTITLE = 'one'") }
        _ = try stack.coordinator.deleteHistory(through: try stack.coordinator.currentHistoryToken())
        _ = try stack.context.insertObject(forEntityName: "Tag")
        try stack.context.save()
        #expect(try stack.coordinator.fetchHistory(HistoryRequest(after: seen)).map(\.transactionNumber)
                == [last.transactionNumber + 2, last.transactionNumber + 3])
    }

    @Test("a token kept as JSON picks up where it left off after a restart")
    func tokensPersist() throws {
        let stack = try LibraryModel.stack()
        _ = try stack.context.insertObject(forEntityName: "Book")
        try stack.context.save()
        let kept = try JSONEncoder().encode(try stack.coordinator.currentHistoryToken())
        stack.coordinator.removeStore(stack.store)

        let later = try LibraryModel.stack(url: stack.url)
        let tag = try later.context.insertObject(forEntityName: "Tag")
        try later.context.save()
        let token = try JSONDecoder().decode(HistoryToken.self, from: kept)
        let news = try later.coordinator.fetchHistory(HistoryRequest(after: token))
        #expect(news.count == 1)
        #expect(news.first?.changes.map(\.changedObjectID) == [tag.objectID])
        #expect(HistoryToken(text: news[0].token.description, storeIdentifiers: [later.store.identifier]) == news[0].token)
    }

    @Test("a store without the option keeps no history; one whose file has it goes on recording")
    func historyIsAStoreOption() throws {
        let plain = try LibraryModel.stack(tracksHistory: false)
        _ = try plain.context.insertObject(forEntityName: "Book")
        try plain.context.save()
        #expect(try plain.rawRows("SELECT name FROM sqlite_master WHERE name = 'ATRANSACTION'").isEmpty)
        #expect(try plain.coordinator.fetchHistory(HistoryRequest()).isEmpty)

        let tracked = try LibraryModel.stack()
        _ = try tracked.context.insertObject(forEntityName: "Book")
        try tracked.context.save()
        tracked.coordinator.removeStore(tracked.store)
        let again = try LibraryModel.stack(url: tracked.url, tracksHistory: false)
        #expect(again.store.tracksHistory)
        _ = try again.context.insertObject(forEntityName: "Tag")
        try again.context.save()
        #expect(try again.coordinator.fetchHistory(HistoryRequest()).count == 2)
    }

    @Test("history that Core Data keeps itself (rows, no triggers) is read, and no triggers are added to the store")
    func othersHistoryIsReadNotAddedTo() throws {
        let plain = try LibraryModel.stack(tracksHistory: false)
        _ = try plain.context.insertObject(forEntityName: "Book")
        try plain.context.save()
        plain.coordinator.removeStore(plain.store)
        // As Core Data's own save leaves them: the tables, one transaction, no triggers.
        let raw = try DatabaseQueue(path: plain.url.path)
        try raw.write { db in
            try db.execute(sql: """
                CREATE TABLE ATRANSACTION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER,
                    ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR,
                    ZPROCESSID VARCHAR, ZQUERYGEN BLOB);
                CREATE TABLE ACHANGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER,
                    ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB);
                CREATE TABLE ATRANSACTIONSTRING (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
                INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZTIMESTAMP, ZAUTHOR) VALUES (1, 16002, 1, 0, 'Core Data');
                INSERT INTO ACHANGE (Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID)
                    VALUES (16001, 1, 0, (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Book'), 1, 1);
                """)
        }
        try raw.close()

        let opened = try LibraryModel.stack(url: plain.url)
        #expect(!opened.store.tracksHistory)
        #expect(try opened.rawRows("SELECT name FROM sqlite_master WHERE type = 'trigger'").isEmpty)
        let history = try opened.coordinator.fetchHistory(HistoryRequest())
        #expect(history.map(\.author) == ["Core Data"])
        #expect(history.first.map(summary) == ["insert Book"])
    }

    @Test("a save merged through its notice is not merged again from history; another program's save still is")
    func noticeMergedOnce() throws {
        let here = try LibraryModel.stack()
        here.context.historyToken = try here.coordinator.currentHistoryToken()
        let importing = ManagedObjectContext(coordinator: here.coordinator)
        importing.transactionAuthor = "import"
        var notice: ContextDidSave?
        let observation = importing.observe { if case .didSave(let save) = $0 { notice = save } }
        defer { observation.cancel() }
        try importing.insertObject(forEntityName: "Book")["title"] = "Dune"
        try importing.save()
        here.context.mergeChanges(fromContextDidSave: try #require(notice))

        let there = try LibraryModel.stack(url: here.url)
        there.context.transactionAuthor = "elsewhere"
        try there.context.insertObject(forEntityName: "Book")["title"] = "Emma"
        try there.context.save()
        #expect(try here.context.mergeRemoteChanges().map(\.author) == ["elsewhere"], "the import is merged already")
        #expect(try here.context.mergeRemoteChanges().isEmpty)
    }

    @Test("a context merges another coordinator's insert, update and delete from history")
    func contextMergesRemoteChanges() throws {
        let here = try LibraryModel.stack()
        let book = try here.context.insertObject(forEntityName: "Book")
        book["title"] = "Dune"
        let gone = try here.context.insertObject(forEntityName: "Book")
        gone["title"] = "Emma"
        try here.context.save()
        here.context.historyToken = try here.coordinator.currentHistoryToken()
        var changes: [ObjectChanges] = []
        let observation = here.context.observe { if case .objectsDidChange(let c) = $0 { changes.append(c) } }
        defer { observation.cancel() }

        let there = try LibraryModel.stack(url: here.url)
        there.context.transactionAuthor = "elsewhere"
        let theirs = try there.context.existingObject(with: book.objectID)
        theirs["title"] = "Dune Messiah"
        there.context.delete(try there.context.existingObject(with: gone.objectID))
        let new = try there.context.insertObject(forEntityName: "Book")
        new["title"] = "Persuasion"
        try there.context.save()

        let merged = try here.context.mergeRemoteChanges()
        #expect(merged.map(\.author) == ["elsewhere"])
        #expect(book["title"] == "Dune Messiah")
        #expect(!gone.isValid)
        let inserted = changes.flatMap(\.inserted).map(\.objectID)
        #expect(inserted == [new.objectID])
        #expect(changes.flatMap(\.deleted).map(\.objectID) == [gone.objectID])
        // Merged once: the token moved on, and the context's own saves are not merged again.
        #expect(try here.context.mergeRemoteChanges().isEmpty)
        book["pages"] = 10
        try here.context.save()
        #expect(try here.context.mergeRemoteChanges().isEmpty)
    }

    @Test("a queue context that merges remote changes by itself shows another connection's save, until told to stop")
    func automaticRemoteMerge() throws {
        let here = try LibraryModel.stack()
        try here.context.insertObject(forEntityName: "Book")["title"] = "Dune"
        try here.context.save()
        let reader = ManagedObjectContext(coordinator: here.coordinator, concurrencyType: .privateQueue)
        let book = try reader.performAndWait {
            let book = try #require(try reader.fetch(FetchRequest(entityName: "Book")).first)
            _ = book.string("title")   // read: the context holds this version now
            reader.automaticallyMergesRemoteChanges = true
            return book
        }
        func title() -> String? { reader.performAndWait { book.string("title") } }
        func waitFor(_ expected: String, seconds: Double) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline, title() != expected { Thread.sleep(forTimeInterval: 0.01) }
            return title() == expected
        }
        let there = try LibraryModel.stack(url: here.url)
        let theirs = try #require(try there.context.fetch(FetchRequest(entityName: "Book")).first)
        theirs["title"] = "Dune Messiah"
        try there.context.save()
        #expect(waitFor("Dune Messiah", seconds: 5), "merged within the wait: \(title() ?? "nil")")

        reader.performAndWait { reader.automaticallyMergesRemoteChanges = false }
        #expect(reader.performAndWait { !reader.automaticallyMergesRemoteChanges })
        theirs["title"] = "Children of Dune"
        try there.context.save()
        #expect(!waitFor("Children of Dune", seconds: 0.5), "no longer merged")
    }

    @Test("a commit by another connection is noticed, with the new token")
    func remoteChangeNotices() throws {
        let here = try LibraryModel.stack()
        let notices = LockedBox<[RemoteChangeNotice]>([])
        let observer = here.coordinator.observeRemoteChanges { notice in notices.mutate { $0.append(notice) } }
        defer { here.coordinator.removeRemoteChangeObserver(observer) }

        let there = try LibraryModel.stack(url: here.url)
        there.context.transactionAuthor = "elsewhere"
        _ = try there.context.insertObject(forEntityName: "Book")
        try there.context.save()
        let token = try there.coordinator.currentHistoryToken()
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !notices.value.contains(where: { $0.token.includes(token) }) { Thread.sleep(forTimeInterval: 0.02) }
        #expect(notices.value.contains { $0.token == token && $0.storeIdentifier == here.store.identifier })

        // Plain SQL leaves no transaction: the watch files it, and says so.
        let raw = try DatabaseQueue(path: here.url.path)
        try raw.write { try $0.execute(sql: "UPDATE ZBOOK SET ZTITLE = 'x'") }
        try raw.close()
        let filed = Date().addingTimeInterval(10)
        while Date() < filed, !notices.value.contains(where: { ($0.token.transactionNumbers.values.first ?? 0) > (token.transactionNumbers.values.first ?? 0) }) {
            Thread.sleep(forTimeInterval: 0.02)
        }
        let last = try #require(try here.coordinator.fetchHistory(HistoryRequest(after: token)).last)
        #expect(last.author == nil)
        #expect(summary(last) == ["update Book: title"])
    }
}
