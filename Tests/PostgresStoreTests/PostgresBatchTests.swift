import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import PostgresStore
import TestSupport

/// Batch insert, update and delete on a PostgreSQL store: in SQL, in one transaction, seen
/// by other clients through the history.
@Suite("Batch requests on PostgreSQL")
struct PostgresBatchTests {
    func names(_ stack: PostgresTestStack, _ table: String = "ZTODO") throws -> [String] {
        try stack.store.plainRows(#"SELECT "ZNAME" FROM "\#(table)" ORDER BY "ZNAME""#).map { $0[0].stringValue ?? "nil" }
    }

    func count(_ context: ManagedObjectContext, _ entity: String, _ format: String? = nil) throws -> Int {
        try context.count(for: FetchRequest(entityName: entity, predicate: format.map { try ObjectPredicate(format: $0) }))
    }

    @Test("a batch insert writes rows with the model's defaults and their folded text, and returns their IDs")
    func batchInsert() throws {
        let stack = try PostgresTestStack(model: try ModelFixtures.toDoModel())
        let result = try stack.context.execute(BatchInsertRequest(entityName: "ToDo", objects: [
            ["name": "Crème brûlée", "completed": true], ["name": "Éclair"],
        ], resultType: .objectIDs))
        #expect(result.count == 2)
        let ids = try #require(result.objectIDs)
        #expect(try names(stack) == ["Crème brûlée", "Éclair"])
        let eclair = try stack.context.existingObject(with: ids[1])
        #expect(eclair["completed"] == false, "the model's default")
        #expect(try count(stack.context, "ToDo", "name BEGINSWITH[cd] 'CREME' OR name ==[cd] 'eclair'") == 2)
        let counted = try stack.context.execute(BatchInsertRequest(entityName: "Category") { object, i in
            guard i < 500 else { return true }
            object["name"] = .string("category \(i)")
            return false
        })
        #expect(counted.count == 500 && counted.objectIDs == nil)
        #expect(try count(stack.context, "Category") == 500)
        // New objects take keys no batch handed out.
        let item = try stack.context.insertObject(forEntityName: "ToDo")
        item["name"] = "Tart"
        try stack.context.save()
        #expect(!ids.contains(item.objectID))
        #expect(throws: BatchRequestError.notAnAttribute(entity: "ToDo", key: "colour")) {
            try stack.context.execute(BatchInsertRequest(entityName: "ToDo", objects: [["name": "x"], ["colour": "red"]]))
        }
        #expect(try names(stack).count == 3, "a refused request writes nothing")
    }

    @Test("a batch update sets values and their folded copies where the predicate matches; a client holding an object meets it at its save")
    func batchUpdate() throws {
        let stack = try PostgresTestStack(model: try ModelFixtures.toDoModel())
        try stack.context.execute(BatchInsertRequest(entityName: "ToDo", objects: (1...10).map { ["name": .string("item \($0)")] }))
        let held = try #require(try stack.context.fetch(FetchRequest(entityName: "ToDo", predicate: try ObjectPredicate(format: "name == 'item 9'"))).first)
        #expect(held["name"] == "item 9")
        let result = try stack.context.execute(BatchUpdateRequest(entityName: "ToDo", predicate: try ObjectPredicate(format: "name ENDSWITH '9' OR name ENDSWITH '1'"),
                                                                  propertiesToUpdate: ["name": "Überfällig"], resultType: .objectIDs))
        #expect(result.count == 2 && result.objectIDs?.count == 2, "item 1 and item 9")
        #expect(try count(stack.context, "ToDo", "name ==[cd] 'uberfallig'") == 2, "the folded copies follow")
        #expect(try count(stack.context, "ToDo", "name BEGINSWITH 'item'") == 8)
        held["completed"] = true
        #expect(throws: MergeConflictError.self) { try stack.context.save() }
        #expect(throws: PostgresStoreError.self) {
            try stack.context.execute(BatchUpdateRequest(entityName: "ToDo", propertiesToUpdate: ["name": "a\u{0}b"]))
        }
    }

    @Test("a batch delete applies the delete rules: Cascade deletes, Nullify clears, Deny refuses and writes nothing")
    func batchDeleteRules() throws {
        let stack = try PostgresTestStack(model: try ModelFixtures.companyModel())
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
        #expect(try stack.store.plainRows(#"SELECT count(*) FROM "ZBADGE""#)[0][0].intValue == 0)
        #expect(try stack.store.plainRows(#"SELECT count(*) FROM "ZDEPARTMENT""#)[0][0].intValue == 1)

        // Department.projects is Deny: a department with a project cannot go.
        let project = try context.insertObject(forEntityName: "Project")
        project["name"] = "Apollo"
        project["department"] = .object(context.object(with: sales.objectID))
        try context.save()
        #expect(throws: BatchRequestError.denied(entity: "Department", relationship: "projects", objects: 1)) {
            try context.execute(BatchDeleteRequest(entityName: "Department"))
        }
        #expect(try stack.store.plainRows(#"SELECT count(*) FROM "ZDEPARTMENT""#)[0][0].intValue == 1)
    }

    @Test("another client merges a batch delete and update from the history, under the author that ran them")
    func otherClientMerges() throws {
        var options = StoreOptions()
        options.tracksHistory = true
        let here = try PostgresTestStack(model: try ModelFixtures.toDoModel(), options: options)
        try here.context.execute(BatchInsertRequest(entityName: "ToDo", objects: (1...6).map { ["name": .string("item \($0)")] }))
        let items = try here.context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")]))
        #expect(items.compactMap { $0.string("name") }.count == 6)
        here.context.historyToken = try here.coordinator.currentHistoryToken()

        let there = try here.reopened(options: options)
        there.context.transactionAuthor = "cleaner"
        #expect(try there.context.execute(BatchDeleteRequest(entityName: "ToDo", predicate: try ObjectPredicate(format: "name <= 'item 2'"))).count == 2)
        #expect(try there.context.execute(BatchUpdateRequest(entityName: "ToDo", predicate: try ObjectPredicate(format: "name == 'item 6'"),
                                                             propertiesToUpdate: ["name": "six"])).count == 1)
        let merged = try here.context.mergeRemoteChanges()
        #expect(merged.map(\.author) == ["cleaner", "cleaner"])
        #expect(items.prefix(2).allSatisfy { !$0.isValid })
        #expect(items[5]["name"] == "six")
        #expect(try count(here.context, "ToDo") == 4)
    }
}
