import SQLSyntax
import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
@testable import SQLiteStore
import TestSupport
import GRDB

@Suite("Inheritance, polymorphic to-one relationships and to-many without inverse")
struct InheritanceTests {
    static let xml = ModelFixtures.modelXML("""
        <entity name="Note" representedClassName="Note">
            <attribute name="text" optional="YES" attributeType="String"/>
            <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person"/>
            <relationship name="readers" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person"/>
        </entity>
        <entity name="Person" representedClassName="Person" isAbstract="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Employee" representedClassName="Employee" parentEntity="Person">
            <attribute name="title" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Contractor" representedClassName="Contractor" parentEntity="Person">
            <attribute name="title" optional="YES" attributeType="Integer 32"/>
        </entity>
        """)

    func model() throws -> ManagedObjectModel {
        try XcodeModelFile.read(try ModelFixtures.writeModelFile(Self.xml, name: "Notes")).current
    }

    @Test("a row whose Z_ENT is no entity, or an abstract one, is refused with a clear error", arguments: [99, 0])
    func rowOfNoConcreteEntity(_ number: Int) throws {
        let stack = try SQLiteTestStack(model: try model())
        for name in ["Ann", "Bo"] { try stack.context.insertObject(forEntityName: "Employee").setValue(name, forKey: "name") }
        try stack.context.save()
        let abstract = try #require(stack.store.schema.mapping(for: "Person")?.number)
        let queue = try DatabaseQueue(path: stack.url.path)
        try queue.write { try $0.execute(sql: "UPDATE ZPERSON SET Z_ENT = ? WHERE ZNAME = 'Bo'", arguments: [number == 0 ? abstract : number]) }
        try queue.close()
        let reopened = try stack.reopened()
        let error = #expect(throws: SQLiteStoreError.self) { try reopened.context.fetch(FetchRequest(entityName: "Person")) }
        let why = number == 0 ? "the abstract entity Person" : "no entity of the model"
        #expect(error.map { "\($0)" } == "the store does not fit the model: the row with Z_PK 2 has Z_ENT \(number == 0 ? abstract : number), which is \(why)")
    }

    @Test("rows whose Z_ENT is -1 from the first on are refused with a clear error, not taken for an entity")
    func negativeEntityNumber() throws {
        let stack = try SQLiteTestStack(model: try model())
        for name in ["Ann", "Bo"] { try stack.context.insertObject(forEntityName: "Employee").setValue(name, forKey: "name") }
        try stack.context.save()
        let queue = try DatabaseQueue(path: stack.url.path)
        try queue.write { try $0.execute(sql: "UPDATE ZPERSON SET Z_ENT = -1") }
        try queue.close()
        let reopened = try stack.reopened()
        let error = #expect(throws: SQLiteStoreError.self) { try reopened.context.fetch(FetchRequest(entityName: "Person")) }
        #expect(error.map { "\($0)" } == "the store does not fit the model: the row with Z_PK 1 has Z_ENT -1, which is no entity of the model")
    }

    @Test("sibling sub-entities with the same attribute name get their own columns")
    func clashingColumns() throws {
        let schema = try StoreSchema(model: try model())
        let employee = try #require(schema.mapping(for: "Employee")?.column(forAttribute: "title"))
        let contractor = try #require(schema.mapping(for: "Contractor")?.column(forAttribute: "title"))
        #expect(Set([employee, contractor]) == ["ZTITLE", "ZTITLE1"])
        let person = try #require(schema.mapping(for: "Person"))
        #expect(schema.mapping(for: "Note")?.foreignKey(for: "owner")?.entityColumn == "Z\(person.number)_OWNER")
    }

