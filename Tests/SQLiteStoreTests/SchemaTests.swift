import SQLSyntax
import Foundation
import GRDB
import Testing
import ObjectGraph
import ObjectModel
import Predicates
@testable import SQLiteStore
import TestSupport

@Suite("Core Data's SQLite layout")
struct SchemaTests {
    @Test("SampleModel gives the tables, columns in order, and indexes (its uniqueness constraints' too) Apple's Core Data wrote for it, but its model cache")
    func appleTables() throws {
        let ours = Set(try StoreSchema(model: try ModelFixtures.sampleModel(version: "SampleModel")).creationStatements)
        let apple = Set(try SQLiteTestStack.schemaStatements(try Fixtures.copyOfCorpusFile(ModelFixtures.sampleStoreV1)))
        #expect(ours.isSubset(of: apple), "\(ours.subtracting(apple))")
        // Not written here yet: the compiled model Core Data caches in the store.
        #expect(apple.subtracting(ours) == ["CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)"])
    }

    @Test("SampleModel's second version gives Apple's schema too, its fetch index included")
    func appleTablesWithFetchIndex() throws {
        let ours = Set(try StoreSchema(model: try ModelFixtures.sampleModel(version: "SampleModel2")).creationStatements)
        let apple = Set(try SQLiteTestStack.schemaStatements(try Fixtures.copyOfCorpusFile(ModelFixtures.sampleStoreV2)))
        #expect(ours.isSubset(of: apple), "\(ours.subtracting(apple))")
        #expect(apple.subtracting(ours) == ["CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)"])
    }

