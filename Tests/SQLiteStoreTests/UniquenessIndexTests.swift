import Foundation
import GRDB
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import Testing
import TestSupport

/// Uniqueness constraints in a SQLite store: a unique index as Core Data makes it, which holds
/// for every writer.
@Suite("Uniqueness constraints' indexes in SQLite stores")
struct UniquenessIndexTests {
    @Test("a store made with SampleModel has its uniqueness indexes exactly as in the store Core Data made with it")
    func asCoreDataWritesThem() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.sampleModel())
        let apples = try FetchIndexStoreTests.indexes(ModelFixtures.sampleStoreV1, immutable: true)
        let ours = try FetchIndexStoreTests.indexes(stack.url)
        for name in ["Z_Car_UNIQUE_numberPlate", "Z_Person_UNIQUE_firstName_lastName"] {
            #expect(apples[name] != nil)
            #expect(ours[name] == apples[name], "\(name): \(ours[name] ?? "none")")
        }
    }

    @Test("another program's SQL cannot store a second car with a number plate taken; a batch insert of one is refused, naming the constraint, and writes nothing")
    func holdsForEveryWriter() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.sampleModel())
        let car = try stack.context.insertObject(forEntityName: "Car")
        car["maker"] = "FIAT"
        car["numberPlate"] = "TO-1"
        try stack.context.save()

        let raw = try DatabaseQueue(path: stack.url.path)
        #expect(throws: DatabaseError.self) {
            try raw.write { try $0.execute(sql: "INSERT INTO ZCAR (Z_PK, Z_ENT, Z_OPT, ZMAKER, ZNUMBERPLATE) VALUES (999, 1, 1, 'Lancia', 'TO-1')") }
        }
        try raw.close()

        let batch = BatchInsertRequest(entityName: "Car", objects: [
            ["maker": "Lancia", "numberPlate": "TO-2"], ["maker": "Alfa Romeo", "numberPlate": "TO-1"],
        ])
        #expect {
            try stack.context.execute(batch)
        } throws: { error in
            "\(error)".contains("another object of Car already has the same numberPlate")
        }
        #expect(try stack.context.count(for: FetchRequest(entityName: "Car")) == 1, "nothing of the batch was written")
    }

    @Test("a store made without the uniqueness index gets it when opened to write, unless it already holds the same values twice")
    func addedToAnExistingStore() throws {
        let model = try ModelFixtures.sampleModel()
        let url = try SQLiteTestStack(model: model).url
        let raw = try DatabaseQueue(path: url.path)
        try raw.write { db in
            try db.execute(sql: "DROP INDEX Z_Car_UNIQUE_numberPlate")
            try db.execute(sql: "DROP INDEX Z_Person_UNIQUE_firstName_lastName")
            try db.execute(sql: "INSERT INTO ZCAR (Z_PK, Z_ENT, Z_OPT, ZNUMBERPLATE) VALUES (901, 1, 1, 'TO-9'), (902, 1, 1, 'TO-9')")
        }
        try raw.close()

        _ = try SQLiteTestStack(model: model, url: url)
        let indexes = try FetchIndexStoreTests.indexes(url)
        #expect(indexes["Z_Person_UNIQUE_firstName_lastName"] != nil, "no duplicates: the index is made")
        #expect(indexes["Z_Car_UNIQUE_numberPlate"] == nil, "two cars share a plate: no index, and the store opens")
    }

    @Test("a sub-entity's constraint over a property it inherits gets no index, so its parent's objects may share the value; a value a deleted object gives up is free in the same save")
    func inheritanceAndOrder() throws {
        let url = try ModelFixtures.writeModelFile(ModelFixtures.modelXML("""
            <entity name="Person" representedClassName="Person" syncable="YES">
                <attribute name="name" attributeType="String"/>
                <attribute name="email" optional="YES" attributeType="String"/>
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="email"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
            <entity name="Employee" representedClassName="Employee" parentEntity="Person" syncable="YES">
                <attribute name="badge" optional="YES" attributeType="String"/>
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="name"/>
                    </uniquenessConstraint>
                    <uniquenessConstraint>
                        <constraint value="badge"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
            """), name: "People")
        let stack = try SQLiteTestStack(model: try XcodeModelFile.read(url).current)
        let indexes = try FetchIndexStoreTests.indexes(stack.url)
        #expect(indexes["Z_Person_UNIQUE_email"] != nil && indexes["Z_Employee_UNIQUE_badge"] != nil)
        #expect(indexes["Z_Employee_UNIQUE_name"] == nil, "\(indexes.keys.sorted())")

        let person = try stack.context.insertObject(forEntityName: "Person")
        person["name"] = "Ann"
        person["email"] = "ann@example.com"
        let employee = try stack.context.insertObject(forEntityName: "Employee")
        employee["name"] = "Ann"
        try stack.context.save()
        #expect(try stack.context.count(for: FetchRequest(entityName: "Person", includesSubentities: false)) == 1)

        // The address goes with the person deleted, and comes to the employee, in one save.
        stack.context.delete(person)
        employee["email"] = "ann@example.com"
        try stack.context.save()
        let rows = try SQLiteTestStack.rawRows(stack.url, "SELECT ZEMAIL FROM ZPERSON")
        #expect(rows.map { $0[0] as String? } == ["ann@example.com"], "the employee alone holds the address now")
    }
}
