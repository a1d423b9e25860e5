import Foundation
import GRDB
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

/// A model inferred from a Core Data SQLite store's layout, for stores found without one.
@Suite("Inferring a model from a store's layout")
struct ModelInferenceTests {
    /// SampleModel's version-1 store as Core Data wrote it, without its cached model.
    private func appleStoreWithoutCache() throws -> URL {
        let url = try Fixtures.copyOfCorpusFile(ModelFixtures.sampleStoreV1)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { try $0.execute(sql: "DELETE FROM Z_MODELCACHE") }
        try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = DELETE") }
        try queue.close()
        return url
    }

    private func readOnly(_ model: ManagedObjectModel, _ url: URL) throws -> SQLiteTestStack {
        var options = StoreOptions()
        options.readOnly = true
        return try SQLiteTestStack(model: model, url: url, options: options)
    }

    @Test("Apple's store: entities and inheritance from Z_PRIMARYKEY, types from the columns, names from the uniqueness indexes")
    func appleStore() throws {
        let url = try appleStoreWithoutCache()
        let inferred = try SQLiteStore.inferModel(at: url)
        let model = inferred.model
        #expect(model.entityNames.sorted() == ["Car", "ExpensiveSportCar", "Person", "SportCar"])
        #expect(model.entity(named: "ExpensiveSportCar")?.parentName == "SportCar")
        #expect(model.entity(named: "SportCar")?.parentName == "Car")
        let car = try #require(model.entity(named: "Car"))
        #expect(car.attribute(named: "numberPlate")?.type == .string, "spelled by Z_Car_UNIQUE_numberPlate")
        #expect(car.declaration.uniquenessConstraints == [["numberPlate"]])
        #expect(car.attribute(named: "markedfordeletionasof")?.type == .date)
        #expect(car.attribute(named: "color")?.type == .binary)
        // Only ExpensiveSportCar rows hold isLimitedEdition, so it is declared there.
        #expect(car.attribute(named: "islimitededition") == nil)
        #expect(model.entity(named: "ExpensiveSportCar")?.declaration.attributes.map(\.name) == ["islimitededition"])
        #expect(model.entity(named: "ExpensiveSportCar")?.attribute(named: "islimitededition")?.type == .boolean)
        let person = try #require(model.entity(named: "Person"))
        #expect(person.attribute(named: "id")?.type == .uuid)
        #expect(person.declaration.uniquenessConstraints == [["firstName", "lastName"]])
        // ZCAR.ZOWNER holds Person keys; Person gets the to-many back.
        #expect(car.relationship(named: "owner")?.destinationEntityName == "Person")
        #expect(car.relationship(named: "owner")?.inverseName == "cars")
        #expect(person.relationship(named: "cars")?.isToMany == true)
        #expect(inferred.guesses["Car.owner"]?.contains("every value is one of its keys") == true)
        #expect(inferred.guesses["Person.cars"] != nil)
        #expect(InferredModel.isInferred(model))
    }

    @Test("the inferred model opens the store and reads it as its source does, leaving the file byte for byte")
    func readsAsTheSource() throws {
        let url = try appleStoreWithoutCache()
        let before = try Data(contentsOf: url)
        let stack = try readOnly(try SQLiteStore.inferModel(at: url).model, url)
        // sqlite3: SELECT COUNT(*) FROM ZCAR (125), ... WHERE Z_ENT = 3 (5), FROM ZPERSON (20).
        #expect(try stack.context.count(for: FetchRequest(entityName: "Car")) == 125)
        #expect(try stack.context.count(for: FetchRequest(entityName: "ExpensiveSportCar")) == 5)
        #expect(try stack.context.count(for: FetchRequest(entityName: "Person")) == 20)
        let car = try #require(try stack.context.object(forEntityName: "Car", matchingKey: "numberPlate", value: "302"))
        let owner = try #require(car.object("owner"))
        #expect(owner.string("lastName") == "Pyke", "spelled by Z_Person_UNIQUE_firstName_lastName")
        #expect(owner.objects("cars").count == 3)
        let limited = try stack.context.count(for: FetchRequest(entityName: "ExpensiveSportCar",
                                                                 predicate: try ObjectPredicate(format: "islimitededition == YES")))
        #expect(limited == 2)
        stack.coordinator.removeStore(stack.store)
        #expect(try Data(contentsOf: url) == before)
    }

