import Foundation
import Testing
import Predicates
import ObjectModel
import TestSupport

@Suite("Entity version hashes")
struct VersionHashTests {
    static func base() -> [EntityDescription] {
        [
            EntityDescription(name: "Category", className: "Category", attributes: [
                AttributeDescription(name: "name", type: .string, isOptional: false),
            ], relationships: [
                RelationshipDescription(name: "todos", destination: "ToDo", inverse: "category", isToMany: true),
            ]),
            EntityDescription(name: "ToDo", attributes: [
                AttributeDescription(name: "name", type: .string),
                AttributeDescription(name: "dueDate", type: .date),
            ], relationships: [
                RelationshipDescription(name: "category", destination: "Category", inverse: "todos"),
            ]),
        ]
    }

    static func hashes(_ change: (inout [EntityDescription]) -> Void) throws -> [String: Data] {
        var entities = base()
        change(&entities)
        return try ManagedObjectModel(entities: entities).entityVersionHashes
    }

    @Test("hashes are 32 bytes and the same every time")
    func deterministic() throws {
        let a = try Self.hashes { _ in }
        let b = try Self.hashes { _ in }
        #expect(a == b)
        #expect(a["ToDo"]?.count == 32)
        #expect(a["ToDo"] != a["Category"])
    }

    static let compatibleChanges: [(String, @Sendable (inout [EntityDescription]) -> Void)] = [
        ("user info", { $0[1].userInfo = ["note": "x"] }),
        ("class name", { $0[0].className = "CategoryMO" }),
        ("attribute user info", { $0[1].attributes[0].userInfo = ["k": "v"] }),
        ("default value", { $0[1].attributes[0].defaultValue = "New" }),
        ("indexed flag", { $0[1].attributes[1].isIndexed = true }),
        ("validation bounds", { $0[1].attributes[0].maximum = .int(10) }),
        ("renaming identifier", { $0[1].attributes[0].renamingIdentifier = "title" }),
        ("Xcode flags", { $0[1].xcodeAttributes = ["codeGenerationType": "class", "syncable": "YES"] }),
        ("delete rule", { $0[0].relationships[0].deleteRule = .cascade }),
    ]

    @Test("changes that leave a store readable keep every hash", arguments: compatibleChanges.map(\.0))
    func unchanged(label: String) throws {
        let change = Self.compatibleChanges.first { $0.0 == label }!.1
        #expect(try Self.hashes(change) == (try Self.hashes { _ in }))
    }

    static let incompatibleChanges: [(String, String, @Sendable (inout [EntityDescription]) -> Void)] = [
        ("an added attribute", "ToDo", { $0[1].attributes.append(AttributeDescription(name: "done", type: .boolean)) }),
        ("a removed attribute", "ToDo", { $0[1].attributes.removeLast() }),
        ("a renamed attribute", "ToDo", { $0[1].attributes[0].name = "title" }),
        ("a changed type", "ToDo", { $0[1].attributes[1].type = .double }),
        ("optional made required", "ToDo", { $0[1].attributes[0].isOptional = false }),
        ("a transient flag", "ToDo", { $0[1].attributes[0].isTransient = true }),
        ("an attribute hash modifier", "ToDo", { $0[1].attributes[0].versionHashModifier = "2" }),
        ("an entity hash modifier", "Category", { $0[0].versionHashModifier = "v2" }),
        ("to-many made ordered", "Category", { $0[0].relationships[0].isOrdered = true }),
        ("a uniqueness constraint", "Category", { $0[0].uniquenessConstraints = [["name"]] }),
    ]

    @Test("changes that make a store unreadable change the entity's hash", arguments: incompatibleChanges.map(\.0))
    func changed(label: String) throws {
        let (_, entity, change) = Self.incompatibleChanges.first { $0.0 == label }!
        let before = try Self.hashes { _ in }
        let after = try Self.hashes(change)
        #expect(after[entity] != before[entity])
        let model = try ManagedObjectModel(entities: { var e = Self.base(); change(&e); return e }())
        #expect(model.entitiesDiffering(fromVersionHashes: before) == [entity])
    }

    @Test("diagram layout in the model file does not change the hashes")
    func layout() throws {
        let body = """
            <entity name="A"><attribute name="x" optional="YES" attributeType="String"/></entity>
        """
        let plain = try XcodeModelFile.read(ModelFixtures.writeModelFile(ModelFixtures.modelXML(body))).current
        let laidOut = try XcodeModelFile.read(ModelFixtures.writeModelFile(ModelFixtures.modelXML(body + """
            <elements><element name="A" positionX="1" positionY="2" width="128" height="45"/></elements>
        """))).current
        #expect(plain.entityVersionHashes == laidOut.entityVersionHashes)
    }

    @Test("the ToDo model's two versions differ only in ToDo")
    func toDoVersions() throws {
        let versions = try XcodeModelFile.read(ModelFixtures.toDo)
        let v1 = try #require(versions.version(named: "ToDo"))
        #expect(versions.current.entitiesDiffering(fromVersionHashes: v1.entityVersionHashes) == ["ToDo"])
    }
}
