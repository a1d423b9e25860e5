import Foundation
import GRDB
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import Testing
import TestSupport

@Suite("Batch requests")
struct BatchRequestTests {
    private func titles(_ stack: SQLiteTestStack, _ entity: String = "Book") throws -> [String] {
        try stack.rawRows("SELECT ZTITLE FROM Z\(entity.uppercased()) ORDER BY ZTITLE").map { ($0[0] as String?) ?? "nil" }
    }

    @Test("a batch insert writes rows from dictionaries, with the model's defaults, and returns their IDs")
    func batchInsert() throws {
        let stack = try LibraryModel.stack()
        let result = try stack.context.execute(BatchInsertRequest(entityName: "Book", objects: [
            ["title": "Dune", "pages": 412], ["title": "Emma"],
        ], resultType: .objectIDs))
        #expect(result.count == 2)
        let ids = try #require(result.objectIDs)
        #expect(try titles(stack) == ["Dune", "Emma"])
        let dune = try stack.context.existingObject(with: ids[0])
        #expect(dune["title"] == "Dune" && dune["pages"] == 412)

        // From a closure, as Core Data's dictionary handler.
        let counted = try stack.context.execute(BatchInsertRequest(entityName: "Tag") { object, i in
            guard i < 1000 else { return true }
            object["label"] = .string("tag \(i)")
            return false
        })
        #expect(counted.count == 1000)
        #expect(try stack.context.count(for: FetchRequest(entityName: "Tag")) == 1000)
        // New objects take keys no save hands out again.
        let book = try stack.context.insertObject(forEntityName: "Book")
        try stack.context.save()
        #expect(!ids.contains(book.objectID))
    }

    @Test("a large batch insert of objects with differing keys writes each value where it belongs, and the history records each row once")
    func largeMixedBatchInsert() throws {
        let stack = try LibraryModel.stack()
        let token = try stack.coordinator.currentHistoryToken()
        let objects: [[String: ObjectValue]] = (0..<600).map { i in
            switch i % 3 {
            case 0: ["title": .string("t\(i)"), "pages": .int(i)]
            case 1: ["pages": .int(i)]
            default: ["isbn": .string("isbn \(i)"), "pages": .int(i), "title": .string("t\(i)")]
            }
        }
        let result = try stack.context.execute(BatchInsertRequest(entityName: "Book", objects: objects, resultType: .objectIDs))
        let ids = try #require(result.objectIDs)
        #expect(ids.count == 600 && Set(ids).count == 600)
        for i in [0, 1, 2, 299, 598, 599] {
            let book = try stack.context.existingObject(with: ids[i])
            #expect(book["pages"] == .int(i))
            #expect(book["title"] == (i % 3 == 1 ? .null : .string("t\(i)")))
            #expect(book["isbn"] == (i % 3 == 2 ? .string("isbn \(i)") : .null))
        }
        let history = try stack.coordinator.fetchHistory(HistoryRequest(after: token))
        #expect(history.count == 1)
        #expect(history.first?.changes.count == 600 && Set(history.first?.changes.map(\.changedObjectID) ?? []) == Set(ids))
    }

