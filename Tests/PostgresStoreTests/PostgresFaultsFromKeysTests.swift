import Foundation
import Testing
import ObjectGraph
import ObjectModel
import PostgresStore
import Predicates
import TestSupport

/// A fetch of faults from a PostgreSQL store hands the context keys, as SQLite's does: each
/// object makes its ID when asked, and must match what a fetch of IDs gives.
@Suite("Faults made from keys fetched from PostgreSQL")
struct PostgresFaultsFromKeysTests {
    static let xml = ModelFixtures.modelXML("""
        <entity name="Person" representedClassName="Person" isAbstract="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Employee" representedClassName="Employee" parentEntity="Person"/>
        <entity name="Contractor" representedClassName="Contractor" parentEntity="Person"/>
        """)

    private func stack() throws -> PostgresTestStack {
        let stack = try PostgresTestStack(model: try XcodeModelFile.read(try ModelFixtures.writeModelFile(Self.xml, name: "People")).current)
        // Employees and contractors in turn, so that a fetch of people mixes the two.
        for i in 0..<30 {
            let person = try stack.context.insertObject(forEntityName: i % 3 == 0 ? "Contractor" : "Employee")
            person["name"] = .string(String(format: "person %02d", i))
        }
        try stack.context.save()
        return try stack.reopened()
    }

    private let byName = FetchRequest<ManagedObject>(entityName: "Person", sortDescriptors: [ObjectSortDescriptor(key: "name")])

    @Test("each object of a mixed fetch has its entity and the store's ID, is found by it, and reads its values")
    func idsMatchTheStore() throws {
        let stack = try stack()
        let ids = try stack.context.fetchObjectIDs(byName)
        let people = try stack.context.fetch(byName)
        #expect(people.count == 30 && ids.count == 30)
        #expect(Set(ids.map(\.entityName)) == ["Employee", "Contractor"])
        #expect(people.objectIDs == ids, "the IDs of results not made yet")
        for (i, person) in people.enumerated() {
            #expect(person.isFault)
            #expect(person.entity.name == ids[i].entityName)
            #expect(person.objectID == ids[i])
            #expect(person.objectID.uriRepresentation == ids[i].uriRepresentation)
            #expect(person.objectID === person.objectID, "made once, then kept")
            #expect(stack.context.registeredObject(for: ids[i]) === person)
            #expect(stack.context.object(with: ids[i]) === person)
        }
        // The first read fills its page of faults in one round trip.
        #expect(people.map { $0.string("name") } == (0..<30).map { String(format: "person %02d", $0) })
    }

    @Test("a row whose Z_ENT names no concrete entity is refused with the schema error, not left out")
    func rowOfNoEntity() throws {
        let stack = try stack()
        _ = try stack.store.plainRows(#"UPDATE "ZPERSON" SET "Z_ENT" = 99 WHERE "ZNAME" = 'person 04'"#)
        let error = #expect(throws: PostgresStoreError.self) { try stack.context.fetch(byName) }
        #expect(error.map { "\($0)" }?.hasPrefix("the store does not fit the model: the row with Z_PK") == true)
        #expect(error.map { "\($0)" }?.hasSuffix("has Z_ENT 99, which is no entity of the model") == true)
    }
}