    @Test("objects of several entities inserted in turn get their own keys and rows, and keys go on after a reopen")
    func interleavedInserts() throws {
        let stack = try SQLiteTestStack(model: try model())
        let c = stack.context
        // Employee and Contractor share the Person table and its key counter; Note has its own.
        let kinds = ["Employee", "Employee", "Contractor", "Note", "Employee", "Note", "Note", "Contractor"]
        var expected: [(ManagedObject, String, String)] = []
        for (i, kind) in kinds.enumerated() {
            let o = try c.insertObject(forEntityName: kind)
            switch kind {
            case "Note": o["text"] = .string("note \(i)")
            case "Contractor": o["name"] = .string("contractor \(i)"); o["title"] = .int(i)
            default: o["name"] = .string("employee \(i)"); o["title"] = .string("title \(i)")
            }
            expected.append((o, kind, kind == "Note" ? "note \(i)" : "\(kind.lowercased()) \(i)"))
        }
        try c.save()
        let personKeys = expected.filter { $0.1 != "Note" }.map { $0.0.objectID.primaryKey! }
        let noteKeys = expected.filter { $0.1 == "Note" }.map { $0.0.objectID.primaryKey! }
        #expect(personKeys == [1, 2, 3, 4, 5], "keys follow insertion order within the shared root table")
        #expect(noteKeys == [1, 2, 3])

        let other = try stack.reopened()
        for (object, kind, text) in expected {
            let copy = try other.context.existingObject(with: object.objectID)
            #expect(copy.entity.name == kind)
            #expect(copy.string(kind == "Note" ? "text" : "name") == text)
        }
        let more = try other.context.insertObject(forEntityName: "Contractor")
        try other.context.save()
        #expect(more.objectID.primaryKey == 6)
    }

    @Test("a to-one to an abstract entity reads back each destination's own entity")
    func polymorphicToOne() throws {
        let stack = try SQLiteTestStack(model: try model())
        let c = stack.context
        let ann = try c.insertObject(forEntityName: "Employee")
        ann["name"] = "Ann"
        ann["title"] = "Boss"
        let cy = try c.insertObject(forEntityName: "Contractor")
        cy["name"] = "Cy"
        cy["title"] = 7
        for (text, owner) in [("one", ann), ("two", cy)] {
            let note = try c.insertObject(forEntityName: "Note")
            note["text"] = .string(text)
            note["owner"] = .object(owner)
            note["readers"] = .set([.object(ann), .object(cy)])
        }
        try c.save()
        let reader = try stack.reopened().context
        let notes = try reader.fetch(FetchRequest(entityName: "Note", sortDescriptors: [ObjectSortDescriptor(key: "text")]))
        #expect(notes.map { $0.object("owner")?.entity.name } == ["Employee", "Contractor"])
        #expect(notes[1].object("owner")?.int("title") == 7)
        #expect(notes[0].object("owner")?.string("title") == "Boss")
        // Without an inverse, each reader belongs to one note (a foreign key on the destination), as in Core Data.
        #expect(notes.map { $0.objects("readers").count }.reduce(0, +) == 2)
        var owners = FetchRequest(entityName: "Note", sortDescriptors: [ObjectSortDescriptor(key: "text")], resultType: .dictionaries)
        owners.propertiesToFetch = [.key("owner")]
        let ownerIDs = try reader.fetchDictionaries(owners).map { row -> String? in
            guard case .object(let id as ManagedObjectID)? = row["owner"] else { return nil }
            return id.entityName
        }
        #expect(ownerIDs == ["Employee", "Contractor"])
        let byOwner = try reader.fetch(FetchRequest(entityName: "Note", predicate: try ObjectPredicate(format: "owner.name == 'Cy'")))
        #expect(byOwner.map { $0.string("text") } == ["two"])
    }

    @Test("faults read no values: a fetch of object IDs leaves rows in the file; rows load in one query per batch")
    func noValuesForFaults() throws {
        let stack = try SQLiteTestStack(model: try model())
        for i in 0..<300 {
            let p = try stack.context.insertObject(forEntityName: i % 2 == 0 ? "Employee" : "Contractor")
            p["name"] = .string("p\(i)")
        }
        try stack.context.save()
        let store = stack.store
        let request = StoreRequest(fetch: FetchRequest(entityName: "Person"), entityNames: ["Person", "Employee", "Contractor"])
        guard case .rows(let ids, let rows) = try store.execute(request) else { Issue.record("no rows"); return }
        #expect(ids.count == 300)
        #expect(rows == nil)
        let loaded = try store.rows(for: Array(ids.reversed().prefix(120)))
        #expect(loaded.map(\.objectID) == Array(ids.reversed().prefix(120)))
        #expect(loaded.first == (try store.row(for: ids[ids.count - 1])))
        #expect(loaded.first?.attributes["name"]?.stringValue?.hasPrefix("p") == true)
    }
}
