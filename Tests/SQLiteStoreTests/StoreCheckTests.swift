import Foundation
import GRDB
import ObjectGraph
import ObjectModel
import Predicates
import SQLSyntax
import SQLiteStore
import Testing
import TestSupport

/// The store check: each defect written into the file by plain SQL, and found; a sound store
/// gives nothing.
@Suite("Store check")
struct StoreCheckTests {
    /// The company fixture saved, with a badge for Bob and two tags.
    static func stack() throws -> SQLiteTestStack {
        let stack = try SQLiteTestStack(model: try ModelFixtures.companyModel())
        try CompanyFixture.fillForCheck(stack.context)
        return stack
    }

    func check(after sql: String) throws -> [StoreFinding] {
        let stack = try Self.stack()
        #expect(try stack.store.check().isEmpty, "sound before the defect")
        try DatabaseQueue(path: stack.url.path).write { try $0.execute(sql: sql) }
        return try stack.store.check()
    }

    @Test("a sound store gives no finding, and the check changes nothing in the file")
    func sound() throws {
        let stack = try Self.stack()
        let before = try Data(contentsOf: stack.url)
        #expect(try stack.store.check().isEmpty)
        #expect(try Data(contentsOf: stack.url) == before)
    }

    @Test("each defect is found, with the objects concerned", arguments: [
        ("UPDATE ZEMPLOYEE SET ZDEPARTMENT = 999 WHERE ZNAME = 'Ada'", StoreFinding.Kind.danglingReference, "Employee", "department", 1),
        ("UPDATE ZBADGE SET ZHOLDER = (SELECT Z_PK FROM ZEMPLOYEE WHERE ZNAME = 'Ada')", .oneSidedReference, "Badge", "holder", 1),
        ("DELETE FROM ZPROJECT WHERE ZNAME = 'Compiler'", .orphanJoinRow, "Employee", "projects", 2),
        ("UPDATE ZDEPARTMENT SET ZNAME = NULL WHERE ZNAME = 'Sales'", .missingRequiredValue, "Department", "name", 1),
        ("UPDATE ZPROJECT SET ZDEPARTMENT = NULL", .missingRequiredValue, "Project", "department", 2),
        // The uniqueness constraint's index refuses the duplicate: a store without it (another
        // program's, or one made before the index) is what the check looks at.
        ("DROP INDEX Z_Tag_UNIQUE_label; UPDATE ZTAG SET ZLABEL = 'red'", .duplicateUnique, "Tag", "label", 2),
        ("UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_NAME = 'Employee'", .keyCounterBehind, "Employee", nil, 1),
        ("UPDATE ZNOTE SET Z_ENT = 99 WHERE ZTEXT = 'new'", .unknownEntityNumber, "Note", nil, 1),
        ("UPDATE Z_PRIMARYKEY SET Z_SUPER = 99 WHERE Z_NAME = 'Note'", .metadataMismatch, "Note", nil, 1),
    ] as [(String, StoreFinding.Kind, String, String?, Int)])
    func finds(_ sql: String, _ kind: StoreFinding.Kind, _ entity: String, _ key: String?, _ count: Int) throws {
        let findings = try check(after: sql)
        let found = try #require(findings.first { $0.kind == kind }, "\(findings)")
        #expect(found.entity == entity && found.key == key && found.count == count, "\(found)")
        #expect(findings.allSatisfy { $0.kind == kind }, "nothing else: \(findings.map(\.kind))")
        if ![.keyCounterBehind, .orphanJoinRow, .metadataMismatch].contains(kind) {
            #expect(found.objects.count == min(count, StoreFinding.namedObjects))
        }
        if kind == .danglingReference { #expect(found.objects.first?.hasSuffix("/Employee/p1") == true, "\(found.objects)") }
    }

    @Test("repair fixes what is safe in one transaction — a dangling optional key cleared, orphan join rows removed, a counter moved up — and leaves what needs a choice")
    func repairs() throws {
        let stack = try Self.stack()
        try DatabaseQueue(path: stack.url.path).write { db in
            try db.execute(sql: "UPDATE ZEMPLOYEE SET ZDEPARTMENT = 999 WHERE ZNAME = 'Ada'")
            try db.execute(sql: "DELETE FROM ZPROJECT WHERE ZNAME = 'Compiler'")
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_NAME = 'Employee'")
            try db.execute(sql: "UPDATE ZDEPARTMENT SET ZNAME = NULL WHERE ZNAME = 'Sales'")
        }
        let store = stack.store
        let findings = try store.check()
        #expect(Set(findings.map(\.kind)) == [.danglingReference, .orphanJoinRow, .keyCounterBehind, .missingRequiredValue])
        let (repairs, refused) = store.repairs(for: findings)
        #expect(repairs.map(\.finding.kind) == findings.filter { $0.kind != .missingRequiredValue }.map(\.kind))
        #expect(refused.map(\.kind) == [.missingRequiredValue])
        #expect(repairs.contains { $0.action == "clear Employee.department on 1 object (it names a Department that is not in the store)" },
                "\(repairs.map(\.action))")
        try store.repair(repairs)
        #expect(try store.check().map(\.kind) == [.missingRequiredValue], "only what needed a choice is left")
        let other = try stack.reopened()
        let ada = try #require(try other.context.object(forEntityName: "Employee", matchingKey: "name", value: "Ada"))
        #expect(ada.object("department") == nil)
        #expect(ada.objects("projects").map { $0.string("name") } == ["Database"])
    }

    @Test("a count rule another writer broke is found (a project of four members where the model allows three), and left by repair; a Z_PRIMARYKEY row set right")
    func countRule() throws {
        let stack = try Self.stack()
        let schema = try StoreSchema(model: stack.model)
        guard case .joinTable(let join, let own, let other)? = schema.mapping(for: "Project")?.toManyStorage(for: "members") else {
            Issue.record("Project.members is kept in a join table")
            return
        }
        try DatabaseQueue(path: stack.url.path).write { db in
            try db.execute(sql: "INSERT INTO \(join) (\(own), \(other)) SELECT p.Z_PK, e.Z_PK FROM ZPROJECT p, ZEMPLOYEE e "
                           + "WHERE p.ZNAME = 'Compiler' AND e.ZNAME IN ('Bob', 'Cécile')")
            try db.execute(sql: "DELETE FROM Z_PRIMARYKEY WHERE Z_NAME = 'Badge'")
        }
        let store = stack.store
        let findings = try store.check()
        let count = try #require(findings.first { $0.kind == .countOutOfRange }, "\(findings)")
        #expect(count.entity == "Project" && count.key == "members" && count.count == 1)
        #expect(count.message == "Project.members holds at most 3 objects in the model, and these objects hold another number")
        #expect(count.objects.first?.hasSuffix("/Project/p1") == true, "\(count.objects)")
        let metadata = try #require(findings.first { $0.kind == .metadataMismatch }, "\(findings)")
        #expect(metadata.entity == "Badge")
        let (repairs, refused) = store.repairs(for: findings)
        #expect(refused.map(\.kind) == [.countOutOfRange], "a count rule needs a choice")
        try store.repair(repairs)
        #expect(try store.check().map(\.kind) == [.countOutOfRange])
    }
}
