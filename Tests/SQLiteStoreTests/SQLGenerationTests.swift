import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

@Suite("Generated SQL")
struct SQLGenerationTests {
    func sql(_ request: FetchRequest<ManagedObject>, entityNames: [String]? = nil) throws -> (String, [String]) {
        let stack = try SQLiteTestStack(model: try ModelFixtures.companyModel())
        let names = entityNames ?? [request.entityName]
        return try stack.store.sql(for: StoreRequest(fetch: request, entityNames: names))
    }

    @Test("predicates compile to SQL with every value bound", arguments: [
        ("salary > 60000", "SELECT t0.Z_PK, t0.Z_ENT FROM ZEMPLOYEE t0 WHERE t0.ZSALARY > ?", ["60000"]),
        ("name == 'Ada'", "SELECT t0.Z_PK, t0.Z_ENT FROM ZEMPLOYEE t0 WHERE t0.ZNAME = ?", ["\"Ada\""]),
        ("name != 'Ada'", "SELECT t0.Z_PK, t0.Z_ENT FROM ZEMPLOYEE t0 WHERE t0.ZNAME IS NOT ?", ["\"Ada\""]),
        ("name ==[cd] 'Cécile'", "SELECT t0.Z_PK, t0.Z_ENT FROM ZEMPLOYEE t0 WHERE td_fold(t0.ZNAME, ?) = ?", ["3", "\"cecile\""]),
        ("hired == nil", "SELECT t0.Z_PK, t0.Z_ENT FROM ZEMPLOYEE t0 WHERE t0.ZHIRED IS NULL", []),
        // Plain ASCII text is tested in C; any other, by the evaluator's function (see ASCIIText).
        ("name LIKE[c] 'a*'",
         "SELECT t0.Z_PK, t0.Z_ENT FROM ZEMPLOYEE t0 WHERE COALESCE(td_ascii_like(t0.ZNAME, ?, ?), td_like(t0.ZNAME, ?, ?), 0)",
         ["\"a*\"", "1", "\"a*\"", "1"]),
        ("name BEGINSWITH[c] 'a_'",
         "SELECT t0.Z_PK, t0.Z_ENT FROM ZEMPLOYEE t0 WHERE COALESCE(td_ascii_beginswith(t0.ZNAME, ?, ?), td_test(?, t0.ZNAME, ?, ?), 0)",
         ["\"a_\"", "1", "\"BEGINSWITH\"", "\"a_\"", "1"]),
        ("name ENDSWITH 'é'", "SELECT t0.Z_PK, t0.Z_ENT FROM ZEMPLOYEE t0 WHERE td_test(?, t0.ZNAME, ?, ?)", ["\"ENDSWITH\"", "\"é\"", "0"]),
        ("name MATCHES 'A.*'", "SELECT t0.Z_PK, t0.Z_ENT FROM ZEMPLOYEE t0 WHERE td_matches(t0.ZNAME, ?, ?)", ["\"A.*\"", "0"]),
        ("salary BETWEEN {1, 2}", "SELECT t0.Z_PK, t0.Z_ENT FROM ZEMPLOYEE t0 WHERE t0.ZSALARY BETWEEN ? AND ?", ["1", "2"]),
        ("salary IN {1, 2}", "SELECT t0.Z_PK, t0.Z_ENT FROM ZEMPLOYEE t0 WHERE t0.ZSALARY IN (?, ?)", ["1", "2"]),
        ("department.name == 'Sales'",
         "SELECT t0.Z_PK, t0.Z_ENT FROM ZEMPLOYEE t0 LEFT JOIN ZDEPARTMENT t1 ON t1.Z_PK = t0.ZDEPARTMENT WHERE t1.ZNAME = ?", ["\"Sales\""]),
        ("NOT (salary > 5)", "SELECT t0.Z_PK, t0.Z_ENT FROM ZEMPLOYEE t0 WHERE NOT COALESCE(t0.ZSALARY > ?, 0)", ["5"]),
        ("notes.@count > 1",
         "SELECT t0.Z_PK, t0.Z_ENT FROM ZEMPLOYEE t0 WHERE (SELECT COUNT(*) FROM ZNOTE WHERE ZNOTE.ZAUTHOR = t0.Z_PK) > ?", ["1"]),
        ("ANY projects.name == 'X'",
         "SELECT t0.Z_PK, t0.Z_ENT FROM ZEMPLOYEE t0 WHERE EXISTS (SELECT 1 FROM Z_3PROJECTS jt1 JOIN ZPROJECT t1 ON t1.Z_PK = jt1.Z_5PROJECTS WHERE jt1.Z_3MEMBERS = t0.Z_PK AND t1.ZNAME = ?)", ["\"X\""]),
        ("ALL notes.text == 'X'",
         "SELECT t0.Z_PK, t0.Z_ENT FROM ZEMPLOYEE t0 WHERE NOT EXISTS (SELECT 1 FROM ZNOTE t1 WHERE t1.ZAUTHOR = t0.Z_PK AND NOT COALESCE(t1.ZTEXT = ?, 0))", ["\"X\""]),
        ("name == 5", "SELECT t0.Z_PK, t0.Z_ENT FROM ZEMPLOYEE t0 WHERE 0", []),
    ])
    func predicates(_ format: String, _ expected: String, _ arguments: [String]) throws {
        assertSQL(try sql(FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: format))), expected, arguments)
    }

    @Test("sort descriptors become ORDER BY with collations and the key as tie-break; limits are bound")
    func ordering() throws {
        let request = FetchRequest(entityName: "Employee",
                                   sortDescriptors: [ObjectSortDescriptor(key: "name", comparison: .caseInsensitiveCompare),
                                                     ObjectSortDescriptor(key: "salary", ascending: false)],
                                   fetchLimit: 50, fetchOffset: 10)
        assertSQL(try sql(request),
                  "SELECT t0.Z_PK, t0.Z_ENT FROM ZEMPLOYEE t0 ORDER BY t0.ZNAME COLLATE td_caseInsensitiveCompare ASC, t0.ZSALARY DESC, t0.Z_PK ASC LIMIT ? OFFSET ?",
                  ["50", "10"])
    }

    @Test("a fetch of one entity of a tree restricts Z_ENT; of the whole tree, not")
    func entityRestriction() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.employeeModel())
        let model = stack.model
        let person = try #require(model.entity(named: "Person"))
        let employee = try #require(model.entity(named: "Employee"))
        let all = try stack.store.sql(for: StoreRequest(fetch: FetchRequest(entityName: "Person"), entityNames: person.kindNames))
        assertSQL(all, "SELECT t0.Z_PK, t0.Z_ENT FROM ZPERSON t0")
        let one = try stack.store.sql(for: StoreRequest(fetch: FetchRequest(entityName: "Employee"), entityNames: ["Employee"]))
        assertSQL(one, "SELECT t0.Z_PK, t0.Z_ENT FROM ZPERSON t0 WHERE t0.Z_ENT = ?", ["\(employee.number)"])
    }

    @Test("constructs with no SQL form throw a named error", arguments: [
        "projects.name == 'X'",
        "nickname == 'x'",
        "ANY name == 'x'",
        "unknownKey == 1",
    ])
    func unsupported(_ format: String) throws {
        #expect(throws: SQLiteStoreError.self) {
            try sql(FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: format)))
        }
    }

    @Test("a fetch with an unsupported predicate reaches the caller as that error")
    func unsupportedThroughContext() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.companyModel())
        let request = FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: "nosuchkey == 1"))
        #expect(throws: SQLiteStoreError.unknownKey(entity: "Employee", key: "nosuchkey")) { try stack.newContext().fetch(request) }
    }
}

@Suite("MATCHES in SQL")
struct MatchesInSQLTests {
    @Test("a MATCHES the engine gives up on fails the fetch, naming the pattern, rather than leaving rows out")
    func givesUpInSQL() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.toDoModel())
        for name in ["aab", String(repeating: "a", count: 40)] { try stack.context.insertObject(forEntityName: "ToDo")["name"] = .string(name) }
        try stack.context.save()
        let request = FetchRequest(entityName: "ToDo", predicate: try ObjectPredicate(format: "name MATCHES '(a+)+b'"))
        let error = try #require(throws: SQLiteStoreError.self) { try stack.newContext().fetch(request) }
        #expect("\(error)".contains("MATCHES pattern \"(a+)+b\" gave up"), "\(error)")
    }
}
