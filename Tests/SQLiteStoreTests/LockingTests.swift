import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

/// Two coordinators on one file, as two processes would be.
@Suite("Optimistic locking with Z_OPT")
struct LockingTests {
    /// Both sides read "Buy milk"; the first marks it completed and moves its date; the second
    /// renames it and moves its date too.
    func conflict(policy: MergePolicy) throws -> (first: SQLiteTestStack, second: ManagedObjectContext, item: ManagedObject) {
        let first = try SQLiteTestStack(model: try ModelFixtures.toDoModel())
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

    func stored(_ stack: SQLiteTestStack) throws -> String {
        let row = try stack.rawRows("SELECT ZNAME, ZCOMPLETED, ZDUEDATE, Z_OPT FROM ZTODO WHERE Z_PK = 2")[0]
        return "\(row[0] as String) \(row[1] as Int) \(row[2] as Double) \(row[3] as Int)"
    }

    @Test("by default the save fails and reports the conflict with the persisted row")
    func errorPolicy() throws {
        let (first, second, item) = try conflict(policy: .error)
        do {
            try second.save()
            Issue.record("the save should have failed")
        } catch let error as MergeConflictError {
            #expect(error.conflicts.count == 1)
            let c = try #require(error.conflicts.first)
            #expect(c.objectID == item.objectID)
            #expect(c.oldVersion == 1)
            #expect(c.newVersion == 2)
            #expect(c.persisted?.attributes["completed"] == .bool(true))
        }
        #expect(try stored(first) == "Buy milk 1 99.0 2")
    }

    @Test("store trump: properties changed on both sides take the store's values, the others ours")
    func storeTrump() throws {
        let (first, second, _) = try conflict(policy: .mergeByPropertyStoreTrump)
        try second.save()
        #expect(try stored(first) == "Buy oat milk 1 99.0 3")
    }

    @Test("object trump: properties changed on both sides take ours")
    func objectTrump() throws {
        let (first, second, _) = try conflict(policy: .mergeByPropertyObjectTrump)
        try second.save()
        #expect(try stored(first) == "Buy oat milk 1 77.0 3")
    }

    @Test("overwrite: our whole object replaces the row")
    func overwrite() throws {
        let (first, second, _) = try conflict(policy: .overwrite)
        try second.save()
        #expect(try stored(first) == "Buy oat milk 0 77.0 3")
    }

    @Test("rollback: our changes to the conflicting object are dropped")
    func rollback() throws {
        let (first, second, item) = try conflict(policy: .rollback)
        try second.save()
        #expect(try stored(first) == "Buy milk 1 99.0 2")
        #expect(item.string("name") == "Buy milk")
    }

    @Test("a row deleted by another process is a conflict, never silently recreated")
    func deletedElsewhere() throws {
        let first = try SQLiteTestStack(model: try ModelFixtures.toDoModel())
        try ToDoFixture.fill(first.context)
        let second = try first.reopened().context
        let theirs = try #require(try second.object(forEntityName: "ToDo", matchingKey: "name", value: "Call mom"))
        _ = theirs.string("name")
        let mine = try #require(try first.context.object(forEntityName: "ToDo", matchingKey: "name", value: "Call mom"))
        first.context.delete(mine)
        try first.context.save()
        theirs["name"] = "Call dad"
        do {
            try second.save()
            Issue.record("the save should have failed")
        } catch let error as MergeConflictError {
            #expect(error.conflicts.map(\.newVersion) == [0])
        }
        #expect(try first.rawRows("SELECT COUNT(*) FROM ZTODO")[0][0] as Int == 4)
    }
}
