import Foundation
import Testing
import ModelCodegen
import ObjectModel
import Predicates
import TestSupport

@Suite("Code generation rules")
struct CodeGenerationTests {
    func generator(_ entities: String, name: String = "Rules") throws -> SwiftClassGenerator {
        let url = try ModelFixtures.writeModelFile(ModelFixtures.modelXML(entities), name: name)
        return SwiftClassGenerator(model: try ModelFile.read(url).current, modelName: name)
    }

    @Test("each entity's code generation setting is honoured: class, category (extension only), manual (nothing)")
    func settings() throws {
        let files = try SwiftClassGenerator(model: try ModelFile.read(TypedFixtures.shop).current, modelName: "Shop").files()
        #expect(Set(files.map(\.name)) == ["ShopCategory.swift", "Product.swift", "Tag+Properties.swift", "ShopClasses.swift"])
        let tag = try #require(files.first { $0.name == "Tag+Properties.swift" }).text
        #expect(tag.contains("extension Tag: TypedObject {") && !tag.contains("class Tag"))
        #expect(!files.contains { $0.text.contains("class Note") }, "Note's code generation is manual")
        let category = try #require(files.first { $0.name == "ShopCategory.swift" }).text
        #expect(category.contains("public final class ShopCategory: ManagedObject, TypedObject {"), "the module prefix of ShopKit.ShopCategory goes")
        #expect(category.contains("public var products: [Product] {"), "an ordered to-many is an array")
    }