    @Test("a key that is not a stored attribute refuses the request, and nothing is written")
    func unknownKeys() throws {
        let stack = try LibraryModel.stack()
        #expect(throws: BatchRequestError.notAnAttribute(entity: "Book", key: "shelf")) {
            try stack.context.execute(BatchInsertRequest(entityName: "Book", objects: [["title": "Dune"], ["shelf": .null]]))
        }
        #expect(try titles(stack).isEmpty)
        #expect(throws: BatchRequestError.notAnAttribute(entity: "Book", key: "colour")) {
            try stack.context.execute(BatchUpdateRequest(entityName: "Book", propertiesToUpdate: ["colour": "red"]))
        }
    }

    @Test("a batch update sets values in SQL where the predicate matches, and a context holding an object meets it at its save")
    func batchUpdate() throws {
        let stack = try LibraryModel.stack()
        try stack.context.execute(BatchInsertRequest(entityName: "Book", objects: (1...10).map { ["title": .string("b\($0)"), "pages": .int($0 * 100)] }))
        let held = try #require(try stack.context.fetch(FetchRequest(entityName: "Book", predicate: try ObjectPredicate(format: "pages == 900"))).first)
        #expect(held["title"] == "b9")   // read now: the context holds this version
        let result = try stack.context.execute(BatchUpdateRequest(entityName: "Book", predicate: try ObjectPredicate(format: "pages > 500"),
                                                                  propertiesToUpdate: ["title": "long"], resultType: .objectIDs))
        #expect(result.count == 5)
        #expect(result.objectIDs?.count == 5)
        #expect(try titles(stack).filter { $0 == "long" }.count == 5)
        held["pages"] = 901
        #expect(throws: MergeConflictError.self) { try stack.context.save() }
    }

    @Test("a batch delete applies the delete rules: Cascade deletes, Nullify clears, Deny refuses")
    func batchDeleteRules() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.companyModel())
        let context = stack.context
        let sales = try context.insertObject(forEntityName: "Department")
        sales["name"] = "Sales"
        let ann = try context.insertObject(forEntityName: "Employee")
        ann["name"] = "Ann"
        ann["department"] = .object(sales)
        let badge = try context.insertObject(forEntityName: "Badge")
        badge["code"] = "AB123"
        badge["holder"] = .object(ann)
        let note = try context.insertObject(forEntityName: "Note")
        note["author"] = .object(ann)
        try context.save()

        // Employee.department is Nullify, Employee.badge Cascade, notes No Action.
        let result = try context.execute(BatchDeleteRequest(entityName: "Employee", resultType: .objectIDs))
        #expect(Set(result.objectIDs ?? []) == [ann.objectID, badge.objectID])
        #expect(try stack.rawRows("SELECT COUNT(*) FROM ZBADGE")[0][0] as Int == 0)
        #expect(try stack.rawRows("SELECT COUNT(*) FROM ZDEPARTMENT")[0][0] as Int == 1)

        // Department.projects is Deny: a department with a project cannot go.
        let project = try context.insertObject(forEntityName: "Project")
        project["name"] = "Apollo"
        project["department"] = .object(context.object(with: sales.objectID))
        try context.save()
        #expect(throws: BatchRequestError.denied(entity: "Department", relationship: "projects", objects: 1)) {
            try context.execute(BatchDeleteRequest(entityName: "Department"))
        }
        #expect(try stack.rawRows("SELECT COUNT(*) FROM ZDEPARTMENT")[0][0] as Int == 1)
    }

    @Test("a context merges another process's batch delete and update from history")
    func contextMergesRemoteBatch() throws {
        let here = try LibraryModel.stack()
        try here.context.execute(BatchInsertRequest(entityName: "Book", objects: (1...6).map { ["title": .string("b\($0)"), "pages": .int($0)] }))
        let books = try here.context.fetch(FetchRequest(entityName: "Book", sortDescriptors: [ObjectSortDescriptor(key: "pages")]))
        #expect(books.count == 6)
        here.context.historyToken = try here.coordinator.currentHistoryToken()

        let there = try LibraryModel.stack(url: here.url)
        there.context.transactionAuthor = "cleaner"
        #expect(try there.context.execute(BatchDeleteRequest(entityName: "Book", predicate: try ObjectPredicate(format: "pages <= 2"))).count == 2)
        #expect(try there.context.execute(BatchUpdateRequest(entityName: "Book", predicate: try ObjectPredicate(format: "pages == 6"),
                                                             propertiesToUpdate: ["title": "six"])).count == 1)
        let merged = try here.context.mergeRemoteChanges()
        #expect(merged.map(\.author) == ["cleaner", "cleaner"])
        #expect(books.prefix(2).allSatisfy { !$0.isValid })
        #expect(books[5]["title"] == "six")
        #expect(try here.context.count(for: FetchRequest(entityName: "Book")) == 4)
        #expect(merged[0].changes.allSatisfy { $0.changeType == .delete && $0.tombstone?["title"] != nil })
    }

    @Test("an XML store runs no batch requests, and says so")
    func xmlStoreRefuses() throws {
        let folder = try Fixtures.temporaryDirectory("batch")
        let stack = try TestStack(model: try LibraryModel.model(), type: .xml, url: folder.appendingPathComponent("L.xml"))
        #expect(throws: BatchRequestError.unsupportedStore(.xml)) {
            try stack.context.execute(BatchDeleteRequest(entityName: "Book"))
        }
    }
}