    @Test("a store written here from each corpus model: the inferred model has its entities, join tables and columns, and opens it",
          arguments: ModelFixtures.corpusModels)
    func corpusModels(url: URL) throws {
        let source = try XcodeModelFile.read(url).current
        let store = try Fixtures.temporaryDirectory("infer").appendingPathComponent("Store.sqlite")
        let written = try SQLiteTestStack(model: source, url: store)
        written.coordinator.removeStore(written.store)
        let inferred = try SQLiteStore.inferModel(at: store).model
        #expect(inferred.entityNames.sorted() == source.entityNames.sorted())
        for entity in source.entities {
            let other = try #require(inferred.entity(named: entity.name))
            #expect(other.parentName == entity.parentName, "\(entity.name)")
            for a in entity.attributes where !a.isTransient {
                #expect(other.attribute(named: a.name.lowercased()) != nil
                        || other.attributes.contains { $0.name.lowercased() == a.name.lowercased() }, "\(entity.name).\(a.name)")
            }
            // Many-to-many relationships have a join table each: both sides come back.
            for r in entity.relationships where r.isToMany && !r.isTransient {
                guard let inverse = r.inverseName, source.entity(named: r.destinationEntityName)?.relationship(named: inverse)?.isToMany == true else { continue }
                let found = other.relationships.first { $0.name == r.name.lowercased() }
                #expect(found?.destinationEntityName == r.destinationEntityName, "\(entity.name).\(r.name)")
                #expect(found?.inverseName == inverse.lowercased(), "\(entity.name).\(r.name)")
                #expect(found?.isOrdered == r.isOrdered, "\(entity.name).\(r.name)")
            }
        }
        // Whatever was guessed, the store opens on it: every column the model names is there.
        _ = try readOnly(inferred, store)
    }

    @Test("a store with data: the to-one, its to-many inverse and the types come back, and the inverse reads")
    func toOnesByValues() throws {
        let source = try ModelFixtures.toDoModel()
        let store = try Fixtures.temporaryDirectory("infer").appendingPathComponent("ToDo.sqlite")
        let stack = try SQLiteTestStack(model: source, url: store)
        try ToDoFixture.fill(stack.context)
        stack.coordinator.removeStore(stack.store)
        let inferred = try SQLiteStore.inferModel(at: store)
        let todo = try #require(inferred.model.entity(named: "ToDo"))
        #expect(todo.relationship(named: "category")?.destinationEntityName == "Category")
        #expect(todo.attribute(named: "duedate")?.type == .date)
        #expect(todo.attribute(named: "completed")?.type == .integer64, "not named like a flag: an integer, and said to be a guess")
        #expect(inferred.guesses["ToDo.completed"]?.contains("INTEGER") == true)
        let category = try #require(inferred.model.entity(named: "Category"))
        let back = try #require(category.relationships.first { $0.destinationEntityName == "ToDo" })
        #expect(back.inverseName == "category")
        let reopened = try readOnly(inferred.model, store)
        let home = try #require(try reopened.context.object(forEntityName: "Category", matchingKey: "name", value: "Home"))
        #expect(home.objects(back.name).count == 3)
    }

    @Test("a file that is no Core Data store is refused, naming what is missing")
    func notCoreData() throws {
        let url = try Fixtures.temporaryDirectory("infer").appendingPathComponent("Plain.sqlite")
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { try $0.execute(sql: "CREATE TABLE t (a)") }
        try queue.close()
        #expect { try SQLiteStore.inferModel(at: url) } throws: { "\($0)".contains("Z_PRIMARYKEY") }
    }

    @Test("Z_PRIMARYKEY as another program may have written it is refused with one clear message naming the row, never a crash", arguments: [
        ("UPDATE Z_PRIMARYKEY SET Z_SUPER = 2 WHERE Z_NAME = 'SportCar'", "makes the entity SportCar its own parent"),
        ("UPDATE Z_PRIMARYKEY SET Z_SUPER = 3 WHERE Z_NAME = 'Car'", "makes the entities' parents a cycle: Car → ExpensiveSportCar → SportCar → Car"),
        ("UPDATE Z_PRIMARYKEY SET Z_ENT = 0 WHERE Z_NAME = 'Person'", "gives the entity Person the number 0"),
        ("UPDATE Z_PRIMARYKEY SET Z_SUPER = 'Car' WHERE Z_NAME = 'SportCar'", "gives the entity SportCar the parent 'Car'"),
        ("UPDATE Z_PRIMARYKEY SET Z_ENT = -4 WHERE Z_NAME = 'Person'", "gives the entity Person the number -4"),
        ("UPDATE Z_PRIMARYKEY SET Z_NAME = NULL WHERE Z_NAME = 'Person'", "has a row whose Z_NAME is NULL"),
        ("UPDATE Z_PRIMARYKEY SET Z_SUPER = 1.5 WHERE Z_NAME = 'SportCar'", "gives the entity SportCar the parent 1.5"),
        ("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (5, 'Car', 0, 0)", "lists the entity Car twice (numbers 1 and 5)"),
    ])
    func hostileEntityTable(_ change: String, _ message: String) throws {
        let url = try appleStoreWithoutCache()
        try DatabaseQueue(path: url.path).write { try $0.execute(sql: change) }
        let error = #expect(throws: ObjectGraphError.self) { try SQLiteStore.inferModel(at: url) }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.contains(url.path) && text.contains("Z_PRIMARYKEY " + message), "\(text)")
    }

    @Test("a parent Z_PRIMARYKEY does not list makes its children roots, as a renamed entity's old row leaves them")
    func missingParent() throws {
        let url = try appleStoreWithoutCache()
        try DatabaseQueue(path: url.path).write { try $0.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_SUPER = 99 WHERE Z_NAME = 'Person'") }
        let inferred = try SQLiteStore.inferModel(at: url)
        #expect(inferred.model.entity(named: "Person")?.parentName == nil)
    }

    @Test("entities whose tables are all gone are refused naming the tables, not read as a model without entities")
    func noTables() throws {
        let url = try appleStoreWithoutCache()
        try DatabaseQueue(path: url.path).write { try $0.execute(sql: "DROP TABLE ZCAR; DROP TABLE ZPERSON") }
        let error = #expect(throws: ObjectGraphError.self) { try SQLiteStore.inferModel(at: url) }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.contains(url.path) && text.contains("Z_PRIMARYKEY names Car, Person, and the store has none of their tables (ZCAR, ZPERSON)"), "\(text)")
    }

    @Test("a row whose Z_PK is no whole number is refused as damage naming the table, not taken for an object deleted elsewhere",
          arguments: ["NULL", "'abc'", "0"])
    func hostileKey(_ key: String) throws {
        let url = try appleStoreWithoutCache()
        try DatabaseQueue(path: url.path).write { db in
            // Another program rebuilt the table without its primary key, and wrote a row of its own.
            try db.execute(sql: """
                CREATE TABLE ZPERSON2 (Z_PK INTEGER, Z_ENT INTEGER, Z_OPT INTEGER, ZUPDATEDAT TIMESTAMP, ZFIRSTNAME VARCHAR, ZLASTNAME VARCHAR, ZID BLOB);
                INSERT INTO ZPERSON2 SELECT * FROM ZPERSON; DROP TABLE ZPERSON; ALTER TABLE ZPERSON2 RENAME TO ZPERSON;
                INSERT INTO ZPERSON (Z_PK, Z_ENT, Z_OPT, ZFIRSTNAME) VALUES (\(key), 4, 1, 'Stray');
                """)
        }
        let stack = try readOnly(try SQLiteStore.inferModel(at: url).model, url)
        let error = #expect(throws: ObjectGraphError.self) { try stack.context.fetch(FetchRequest(entityName: "Person")) }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.contains(url.path) && text.contains("ZPERSON has a row whose Z_PK is \(key == "NULL" ? "NULL" : key == "0" ? "0" : "\"abc\""), where Core Data keeps a whole number"), "\(text)")
    }

    @Test("a column another program added with a type Core Data does not write is read by its kind of value, and the store opens",
          arguments: [("DATETIME", AttributeType.double), ("BOOLEAN", .double), ("BIGINT", .integer64), ("CHAR(8)", .string),
                      ("DOUBLE PRECISION", .double), ("CLOB", .string), ("NUM", .double), ("", .undefined)])
    func foreignColumnType(_ declared: String, _ type: AttributeType) throws {
        let url = try appleStoreWithoutCache()
        try DatabaseQueue(path: url.path).write { try $0.execute(sql: "ALTER TABLE ZPERSON ADD COLUMN ZEXTRA \(declared)") }
        let model = try SQLiteStore.inferModel(at: url).model
        #expect(model.entity(named: "Person")?.attribute(named: "extra")?.type == type)
        let stack = try readOnly(model, url)
        #expect(try stack.context.count(for: FetchRequest(entityName: "Person")) == 20)
    }

    @Test("a column another program added under a name no property could have does not make the store another version's")
    func foreignColumn() throws {
        let url = try appleStoreWithoutCache()
        try DatabaseQueue(path: url.path).write { try $0.execute(sql: #"ALTER TABLE ZPERSON ADD COLUMN "Z NOTE" VARCHAR"#) }
        let stack = try readOnly(try SQLiteStore.inferModel(at: url).model, url)
        #expect(try stack.context.count(for: FetchRequest(entityName: "Person")) == 20)
    }
}
