import Foundation
import ObjectModel
import Testing
import TestSupport

/// Xcode's fetch indexes: read from model files and compiled models, checked, written back.
@Suite("Fetch indexes in models")
struct FetchIndexTests {
    static var sampleModel2Contents: URL {
        ModelFixtures.sampleModel.appendingPathComponent("SampleModel2.xcdatamodel/contents")
    }

    @Test("a fetch index in Xcode's file is read with its elements, and written back as Xcode wrote it")
    func xcodeFile() throws {
        let car = try #require(try ModelFixtures.sampleModel(version: "SampleModel2").entity(named: "Car"))
        #expect(car.declaration.fetchIndexes == [FetchIndexDescription(name: "byMakerAndNumberPlate", elements: [
            .init(property: "maker"), .init(property: "numberPlate"),
        ])])
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("SampleModel2.xcdatamodel")
        try XcodeModelFile.writeVersion(try ModelFixtures.sampleModel(version: "SampleModel2"), to: folder)
        let written = try String(contentsOf: folder.appendingPathComponent("contents"), encoding: .utf8)
        let original = try String(contentsOf: Self.sampleModel2Contents, encoding: .utf8)
        let lines = { (text: String) in text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) } }
        let block = lines(original).drop { !$0.hasPrefix("<fetchIndex ") }.prefix(4)
        #expect(Array(block) == [
            #"<fetchIndex name="byMakerAndNumberPlate">"#,
            #"<fetchIndexElement property="maker" type="Binary" order="ascending"/>"#,
            #"<fetchIndexElement property="numberPlate" type="Binary" order="ascending"/>"#,
            "</fetchIndex>",
        ])
        let writtenBlock = lines(written).drop { !$0.hasPrefix("<fetchIndex ") }.prefix(4)
        #expect(Array(writtenBlock) == Array(block), "the fetch index as written: \(Array(writtenBlock))")
        #expect(try XcodeModelFile.readVersion(folder).entity(named: "Car")?.declaration.fetchIndexes == car.declaration.fetchIndexes)
    }

    @Test("the compiled model holds the same fetch index, and the compound index Xcode adds beside it is not read as another index")
    func compiledModel() throws {
        let compiled = try ModelFile.read(Fixtures.corpusFile("coredataplus-samplemodel/SampleModel.momd"))
        let car = try #require(compiled.version(named: "SampleModel2")?.entity(named: "Car"))
        #expect(car.declaration.fetchIndexes.map(\.name) == ["byMakerAndNumberPlate"])
        #expect(car.declaration.fetchIndexes.first?.binaryPropertyNames == ["maker", "numberPlate"])
        #expect(car.declaration.compoundIndexes.isEmpty)
    }

    @Test("descending, R-tree and expression elements are kept; a fetch index of a property the entity lacks is refused with its file and entity")
    func elementsAndMistakes() throws {
        let url = try ModelFixtures.writeModelFile(ModelFixtures.modelXML("""
            <entity name="Place" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="latitude" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
                <fetchIndex name="byNameDown">
                    <fetchIndexElement property="name" type="Binary" order="descending"/>
                </fetchIndex>
                <fetchIndex name="byLatitude">
                    <fetchIndexElement property="latitude" type="RTree" order="ascending"/>
                </fetchIndex>
                <fetchIndex name="byLength">
                    <fetchIndexElement expression="length:(name)" expressionType="Integer 64" type="Binary" order="ascending"/>
                </fetchIndex>
            </entity>
            """), name: "Places")
        let place = try #require(try XcodeModelFile.read(url).current.entity(named: "Place"))
        let indexes = place.declaration.fetchIndexes
        #expect(indexes.map(\.name) == ["byNameDown", "byLatitude", "byLength"])
        #expect(indexes[0].elements == [.init(property: "name", ascending: false)])
        #expect(indexes[1].elements.first?.kind == .rTree && indexes[1].binaryPropertyNames == nil)
        #expect(indexes[2].elements.first?.expression == "length:(name)")
        #expect(indexes[2].elements.first?.xcodeAttributes == ["expressionType": "Integer 64"])

        let wrong = try ModelFixtures.writeModelFile(ModelFixtures.modelXML("""
            <entity name="Place" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <fetchIndex name="byTitle">
                    <fetchIndexElement property="title" type="Binary" order="ascending"/>
                </fetchIndex>
            </entity>
            """), name: "Wrong")
        #expect {
            _ = try XcodeModelFile.read(wrong)
        } throws: { error in
            "\(error)".contains("Place") && "\(error)".contains("title")
        }
    }
}
