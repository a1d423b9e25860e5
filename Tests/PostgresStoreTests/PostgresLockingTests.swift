import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import PostgresStore
import TestSupport

/// Two coordinators on one store, as two clients on two machines would be.
@Suite("Optimistic locking with Z_OPT on PostgreSQL")
struct PostgresLockingTests {
    /// Both sides read "Buy milk"; the first marks it completed and moves its date; the second
    /// renames it and moves its date too.
    func conflict(policy: MergePolicy) throws -> (first: PostgresTestStack, second: ManagedObjectContext, item: ManagedObject) {
        let first = try PostgresTestStack(model: try ModelFixtures.toDoModel())
        try ToDoFixture.fill(first.context)
        let second = try first.reopened().context
        second.mergePolicy = policy
        let theirs = try #require(try second.object(forEntityName: "ToDo", matchingKey: "name", value: "Buy milk"))
        _ = theirs.bool("completed")
        let mine = try #require(try first.context.object(forEntityName: "ToDo", matchingKey: "name", value: "Buy milk"))
        mine["completed"] = true
        mine["dueDate"] = .date(Date(timeIntervalSinceReferenceDate: 99))
        try first.context.save()
        theirs["name"] = "Buy oat milk"
        theirs["dueDate"] = .date(Date(timeIntervalSinceReferenceDate: 77))
        return (first, second, theirs)
    }

    /// The row as the server has it: name, completed, seconds since 2001, version.
    func stored(_ stack: PostgresTestStack) throws -> String {
        let row = try stack.store.plainRows(#"""
            SELECT "ZNAME", "ZCOMPLETED", extract(epoch FROM "ZDUEDATE" - timestamptz '2001-01-01 00:00:00+00')::bigint, "Z_OPT"
            FROM "ZTODO" WHERE "Z_FCD_NAME" = 'buy milk' OR "Z_FCD_NAME" = 'buy oat milk'
            """#)[0]
        return row.map { $0.stringValue ?? "\($0.intValue ?? -1)" }.joined(separator: " ")
    }

    @Test("by default the save fails and reports the conflict with the persisted row")
    func errorPolicy() throws {
        let (first, second, item) = try conflict(policy: .error)
        let error = #expect(throws: MergeConflictError.self) { try second.save() }
        let c = try #require(error?.conflicts.first)
        #expect(c.objectID == item.objectID && c.oldVersion == 1 && c.newVersion == 2)
        #expect(c.persisted?.attributes["completed"] == .bool(true))
        #expect(try stored(first) == "Buy milk 1 99 2")
        #expect(item.string("name") == "Buy oat milk", "the edit stays in the context")
    }

    @Test("store trump: properties changed on both sides take the store's values, the others ours")
    func storeTrump() throws {
        let (first, second, _) = try conflict(policy: .mergeByPropertyStoreTrump)
        try second.save()
        #expect(try stored(first) == "Buy oat milk 1 99 3")
    }

    @Test("object trump: properties changed on both sides take ours")
    func objectTrump() throws {
        let (first, second, _) = try conflict(policy: .mergeByPropertyObjectTrump)
        try second.save()
        #expect(try stored(first) == "Buy oat milk 1 77 3")
    }

    @Test("overwrite: our whole object replaces the row")
    func overwrite() throws {
        let (first, second, _) = try conflict(policy: .overwrite)
        try second.save()
        #expect(try stored(first) == "Buy oat milk 0 77 3")
    }

    @Test("rollback: our changes to the conflicting object are dropped")
    func rollback() throws {
        let (first, second, item) = try conflict(policy: .rollback)
        try second.save()
        #expect(try stored(first) == "Buy milk 1 99 2")
        #expect(item.string("name") == "Buy milk")
    }

    @Test("a row deleted by another client is a conflict, never silently recreated")
    func deletedElsewhere() throws {
        let first = try PostgresTestStack(model: try ModelFixtures.toDoModel())
        try ToDoFixture.fill(first.context)
        let second = try first.reopened().context
        let theirs = try #require(try second.object(forEntityName: "ToDo", matchingKey: "name", value: "Call mom"))
        _ = theirs.string("name")
        let mine = try #require(try first.context.object(forEntityName: "ToDo", matchingKey: "name", value: "Call mom"))
        first.context.delete(mine)
        try first.context.save()
        theirs["name"] = "Call dad"
        let error = #expect(throws: MergeConflictError.self) { try second.save() }
        #expect(error?.conflicts.map(\.newVersion) == [0])
        #expect(try first.store.plainRows(#"SELECT count(*) FROM "ZTODO""#)[0][0].intValue == 4)
    }
}
