import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import PostgresStore
import TestSupport

/// History and remote changes between clients of one PostgreSQL store.
@Suite("Persistent history and remote changes on PostgreSQL")
struct PostgresHistoryTests {
    func tracking(_ url: URL? = nil) throws -> PostgresTestStack {
        var options = StoreOptions()
        options.tracksHistory = true
        return try PostgresTestStack(model: try ModelFixtures.toDoModel(), url: url, options: options)
    }

    func summary(_ transaction: HistoryTransaction) -> [String] {
        transaction.changes.map { change in
            let kind = ["insert", "update", "delete"][change.changeType.rawValue]
            let keys = change.updatedProperties.map { ": " + $0.sorted().joined(separator: ", ") } ?? ""
            return "\(kind) \(change.changedObjectID.entityName)\(keys)"
        }.sorted()
    }

    @Test("each save is one transaction with its author and context; updates name the properties, owners their to-many")
    func transactions() throws {
        let stack = try tracking()
        let token = try stack.coordinator.currentHistoryToken()
        stack.context.transactionAuthor = "planner"
        stack.context.name = "main"
        let home = try stack.context.insertObject(forEntityName: "Category")
        home["name"] = "Home"
        let item = try stack.context.insertObject(forEntityName: "ToDo")
        item["name"] = "Buy milk"
        item["category"] = .object(home)
        try stack.context.save()
        item["name"] = "Buy oat milk"
        try stack.context.save()
        stack.context.delete(item)
        try stack.context.save()

        let history = try stack.coordinator.fetchHistory(HistoryRequest(after: token))
        #expect(history.count == 3)
        #expect(history.allSatisfy { $0.author == "planner" && $0.contextName == "main" })
        #expect(history.map(\.transactionNumber) == history.map(\.transactionNumber).sorted())
        #expect(summary(history[0]) == ["insert Category", "insert ToDo"])
        #expect(summary(history[1]) == ["update ToDo: name"])
        #expect(summary(history[2]) == ["delete ToDo", "update Category: todos"])
        #expect(try stack.coordinator.fetchHistory(HistoryRequest(after: history[1].token)).count == 1)
        #expect(try stack.coordinator.fetchHistory(HistoryRequest(after: token, authors: ["someone else"])).isEmpty)
        #expect(try stack.coordinator.deleteHistory(through: history[1].token) == 2)
        #expect(try stack.coordinator.fetchHistory(HistoryRequest(after: token)).map(\.transactionNumber) == [history[2].transactionNumber])
    }

    @Test("another client's save is noticed within a second and merged: inserted, changed and deleted objects")
    func remoteChanges() throws {
        let here = try tracking()
        try ToDoFixture.fill(here.context)
        let notices = LockedBox<[RemoteChangeNotice]>([])
        let observer = here.coordinator.observeRemoteChanges { notice in notices.mutate { $0.append(notice) } }
        defer { here.coordinator.removeRemoteChangeObserver(observer) }
        here.context.historyToken = try here.coordinator.currentHistoryToken()
        let milk = try #require(try here.context.object(forEntityName: "ToDo", matchingKey: "name", value: "Buy milk"))
        let mom = try #require(try here.context.object(forEntityName: "ToDo", matchingKey: "name", value: "Call mom"))
        _ = (milk.string("name"), mom.string("name"))

        let there = try tracking(here.url)
        there.context.transactionAuthor = "phone"
        let theirMilk = try #require(try there.context.object(forEntityName: "ToDo", matchingKey: "name", value: "Buy milk"))
        theirMilk["name"] = "Buy oat milk"
        there.context.delete(try #require(try there.context.object(forEntityName: "ToDo", matchingKey: "name", value: "Call mom")))
        try there.context.insertObject(forEntityName: "ToDo")["name"] = "Fix the bike"
        let started = Date()
        try there.context.save()
        let token = try there.coordinator.currentHistoryToken()
        while Date().timeIntervalSince(started) < 10, !notices.value.contains(where: { $0.token.includes(token) }) { Thread.sleep(forTimeInterval: 0.01) }
        #expect(Date().timeIntervalSince(started) < 1, "noticed within a second")
        #expect(notices.value.contains { $0.token == token && $0.storeIdentifier == here.store.identifier })

        let merged = try here.context.mergeRemoteChanges()
        #expect(merged.map(\.author) == ["phone"])
        #expect(milk.string("name") == "Buy oat milk")
        #expect(mom.isDeleted || mom.managedObjectContext == nil || (try? here.context.existingObject(with: mom.objectID)) == nil)
        let names = try here.context.fetch(FetchRequest(entityName: "ToDo")).compactMap { $0.string("name") }
        #expect(names.contains("Fix the bike") && !names.contains("Call mom"))
        // A context's own saves are not merged back into it.
        here.context.transactionAuthor = "desk"
        milk["completed"] = true
        try here.context.save()
        #expect(try here.context.mergeRemoteChanges().isEmpty)
    }

    @Test("plain SQL from another program is recorded too, without an author")
    func plainSQL() throws {
        let stack = try tracking()
        try ToDoFixture.fill(stack.context)
        let token = try stack.coordinator.currentHistoryToken()
        _ = try stack.store.plainRows(#"UPDATE "ZTODO" SET "ZCOMPLETED" = 1 WHERE "ZNAME" = 'Buy milk'"#)
        let last = try #require(try stack.coordinator.fetchHistory(HistoryRequest(after: token)).last)
        #expect(last.author == nil)
        #expect(summary(last) == ["update ToDo: completed"])
    }
}
