import Foundation
import Testing
import Predicates
import ObjectModel
import TestSupport

@Suite("Reading Xcode model files")
struct XcodeModelReadingTests {
    @Test("every model in the corpus loads", arguments: ModelFixtures.corpusModels + [ModelFixtures.toDo])
    func corpusModelsLoad(url: URL) throws {
        let versions = try XcodeModelFile.read(url)
        #expect(!versions.current.entities.isEmpty)
    }

    @Test("a versioned bundle holds every version and names the current one")
    func versionedBundle() throws {
        let versions = try XcodeModelFile.read(ModelFixtures.allFeatures)
        #expect(versions.versions.map(\.name) == ["model", "model 2"])
        #expect(versions.currentVersionName == "model 2")
        #expect(versions.current.versionIdentifier == "model version 2")
        #expect(versions.version(named: "model")?.entity(named: "NewInVersion2") == nil)
        #expect(versions.current.entity(named: "NewInVersion2") != nil)
    }

    @Test("a single .xcdatamodel reads as a bundle of one version")
    func singleVersion() throws {
        let url = ModelFixtures.allFeatures.appendingPathComponent("model.xcdatamodel")
        let versions = try XcodeModelFile.read(url)
        #expect(versions.versions.count == 1)
        #expect(versions.currentVersionName == "model")
    }

    @Test("the ToDo model has the article's two versions, version 2 current")
    func toDoVersions() throws {
        let versions = try XcodeModelFile.read(ModelFixtures.toDo)
        #expect(versions.versions.map(\.name) == ["ToDo", "ToDo 2"])
        let v1 = try #require(versions.version(named: "ToDo")?.entity(named: "ToDo"))
        let v2 = try #require(versions.current.entity(named: "ToDo"))
        #expect(v1.attributes.map(\.name) == ["completed", "dueDate", "name"])
        #expect(v2.attribute(named: "doNotAlert")?.defaultValue == .bool(false))
        #expect(v2.attribute(named: "lastAlertDate")?.isOptional == true)
        #expect(v2.attribute(named: "dueDate")?.isIndexed == true)
    }

    @Test("sub-entities inherit their parent's properties; the parent lists its sub-entities")
    func inheritance() throws {
        let model = try ModelFixtures.employeeModel()
        let person = try #require(model.entity(named: "Person"))
        let employee = try #require(model.entity(named: "Employee"))
        #expect(person.isAbstract)
        #expect(person.subentityNames.sorted() == ["Contractor", "Employee"])
        #expect(employee.attribute(named: "firstName")?.type == .string)
        #expect(employee.attributes.map(\.name).prefix(4) == ["birthDate", "firstName", "fullName", "lastName"])
        #expect(employee.isKind(of: "Person"))
        #expect(!person.isKind(of: "Employee"))
        #expect(person.kindNames.sorted() == ["Contractor", "Employee", "Person"])
        #expect(employee.attribute(named: "fullName")?.isTransient == true)
        #expect(employee.attribute(named: "salary")?.minimum == .int(0))
        #expect(employee.relationship(named: "projects")?.isToMany == true)
        #expect(employee.relationship(named: "projects")?.deleteRule == .noAction)
    }

    @Test("entity numbers keep an inheritance tree together, in name order")
    func entityNumbers() throws {
        let model = try ModelFixtures.employeeModel()
        let order = (1...5).compactMap { model.entity(numbered: $0)?.name }
        #expect(order == ["Department", "Person", "Contractor", "Employee", "Project"])
    }

    @Test("every attribute type of the all-features model is read with its constraints")
    func allTypes() throws {
        let v1 = try #require(try XcodeModelFile.read(ModelFixtures.allFeatures).version(named: "model"))
        let e = try #require(v1.entity(named: "AllTypesOfAttributes"))
        let types = Set(e.attributes.map(\.type))
        #expect(types == [.binary, .boolean, .date, .decimal, .double, .float, .integer16, .integer32, .integer64,
                          .string, .transformable])
        let date = try #require(e.attribute(named: "dateAttribute"))
        #expect(date.defaultValue == .date(Date(timeIntervalSinceReferenceDate: 479_176_980)))
        #expect(date.minimum == .date(Date(timeIntervalSinceReferenceDate: 479_176_980)))
        let string = try #require(e.attribute(named: "stringAttribute"))
        #expect(string.maximum == .int(100))
        #expect(string.regularExpression == "Regular Expression")
        #expect(string.defaultValue == "Default Value")
        #expect(string.isIndexed && string.isTransient)
        #expect(e.attribute(named: "booleanAttribute")?.defaultValue == .bool(true))
        #expect(e.attribute(named: "transformableAttribute")?.valueTransformerName == "Value Transformer Name")
        #expect(e.attribute(named: "binaryAttribute")?.allowsExternalBinaryDataStorage == true)
        let float = try #require(e.attribute(named: "floatAttribute"))
        #expect(float.renamingIdentifier == "Renaming Identifier")
        #expect(float.versionHashModifier == "Version Hash Modifier")
        #expect(float.userInfo == ["key": "value"])
    }

    @Test("relationships, fetched properties, indexes, constraints, templates and configurations are read")
    func structure() throws {
        let model = try XcodeModelFile.read(ModelFixtures.allFeatures).current
        let from = try #require(model.entity(named: "RelationshipFrom"))
        let ordered = try #require(from.relationship(named: "relationshiopProperties"))
        #expect(ordered.isToMany && ordered.isOrdered && ordered.isTransient)
        #expect(ordered.minCount == 1 && ordered.maxCount == 2)
        #expect(ordered.inverseName == "relationship2")
        #expect(model.inverse(of: ordered)?.name == "relationship2")
        #expect(from.relationship(named: "invertedRelationship")?.isToMany == false)

        let info = try #require(model.entity(named: "UserInfo"))
        #expect(info.declaration.renamingIdentifier == "Renaming Identifier")
        #expect(info.declaration.versionHashModifier == "Version Hash Modeifier")
        #expect(info.declaration.uniquenessConstraints == [["comma", "separated", "properties"]])
        #expect(info.declaration.compoundIndexes == [["comma", "separated", "properties"]])
        #expect(info.declaration.userInfo == ["key": "value"])
        #expect(info.relationship(named: "relationship")?.inverseName == "relationship")

        let fetched = try #require(model.entity(named: "FetchedProperties")?.fetchedProperty(named: "fetchedProperty"))
        #expect(fetched.predicateFormat == "test = \"test\"")
        #expect(fetched.userInfo == ["key": "value"])

        let template = try #require(model.fetchRequestTemplate(named: "FetchRequest"))
        #expect(template.entityName == "FetchedProperties")
        #expect(template.fetchLimit == 1 && template.fetchBatchSize == 1 && template.returnsDistinctResults)
        #expect(model.configurations.map(\.name) == ["Configuration"])
        #expect(model.entity(named: "ConcreteEntity")?.parentName == "AbstractEntity")
    }
}
