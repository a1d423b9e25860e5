import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import Migration
import TestSupport

/// Each kind of change lightweight migration infers, on a store written with the old model.
@Suite("Inferred (lightweight) migration")
struct InferredMigrationTests {
    /// Writes objects with `old`, migrates to `new` with the inferred mapping, and returns
    /// a context on the migrated store.
    func migrate(_ old: ManagedObjectModel, _ new: ManagedObjectModel,
                 populate: (ManagedObjectContext) throws -> Void) throws -> (ManagedObjectContext, PersistentStoreCoordinator) {
        let folder = try Fixtures.temporaryDirectory()
        let source = folder.appendingPathComponent("old.xml"), destination = folder.appendingPathComponent("new.xml")
        let writer = try TestStack(model: old, type: .xml, url: source)
        try populate(writer.context)
        try writer.context.save()
        let manager = MigrationManager(source: old, destination: new, mapping: try .inferred(from: old, to: new))
        try manager.migrateStore(at: source, type: .xml, to: destination, type: .xml)
        let coordinator = PersistentStoreCoordinator(model: new)
        try coordinator.addStore(type: .xml, at: destination)
        return (ManagedObjectContext(coordinator: coordinator), coordinator)
    }

    func entity(_ name: String, _ attributes: [AttributeDescription], _ relationships: [RelationshipDescription] = [],
                parent: String? = nil, renamedFrom: String? = nil, abstract: Bool = false) -> EntityDescription {
        EntityDescription(name: name, isAbstract: abstract, parent: parent, attributes: attributes,
                          relationships: relationships, renamingIdentifier: renamedFrom)
    }

    @Test("added, removed, optional-made, required-with-default and renamed attributes")
    func attributes() throws {
        let old = try ManagedObjectModel(entities: [entity("Note", [
            AttributeDescription(name: "text", type: .string, isOptional: false),
            AttributeDescription(name: "obsolete", type: .string),
            AttributeDescription(name: "rating", type: .integer16, isOptional: false),
            AttributeDescription(name: "tag", type: .string),
        ])])
        var renamed = AttributeDescription(name: "body", type: .string, isOptional: false)
        renamed.renamingIdentifier = "text"
        let new = try ManagedObjectModel(entities: [entity("Note", [
            renamed,
            AttributeDescription(name: "rating", type: .integer32, isOptional: true),
            AttributeDescription(name: "tag", type: .string, isOptional: false, defaultValue: "none"),
            AttributeDescription(name: "created", type: .date),
            AttributeDescription(name: "pinned", type: .boolean, isOptional: false, defaultValue: false),
        ])])
        let (context, _) = try migrate(old, new) { c in
            let n = try c.insertObject(forEntityName: "Note")
            n["text"] = "hello"; n["obsolete"] = "x"; n["rating"] = 3
            let m = try c.insertObject(forEntityName: "Note")
            m["text"] = "second"; m["rating"] = 1; m["tag"] = "work"
        }
        let notes = try context.fetch(FetchRequest(entityName: "Note", sortDescriptors: [ObjectSortDescriptor(key: "body")]))
        #expect(notes.map { $0.string("body") } == ["hello", "second"])
        #expect(notes.map { $0.int("rating") } == [3, 1], "Integer 16 widened to Integer 32")
        #expect(notes.map { $0.string("tag") } == ["none", "work"], "a nil becomes the new default")
        #expect(notes.allSatisfy { $0["created"] == .null && $0.bool("pinned") == false })
    }