    @Test("the company model: columns grouped by type, foreign keys indexed, a join table for many-to-many")
    func companyStatements() throws {
        let schema = try StoreSchema(model: try ModelFixtures.companyModel())
        #expect(schema.creationStatements == [
            "CREATE TABLE ZBADGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZHOLDER INTEGER, ZCODE VARCHAR )",
            "CREATE TABLE ZDEPARTMENT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZBUDGET DECIMAL, ZNAME VARCHAR )",
            "CREATE TABLE ZEMPLOYEE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSALARY INTEGER, ZBADGE INTEGER, ZDEPARTMENT INTEGER, ZHIRED TIMESTAMP, ZNAME VARCHAR )",
            "CREATE TABLE ZNOTE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHOR INTEGER, ZTEXT VARCHAR )",
            "CREATE TABLE ZPROJECT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDEPARTMENT INTEGER, ZNAME VARCHAR )",
            "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZLABEL VARCHAR )",
            "CREATE TABLE Z_3PROJECTS ( Z_3MEMBERS INTEGER, Z_5PROJECTS INTEGER, PRIMARY KEY (Z_3MEMBERS, Z_5PROJECTS) )",
            "CREATE INDEX ZBADGE_ZHOLDER_INDEX ON ZBADGE (ZHOLDER)",
            "CREATE INDEX ZEMPLOYEE_ZBADGE_INDEX ON ZEMPLOYEE (ZBADGE)",
            "CREATE INDEX ZEMPLOYEE_ZDEPARTMENT_INDEX ON ZEMPLOYEE (ZDEPARTMENT)",
            "CREATE INDEX ZNOTE_ZAUTHOR_INDEX ON ZNOTE (ZAUTHOR)",
            "CREATE INDEX ZPROJECT_ZDEPARTMENT_INDEX ON ZPROJECT (ZDEPARTMENT)",
            "CREATE UNIQUE INDEX Z_Tag_UNIQUE_label ON ZTAG (ZLABEL COLLATE BINARY ASC)",
            "CREATE INDEX Z_3PROJECTS_Z_5PROJECTS_INDEX ON Z_3PROJECTS (Z_5PROJECTS, Z_3MEMBERS)",
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
        ])
    }

    @Test("an inheritance tree shares its root's table, with Z_ENT telling the entities apart")
    func inheritance() throws {
        let model = try ModelFixtures.employeeModel()
        let schema = try StoreSchema(model: model)
        let person = try #require(schema.mapping(for: "Person"))
        let employee = try #require(schema.mapping(for: "Employee"))
        #expect(employee.table.name == person.table.name)
        #expect(employee.number != person.number)
        #expect(schema.creationStatements.contains("CREATE INDEX \(person.table.name)_Z_ENT_INDEX ON \(person.table.name) (Z_ENT)"))
    }

    @Test("an indexed attribute gets an index; Z_PRIMARYKEY lists every entity with its parent")
    func indexesAndPrimaryKeys() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.toDoModel())
        let indexes = try stack.rawRows("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'ZTODO%'").map { $0[0] as String }
        #expect(Set(indexes) == ["ZTODO_ZDUEDATE_INDEX", "ZTODO_ZCATEGORY_INDEX"])
        let keys = try stack.rawRows("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        #expect(keys.map { "\($0[0] as Int) \($0[1] as String) \($0[2] as Int) \($0[3] as Int)" } == ["1 Category 0 0", "2 ToDo 0 0"])
        let employees = try SQLiteTestStack(model: try ModelFixtures.employeeModel())
        let supers = try employees.rawRows("SELECT Z_NAME, Z_SUPER FROM Z_PRIMARYKEY").map { ($0[0] as String, $0[1] as Int) }
        #expect(supers.contains { $0.0 == "Person" && $0.1 == 0 })
        #expect(supers.contains { $0.0 == "Employee" && $0.1 != 0 })
    }

    @Test("Z_METADATA holds a binary property list with the store type, UUID and version hashes")
    func metadata() throws {
        let model = try ModelFixtures.toDoModel()
        let stack = try SQLiteTestStack(model: model)
        let row = try #require(try stack.rawRows("SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA").first)
        #expect(row[0] as Int == 1)
        #expect(row[1] as String == stack.store.identifier)
        let data: Data = row[2]
        #expect(data.starts(with: Data("bplist00".utf8)))
        let plist = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        #expect(plist["NSStoreType"] as? String == "SQLite")
        let hashes = try #require(plist["NSStoreModelVersionHashes"] as? [String: Data])
        #expect(hashes == model.entityVersionHashes)
    }

    @Test("a store written with another version of the model is refused, naming the entities")
    func versionMismatch() throws {
        let file = try XcodeModelFile.read(ModelFixtures.toDo)
        let v2 = file.current
        let v1 = try #require(file.versions.map(\.model).first { $0.entityVersionHashes != v2.entityVersionHashes })
        let stack = try SQLiteTestStack(model: v1)
        stack.store.close()
        #expect(throws: ObjectGraphError.self) { try SQLiteTestStack(model: v2, url: stack.url) }
    }

    @Test("a file that is not a Core Data store is refused with a clear error")
    func notAStore() throws {
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("other.sqlite")
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { try $0.execute(sql: "CREATE TABLE t (x)") }
        try queue.close()
        SQLiteStore.register()
        let coordinator = PersistentStoreCoordinator(model: try ModelFixtures.toDoModel())
        #expect(throws: ObjectGraphError.storeFormat(file: url.path, reason: "not a Core Data store (no Z_METADATA table)")) {
            try coordinator.addStore(type: .sqlite, at: url)
        }
    }
}

@Suite("Every corpus model as a SQLite store")
struct CorpusModelStoreTests {
    @Test("creates a store, reopens it, and fetches every entity", arguments: ModelFixtures.corpusModels)
    func create(_ url: URL) throws {
        let model = try XcodeModelFile.read(url).current
        let stack = try SQLiteTestStack(model: model)
        let again = try stack.reopened()
        for entity in model.entities {
            #expect(try again.context.count(for: FetchRequest(entityName: entity.name)) == 0)
        }
        #expect(try again.rawRows("SELECT COUNT(*) FROM Z_PRIMARYKEY")[0][0] as Int == model.entities.count)
    }
}
