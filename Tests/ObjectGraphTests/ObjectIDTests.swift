import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import TestSupport

@Suite("Object IDs")
struct ObjectIDTests {
    @Test("an ID is temporary until the save, then permanent with a store URI", arguments: [StoreType.xml, .binary])
    func permanentAfterSave(type: StoreType) throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("todo.store")
        let stack = try TestStack(model: try ModelFixtures.toDoModel(), type: type, url: url)
        let item = try stack.context.insertObject(forEntityName: "ToDo")
        item["name"] = "Call home"
        let temporary = item.objectID
        #expect(temporary.isTemporaryID)
        #expect(temporary.uriRepresentation.absoluteString.hasPrefix("x-coredata:///ToDo/t"))
        try stack.context.save()
        #expect(!item.objectID.isTemporaryID)
        let uri = item.objectID.uriRepresentation
        let store = try #require(stack.coordinator.stores.first)
        #expect(uri.absoluteString == "x-coredata://\(store.identifier)/ToDo/p1")
        #expect(stack.context.registeredObject(for: item.objectID) === item)

        // After a restart: a new coordinator on the same file resolves the URI.
        let again = try TestStack(model: try ModelFixtures.toDoModel(), type: type, url: url)
        let id = try #require(again.coordinator.managedObjectID(forURI: uri))
        let reloaded = try again.context.existingObject(with: id)
        #expect(reloaded.string("name") == "Call home")
    }

    @Test("a URI of another store or entity does not resolve")
    func foreignURI() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        #expect(stack.coordinator.managedObjectID(forURI: URL(string: "x-coredata://nope/ToDo/p1")!) == nil)
        let store = stack.coordinator.stores[0]
        #expect(stack.coordinator.managedObjectID(forURI: URL(string: "x-coredata://\(store.identifier)/Robot/p1")!) == nil)
        #expect(stack.coordinator.managedObjectID(forURI: URL(string: "https://example.com")!) == nil)
    }

    @Test("one object per ID per context")
    func uniqueObjects() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let item = try stack.context.insertObject(forEntityName: "ToDo")
        try stack.context.save()
        #expect(stack.context.object(with: item.objectID) === item)
        let other = stack.newContext()
        let a = other.object(with: item.objectID)
        let b = other.object(with: item.objectID)
        #expect(a === b && a !== item)
        #expect(a.isFault)
        #expect(a.string("name") == "New item")
        #expect(!a.isFault)
    }

    @Test("a fault whose row is gone reports the object, not a crash")
    func missingRow() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let item = try stack.context.insertObject(forEntityName: "ToDo")
        try stack.context.save()
        let other = stack.newContext()
        let fault = other.object(with: item.objectID)
        stack.context.delete(item)
        try stack.context.save()
        #expect(throws: ObjectGraphError.self) { try fault.value(forKey: "name") }
    }
}