    @Test("an entity renamed through its renaming identifier keeps its objects; added and removed entities")
    func entities() throws {
        let old = try ManagedObjectModel(entities: [
            entity("Folder", [AttributeDescription(name: "name", type: .string)]),
            entity("Scrap", [AttributeDescription(name: "junk", type: .string)]),
        ])
        let new = try ManagedObjectModel(entities: [
            entity("Directory", [AttributeDescription(name: "name", type: .string)], renamedFrom: "Folder"),
            entity("Label", [AttributeDescription(name: "text", type: .string)]),
        ])
        let (context, _) = try migrate(old, new) { c in
            try c.insertObject(forEntityName: "Folder")["name"] = "Inbox"
            try c.insertObject(forEntityName: "Scrap")["junk"] = "x"
        }
        #expect(try context.fetch(FetchRequest(entityName: "Directory")).map { $0.string("name") } == ["Inbox"])
        #expect(try context.count(for: FetchRequest(entityName: "Label")) == 0)
    }

    @Test("relationships carry over, a new one starts empty, and to-one becomes to-many")
    func relationships() throws {
        let old = try ManagedObjectModel(entities: [
            entity("Person", [AttributeDescription(name: "name", type: .string)],
                   [RelationshipDescription(name: "car", destination: "Car", inverse: "owner")]),
            entity("Car", [AttributeDescription(name: "plate", type: .string)],
                   [RelationshipDescription(name: "owner", destination: "Person", inverse: "car")]),
        ])
        let new = try ManagedObjectModel(entities: [
            entity("Person", [AttributeDescription(name: "name", type: .string)],
                   [RelationshipDescription(name: "car", destination: "Car", inverse: "owner", isToMany: true),
                    RelationshipDescription(name: "friends", destination: "Person", isToMany: true)]),
            entity("Car", [AttributeDescription(name: "plate", type: .string)],
                   [RelationshipDescription(name: "owner", destination: "Person", inverse: "car")]),
        ])
        let (context, _) = try migrate(old, new) { c in
            let p = try c.insertObject(forEntityName: "Person")
            p["name"] = "Ada"
            let car = try c.insertObject(forEntityName: "Car")
            car["plate"] = "AB-1"
            car["owner"] = .object(p)
        }
        let ada = try #require(try context.fetch(FetchRequest(entityName: "Person")).first)
        #expect(ada.objects("car").map { $0.string("plate") } == ["AB-1"])
        #expect(ada.objects("friends").isEmpty)
        #expect(ada.objects("car").first?.object("owner") === ada)
    }

    @Test("a change of inheritance keeps the objects and their inherited values")
    func inheritance() throws {
        let old = try ManagedObjectModel(entities: [
            entity("Circle", [AttributeDescription(name: "name", type: .string), AttributeDescription(name: "radius", type: .double)]),
        ])
        let new = try ManagedObjectModel(entities: [
            entity("Shape", [AttributeDescription(name: "name", type: .string)], abstract: true),
            entity("Circle", [AttributeDescription(name: "radius", type: .double)], parent: "Shape"),
        ])
        let (context, _) = try migrate(old, new) { c in
            let circle = try c.insertObject(forEntityName: "Circle")
            circle["name"] = "wheel"; circle["radius"] = 2.5
        }
        let shapes = try context.fetch(FetchRequest(entityName: "Shape"))
        #expect(shapes.map { "\($0.entity.name) \($0.string("name")!) \($0.double("radius")!)" } == ["Circle wheel 2.5"])
    }

    @Test("what inference cannot do is refused, naming the entity and property")
    func cannotInfer() throws {
        let old = try ManagedObjectModel(entities: [entity("A", [AttributeDescription(name: "x", type: .string)])])
        let required = try ManagedObjectModel(entities: [entity("A", [
            AttributeDescription(name: "x", type: .string), AttributeDescription(name: "y", type: .string, isOptional: false)])])
        #expect(throws: MigrationError.cannotInfer(entity: "A", property: "y", reason: "a new required attribute needs a default value")) {
            try MappingModel.inferred(from: old, to: required)
        }
        let retyped = try ManagedObjectModel(entities: [entity("A", [AttributeDescription(name: "x", type: .date)])])
        #expect(throws: MigrationError.cannotInfer(entity: "A", property: "x", reason: "the type changed from String to Date")) {
            try MappingModel.inferred(from: old, to: retyped)
        }
    }
}
