import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import PostgresStore
import TestSupport

/// The store check on a real PostgreSQL server: each defect written by plain SQL, and found.
@Suite("Store check on PostgreSQL")
struct PostgresCheckTests {
    static func stack() throws -> PostgresTestStack {
        let stack = try PostgresTestStack(model: try ModelFixtures.companyModel())
        try CompanyFixture.fillForCheck(stack.context)
        return stack
    }

    @Test("each defect is found, with the objects concerned; a sound store gives none", arguments: [
        (#"UPDATE "ZEMPLOYEE" SET "ZDEPARTMENT" = 999 WHERE "ZNAME" = 'Ada'"#, StoreFinding.Kind.danglingReference, "Employee", "department", 1),
        (#"UPDATE "ZBADGE" SET "ZHOLDER" = (SELECT "Z_PK" FROM "ZEMPLOYEE" WHERE "ZNAME" = 'Ada')"#, .oneSidedReference, "Badge", "holder", 1),
        (#"DELETE FROM "ZPROJECT" WHERE "ZNAME" = 'Compiler'"#, .orphanJoinRow, "Employee", "projects", 2),
        (#"UPDATE "ZDEPARTMENT" SET "ZNAME" = NULL WHERE "ZNAME" = 'Sales'"#, .missingRequiredValue, "Department", "name", 1),
        (#"DROP INDEX "Z_Tag_UNIQUE_label"; UPDATE "ZTAG" SET "ZLABEL" = 'red'"#, .duplicateUnique, "Tag", "label", 2),
        (#"SELECT setval(('"Z_PK_SEQ_' || (SELECT "Z_ENT" FROM "Z_PRIMARYKEY" WHERE "Z_NAME" = 'Employee') || '"')::regclass, 1)"#,
         .keyCounterBehind, "Employee", nil, 1),
        (#"UPDATE "ZNOTE" SET "Z_ENT" = 99 WHERE "ZTEXT" = 'new'"#, .unknownEntityNumber, "Note", nil, 1),
        (#"UPDATE "Z_PRIMARYKEY" SET "Z_SUPER" = 99 WHERE "Z_NAME" = 'Note'"#, .metadataMismatch, "Note", nil, 1),
    ] as [(String, StoreFinding.Kind, String, String?, Int)])
    func finds(_ sql: String, _ kind: StoreFinding.Kind, _ entity: String, _ key: String?, _ count: Int) throws {
        let stack = try Self.stack()
        #expect(try stack.store.check().isEmpty, "sound before the defect")
        for statement in sql.components(separatedBy: "; ") { _ = try stack.store.plainRows(statement) }
        let findings = try stack.store.check()
        let found = try #require(findings.first { $0.kind == kind }, "\(findings)")
        #expect(found.entity == entity && found.key == key && found.count == count, "\(found)")
        #expect(findings.allSatisfy { $0.kind == kind }, "nothing else: \(findings.map(\.kind))")
        if kind == .danglingReference { #expect(found.objects.first?.contains("/Employee/p") == true, "\(found.objects)") }
    }
}
