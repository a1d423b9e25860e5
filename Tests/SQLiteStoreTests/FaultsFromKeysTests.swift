import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
@testable import SQLiteStore
import TestSupport

/// A fetch of faults from a SQLite store hands the context keys, not IDs: each object makes
/// its ID when it is first asked for. These tests hold the objects to what a fetch of IDs
/// gives, across sub-entities, releases, a reset and a registered class.
@Suite("Faults made from fetched keys")
struct FaultsFromKeysTests {
    final class Contractor: ManagedObject {}

    private func stack() throws -> SQLiteTestStack {
        let stack = try SQLiteTestStack(model: try InheritanceTests().model())
        // Employees and contractors in turn, so that a fetch of people mixes the two.
        for i in 0..<40 {
            let person = try stack.context.insertObject(forEntityName: i % 3 == 0 ? "Contractor" : "Employee")
            person["name"] = .string(String(format: "person %02d", i))
        }
        try stack.context.save()
        return try stack.reopened()
    }

    private let byName = FetchRequest<ManagedObject>(entityName: "Person", sortDescriptors: [ObjectSortDescriptor(key: "name")])

    @Test("each object of a mixed fetch has its own entity and the store's ID, the same instance each time it is asked, and is found by that ID")
    func idsMatchTheStore() throws {
        let stack = try stack()
        let context = stack.context
        let ids = try context.fetchObjectIDs(byName)
        let people = try context.fetch(byName)
        #expect(people.count == 40 && ids.count == 40)
        #expect(Set(ids.map(\.entityName)) == ["Employee", "Contractor"])
        #expect(people.objectIDs == ids, "the IDs of results not made yet")
        for (i, person) in people.enumerated() {
            #expect(person.isFault)
            #expect(person.entity.name == ids[i].entityName)
            #expect(person.objectID == ids[i])
            #expect(person.objectID === person.objectID, "made once, then kept")
            #expect(context.registeredObject(for: ids[i]) === person)
            #expect(context.object(with: ids[i]) === person)
            #expect(stack.coordinator.managedObjectID(forURI: person.objectID.uriRepresentation) == ids[i])
        }
        #expect(people.objectIDs == ids, "the IDs of results made")
        #expect(people.map { $0.string("name") } == (0..<40).map { String(format: "person %02d", $0) })
        // A fault made by an ID first is the one a later fetch gives.
        let other = stack.newContext()
        let first = other.object(with: ids[7])
        #expect(try other.fetch(byName)[7] === first)
    }

    @Test("objects made from keys leave the context when released, whether or not their IDs were asked for")
    func releasedObjectsLeave() throws {
        let stack = try stack()
        let context = stack.context
        var people = try context.fetch(byName)
        for (i, person) in people.enumerated() where i % 2 == 0 { _ = person.objectID }
        #expect(context.registeredObjects.count == 40)
        let kept = people[5]
        people = try context.fetch(FetchRequest(entityName: "Note"))
        #expect(context.registeredObjects == [kept])
        let again = try context.fetch(byName)
        #expect(again[5] === kept)
        #expect(Set(again.map(ObjectIdentifier.init)).count == 40)
    }

    @Test("results read after a reset, or after a merged deletion, give invalid objects, not live faults")
    func readLate() throws {
        let stack = try stack()
        let context = stack.context
        let afterReset = try context.fetch(byName)
        context.reset()
        #expect(afterReset.allSatisfy { !$0.isValid && $0.managedObjectContext == nil })
        #expect(afterReset[3].objectID == (try context.fetchObjectIDs(byName))[3])

        let late = try context.fetch(byName)
        let other = stack.newContext()
        var save: ContextDidSave?
        let observation = other.observe { if case .didSave(let s) = $0 { save = s } }
        other.delete(try #require(try other.fetch(byName).first))
        try other.save()
        observation.cancel()
        context.mergeChanges(fromContextDidSave: try #require(save))
        #expect(!late[0].isValid, "the deleted one")
        #expect(late.dropFirst().allSatisfy { $0.isValid })
        #expect(late[1].string("name") == "person 01")
    }

    @Test("an entity with a registered class gets objects of that class, with the store's IDs")
    func registeredClass() throws {
        let stack = try stack()
        stack.coordinator.register(Contractor.self, forEntityName: "Contractor")
        let ids = try stack.context.fetchObjectIDs(byName)
        let people = try stack.context.fetch(byName)
        for (i, person) in people.enumerated() {
            #expect((person is Contractor) == (ids[i].entityName == "Contractor"))
            #expect(person.objectID == ids[i])
            #expect(stack.context.registeredObject(for: ids[i]) === person)
        }
    }
}