    @Test("a model that sets no code generation (older than Xcode 8, or by hand) gets every class")
    func noSettingsMeansClasses() throws {
        let files = try generator(#"<entity name="Plant" representedClassName="Plant"><attribute name="kind" optional="YES" attributeType="String"/></entity>"#).files()
        #expect(files.map(\.name) == ["Plant.swift", "RulesClasses.swift"])
    }

    @Test("a model saved by Xcode 8 or later that sets no code generation asks for none (Manual/None is the setting left out)")
    func modernModelWithoutSettings() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758">
            <entity name="Plant" representedClassName="Plant"/>
            </model>
            """
        let url = try ModelFixtures.writeModelFile(xml, name: "Modern")
        #expect(try SwiftClassGenerator(model: try ModelFile.read(url).current, modelName: "Modern").files().isEmpty)
    }

    @Test("a relationship to an entity without a class of its own names ManagedObject; a parent with a hand-written sub-entity stays open")
    func manualNeighbours() throws {
        let files = try generator("""
            <entity name="Pot" codeGenerationType="class">
              <relationship name="labels" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Label" inverseName="pot" inverseEntity="Label"/>
            </entity>
            <entity name="Label" representedClassName="NSManagedObject">
              <relationship name="pot" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Pot" inverseName="labels" inverseEntity="Pot"/>
            </entity>
            <entity name="Plant" representedClassName="Plant" codeGenerationType="class"/>
            <entity name="Fern" representedClassName="Fern" parentEntity="Plant"/>
            """).files()
        let pot = try #require(files.first { $0.name == "Pot.swift" }).text
        #expect(pot.contains("public var labels: Set<ManagedObject> {"), "\(pot)")
        let plant = try #require(files.first { $0.name == "Plant.swift" }).text
        #expect(plant.contains("open class Plant: ManagedObject, TypedObject {"), "\(plant)")
        #expect(!files.contains { $0.name == "Fern.swift" || $0.name == "Label.swift" })
    }

    @Test("a property named like a keyword is escaped", arguments: ["default", "class", "self", "Type", "in"])
    func keywordsEscaped(name: String) throws {
        let text = try generator(#"<entity name="Plant"><attribute name="\#(name)" optional="YES" attributeType="String"/></entity>"#).files()[0].text
        #expect(text.contains("public var `\(name)`: String? {"))
        #expect(text.contains("attributeValue(\"\(name)\")"))
    }

    @Test("a property named like a member every managed object has is refused, naming entity and property",
          arguments: ["description", "objectID", "entity", "isDeleted", "entityName"])
    func memberClash(name: String) throws {
        let error = #expect(throws: CodegenError.self) {
            try generator(#"<entity name="Plant"><attribute name="\#(name)" optional="YES" attributeType="String"/></entity>"#).files()
        }
        #expect(error?.description.hasPrefix("entity 'Plant', property '\(name)': the name is a member every managed object has") == true, "\(error!)")
    }

    @Test("a class name that would hide a type the generated code uses is refused", arguments: ["Date", "Set", "ManagedObject"])
    func classNameClash(name: String) throws {
        let error = #expect(throws: CodegenError.self) {
            try generator(#"<entity name="Plant" representedClassName="\#(name)"/>"#).files()
        }
        #expect(error?.description == "entity 'Plant': its class name '\(name)' would hide the type of that name the generated code uses; give the entity another class name")
    }

    @Test("two entities of one class, and a category in an inheritance chain, are refused")
    func otherRefusals() throws {
        let twice = #expect(throws: CodegenError.self) {
            try generator(#"<entity name="A" representedClassName="Thing"/><entity name="B" representedClassName="Thing"/>"#).files()
        }
        #expect(twice?.description == "entity 'B': its class Thing is also entity A's class; give one a class name of its own")
        let chain = #expect(throws: CodegenError.self) {
            try generator(#"<entity name="A" codeGenerationType="class"/><entity name="B" parentEntity="A" codeGenerationType="category"/>"#).files()
        }
        #expect(chain?.description.hasPrefix("entity 'B': an entity with a parent or sub-entities is generated whole") == true)
    }

    @Test("a hand-written class name another entity's code would name is checked: a model cannot add statements to the program")
    func classNameInjection() throws {
        let folder = try Fixtures.temporaryDirectory("injection")
        let generator = try generator("""
            <entity name="Pot" codeGenerationType="class">
              <relationship name="label" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Label" inverseName="pot" inverseEntity="Label"/>
            </entity>
            <entity name="Label" representedClassName="Label? { nil }&#10;}&#10;func pwn() { print(&quot;owned&quot;) }&#10;extension Pot { var x: Int">
              <relationship name="pot" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Pot" inverseName="label" inverseEntity="Pot"/>
            </entity>
            """)
        let error = #expect(throws: CodegenError.self) { try generator.write(to: folder) }
        #expect(error?.description.hasPrefix("entity 'Label': its class name 'Label? { nil }\\u{a}}") == true, "\(String(describing: error))")
        #expect(error?.description.hasSuffix("is not a Swift type name: “?” (U+003F) cannot be in a Swift name") == true, "\(String(describing: error))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "nothing is written")
    }

    @Test("a name with a character that does not show is refused, naming entity and property", arguments: ["\u{200D}", "\u{202E}", "\u{200B}"])
    func invisibleCharacters(_ invisible: String) throws {
        let name = "title" + invisible
        let error = #expect(throws: (any Error).self) {
            try generator(#"<entity name="Plant"><attribute name="\#(name)" optional="YES" attributeType="String"/></entity>"#).files()
        }
        // The model's own check (a name is an identifier) or code generation's (nothing invisible) refuses it.
        let text = String(describing: error)
        #expect(text.contains("Plant") && text.contains("title"), "\(text)")
    }

    @Test("two to-many relationships whose methods would share a name are refused")
    func duplicateAccessors() throws {
        let error = #expect(throws: CodegenError.self) {
            try generator("""
                <entity name="Box" codeGenerationType="class">
                  <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Box"/>
                  <relationship name="Items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Box"/>
                </entity>
                """).files()
        }
        #expect(error?.description.contains("the generated member addToItems would be both items's and Items's") == true, "\(String(describing: error))")
    }

    @Test("a required attribute's default that no literal of its type holds is refused (the model's own check lets these through)", arguments: [
        (AttributeType.double, ObjectValue.double(.infinity)), (.double, .double(.nan)), (.float, .double(-.infinity)),
        (.date, .date(Date(timeIntervalSinceReferenceDate: .infinity))),
    ])
    func defaultsOutOfReach(_ type: AttributeType, _ value: ObjectValue) throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Gauge", attributes: [AttributeDescription(name: "level", type: type, isOptional: false, defaultValue: value)]),
        ])
        let error = #expect(throws: CodegenError.self) {
            try SwiftClassGenerator(model: model, modelName: "Rules").files()
        }
        #expect(error?.description.hasPrefix("entity 'Gauge', property 'level': its default value") == true, "\(String(describing: error))")
    }

    @Test("a model file's name reaches the headers as one comment line")
    func fileNameInHeader() throws {
        let url = try ModelFixtures.writeModelFile(ModelFixtures.modelXML(#"<entity name="Plant"/>"#), name: "Rules")
        let files = try SwiftClassGenerator(model: try ModelFile.read(url).current, modelName: "Rules",
                                            modelFileName: "Rules\nfunc pwn() {}\n.xcdatamodeld").files()
        for file in files {
            #expect(!file.text.split(separator: "\n").contains { $0.hasPrefix("func pwn") }, "\(file.text)")
        }
    }

    @Test("writing never overwrites a file it did not generate, replaces its own, and removes those of entities gone")
    func writing() throws {
        let folder = try Fixtures.temporaryDirectory()
        let two = try generator(#"<entity name="Plant"/><entity name="Pot"/>"#)
        #expect(try two.write(to: folder).files == ["Plant.swift", "Pot.swift", "RulesClasses.swift"])
        let one = try generator(#"<entity name="Plant"><attribute name="kind" optional="YES" attributeType="String"/></entity>"#)
        let written = try one.write(to: folder)
        #expect(written.removed == ["Pot.swift"])
        #expect(try String(contentsOf: folder.appendingPathComponent("Plant.swift"), encoding: .utf8).contains("public var kind: String?"))

        let mine = "final class Plant {}\n"
        try Data(mine.utf8).write(to: folder.appendingPathComponent("Plant.swift"))
        let error = #expect(throws: CocoaError.self) { try one.write(to: folder) }
        let message = error.map { "\($0.userInfo[NSLocalizedDescriptionKey] ?? "")" } ?? ""
        #expect(message.contains("Plant.swift exists and was not generated"), "\(message)")
        #expect(try String(contentsOf: folder.appendingPathComponent("Plant.swift"), encoding: .utf8) == mine)
    }

    @Test("termdata model --swift writes the classes and lists them")
    func commandLine() throws {
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("Classes")
        let result = try TermDataProcess.run(["model", TypedFixtures.shop.path, "--swift", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("wrote 4 files into \(folder.path) from version Shop:"), "\(result.stdout)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Product.swift").path))
        let bad = try ModelFixtures.writeModelFile(ModelFixtures.modelXML(#"<entity name="Plant"><attribute name="description" optional="YES" attributeType="String"/></entity>"#))
        let refused = try TermDataProcess.run(["model", bad.path, "--swift", folder.path])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("entity 'Plant', property 'description'"), "\(refused.stderr)")
    }
}
