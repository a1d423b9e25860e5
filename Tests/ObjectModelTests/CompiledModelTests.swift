import Foundation
import Testing
import Predicates
import ObjectModel
import TestSupport

@Suite("Reading compiled models (.mom, .momd)")
struct CompiledModelTests {
    static let sampleMomd = Fixtures.corpusFile("coredataplus-samplemodel/SampleModel.momd")
    static let xcodeServerMomd = Fixtures.corpusFile("xcodeserver-1.0/XcodeServer.momd")

    @Test("each version Xcode compiled reads as the model its source describes",
          arguments: [(sampleMomd, ModelFixtures.sampleModel), (xcodeServerMomd, ModelFixtures.xcodeServer)])
    func compiledMatchesSource(compiled: URL, source: URL) throws {
        let fromCompiled = try CompiledModelFile.read(compiled)
        let fromSource = try XcodeModelFile.read(source)
        #expect(fromCompiled.versions.map(\.name) == fromSource.versions.map(\.name))
        for version in fromSource.versions {
            let compiledVersion = try #require(fromCompiled.version(named: version.name))
            let expected = try ModelComparison.semantic(version.model)
            let got = try ModelComparison.semantic(compiledVersion)
            #expect(got.entityNames == expected.entityNames, "\(version.name)")
            for entity in expected.entityDescriptions {
                let other = try #require(got.entityDescriptions.first { $0.name == entity.name })
                #expect(other == entity, "\(version.name): \(entity.name)")
            }
            #expect(ModelComparison.differences(got, expected) == [], "\(version.name)")
            #expect(got == expected, "\(version.name)")
            #expect(compiledVersion.entityVersionHashes == version.model.entityVersionHashes, "\(version.name)")
        }
    }

    @Test("a .momd's current version is the one VersionInfo.plist names; the first SampleModel is current")
    func currentVersion() throws {
        let versions = try CompiledModelFile.read(Self.sampleMomd)
        #expect(versions.currentVersionName == "SampleModel")
        #expect(versions.versions.map(\.name) == ["SampleModel", "SampleModel2", "SampleModel3"])
        let v3 = try #require(versions.version(named: "SampleModel3"))
        #expect(v3.versionIdentifier == "3")
        // Version 2 renamed ExpensiveSportCar to LuxuryCar through its renaming identifier.
        let luxury = try #require(versions.version(named: "SampleModel2")?.entity(named: "LuxuryCar"))
        #expect(luxury.declaration.renamingIdentifier == "ExpensiveSportCar")
        #expect(luxury.parentName == "SportCar")
        #expect(luxury.isKind(of: "Car"))
    }

    @Test("what a real .mom says of its attributes: transformer, transient, tombstone, defaults, required")
    func realAttributeDetails() throws {
        let v1 = try CompiledModelFile.readVersion(Self.sampleMomd.appendingPathComponent("SampleModel.mom"))
        let car = try #require(v1.entity(named: "Car"))
        #expect(car.attribute(named: "color")?.type == .transformable)
        #expect(car.attribute(named: "color")?.valueTransformerName == "ColorTransformer")
        #expect(car.attribute(named: "currentDrivingSpeed")?.isTransient == true)
        #expect(car.attribute(named: "currentDrivingSpeed")?.defaultValue == .int(0))
        #expect(car.attribute(named: "numberPlate")?.isOptional == false)
        #expect(car.declaration.uniquenessConstraints == [["numberPlate"]])
        let person = try #require(v1.entity(named: "Person"))
        #expect(person.attribute(named: "id")?.preservesValueInHistoryOnDeletion == true)
        #expect(person.attribute(named: "isDriving")?.defaultValue == .bool(false))
        let server = try CompiledModelFile.read(Self.xcodeServerMomd).current
        #expect(server.entities.count == 23)
        #expect(server.entities.reduce(0) { $0 + $1.declaration.relationships.count } == 106)
        #expect(server.entity(named: "Bot")?.attribute(named: "identifier")?.defaultValue == .string("f8cf876e03804ea585fe6cb54bcca396"))
        #expect(server.entity(named: "Bot")?.declaration.className == "XcodeServerModel_1_0_0.Bot")
    }

    @Test("every feature of the all-features model survives compiling: ordered, abstract, fetched properties, templates, configurations, bounds, user info")
    func everyFeatureThroughTheArchive() throws {
        let source = try XcodeModelFile.read(ModelFixtures.allFeatures)
        for version in source.versions {
            let bytes = CompiledModelEncoder.encode(version.model)
            let read = try CompiledModelFile.model(archive: bytes, file: "\(version.name).mom")
            #expect(try ModelComparison.differences(ModelComparison.semantic(read), ModelComparison.semantic(version.model)) == [], "\(version.name)")
        }
        let model = try CompiledModelFile.model(archive: CompiledModelEncoder.encode(source.current), file: "model 2.mom")
        #expect(model.entity(named: "AbstractEntity")?.isAbstract == true)
        let ordered = model.entityDescriptions.flatMap(\.relationships).first { $0.isOrdered }
        #expect(ordered?.name == "relationshiopProperties")
        #expect(ordered?.minCount == 1 && ordered?.maxCount == 2)
        #expect(ordered?.userInfo == ["key": "value"])
        let template = try #require(model.fetchRequestTemplates.first { $0.name == "FetchRequest" })
        #expect(template.predicateFormat == #"test == """#)
        #expect(template.fetchLimit == 1 && template.fetchBatchSize == 1 && template.returnsDistinctResults)
        #expect(model.configurations.map(\.name) == ["Configuration"])
        let fetched = model.entityDescriptions.flatMap(\.fetchedProperties)
        #expect(fetched.map(\.predicateFormat).contains(#"test == "test""#))
    }

    @Test("predicates of every shape come back from their archive as the same format")
    func predicateShapes() throws {
        let formats = [
            #"name BEGINSWITH[cd] "a" AND (age >= 18 OR NOT age < 10)"#,
            #"ANY items.price > 5"#, #"ALL items.price > 5"#, #"NONE items.price > 5"#,
            #"department.name LIKE[c] "*ops*""#, "age BETWEEN {1, 5}", #"name IN {"a", "b"}"#,
            "$FETCH_SOURCE.owner == SELF", "SUBQUERY(items, $i, $i.price > 2).@count > 0",
            "TRUEPREDICATE", "FALSEPREDICATE", "price * 2 > 10", "count:(items) == 3",
            #"name MATCHES "[a-z]+" AND name ENDSWITH "z" AND name CONTAINS[d] "e""#,
        ]
        for format in formats {
            let predicate = try ObjectPredicate(format: format)
            let template = FetchRequestTemplate(name: "t", entityName: "E", predicateFormat: format)
            let model = try ManagedObjectModel(
                entities: [EntityDescription(name: "E", attributes: [AttributeDescription(name: "name", type: .string)])],
                fetchRequestTemplates: [template])
            let read = try CompiledModelFile.model(archive: CompiledModelEncoder.encode(model), file: "t.mom")
            let back = try #require(read.fetchRequestTemplates.first?.predicateFormat)
            // Foundation archives NONE as NOT ANY, and so reads it back.
            let expected = format.hasPrefix("NONE ") ? try ObjectPredicate(format: "NOT ANY " + format.dropFirst(5)) : predicate
            #expect(try ObjectPredicate(format: back) == expected, "\(format) came back as \(back)")
        }
    }

    @Test("a relationship whose maximum is archived as -1 (Apple's \"no limit\" in some archives) reads as a to-many without a maximum; -2 is refused")
    func maxCountMinusOne() throws {
        func model(maxCount: Int) throws -> ManagedObjectModel {
            try ManagedObjectModel(entities: [
                EntityDescription(name: "Owner", relationships: [
                    RelationshipDescription(name: "items", destination: "Item", inverse: "owner", isToMany: true, maxCount: maxCount),
                ]),
                EntityDescription(name: "Item", relationships: [RelationshipDescription(name: "owner", destination: "Owner", inverse: "items")]),
            ])
        }
        let read = try CompiledModelFile.model(archive: CompiledModelEncoder.encode(try model(maxCount: -1)), file: "cache.mom")
        let items = try #require(read.entity(named: "Owner")?.relationship(named: "items"))
        #expect(items.isToMany && items.maxCount == 0)
        #expect(throws: (any Error).self) {
            try CompiledModelFile.model(archive: CompiledModelEncoder.encode(try model(maxCount: -2)), file: "bad.mom")
        }
    }

    @Test("defaults and bounds of every value type come back: decimal, date, UUID, URL, lengths")
    func valuesThroughTheArchive() throws {
        let day = Date(timeIntervalSinceReferenceDate: 86_400 * 365)
        let entity = EntityDescription(name: "E", attributes: [
            AttributeDescription(name: "amount", type: .decimal, defaultValue: .decimal(Decimal(string: "-1234567.891")!)),
            AttributeDescription(name: "big", type: .decimal, defaultValue: .decimal(Decimal(string: "98765432109876543210.5")!)),
            AttributeDescription(name: "due", type: .date, defaultValue: .date(day), minimum: .date(day)),
            AttributeDescription(name: "key", type: .uuid, defaultValue: .uuid(UUID(uuidString: "0A8B2C7E-1111-4222-8333-944455556666")!)),
            AttributeDescription(name: "link", type: .uri, defaultValue: .url(URL(string: "https://example.com/a?b=c")!)),
            AttributeDescription(name: "name", type: .string, minimum: .int(2), maximum: .int(40), regularExpression: "[A-Z].*"),
            AttributeDescription(name: "photo", type: .binary, allowsExternalBinaryDataStorage: true),
            AttributeDescription(name: "score", type: .double, defaultValue: .double(0.25), minimum: .double(0), maximum: .double(1)),
        ])
        let model = try ManagedObjectModel(entities: [entity])
        let read = try CompiledModelFile.model(archive: CompiledModelEncoder.encode(model), file: "v.mom")
        #expect(read == model)
    }

    @Test("a model cache's layout reads too: known-keys dictionaries, inherited properties repeated on sub-entities")
    func cacheLayout() throws {
        let model = try ModelFixtures.employeeModel()
        let read = try CompiledModelFile.model(archive: CompiledModelEncoder.encode(model, cacheLayout: true), file: "cache")
        // A cache names no classes, as Core Data's do.
        #expect(read.entityDescriptions.allSatisfy { $0.className == nil })
        let withoutClasses = try ManagedObjectModel(entities: model.entityDescriptions.map { e in
            var e = e
            e.className = nil
            return e
        })
        #expect(try ModelComparison.differences(ModelComparison.semantic(read), ModelComparison.semantic(withoutClasses)) == [])
        #expect(read.entity(named: "Employee")?.declaration.attributes.contains { $0.name == "firstName" } == false)
    }

    @Test("ModelFile reads either kind by what the path is")
    func eitherKind() throws {
        #expect(try ModelFile.read(Self.sampleMomd).versions.count == 3)
        #expect(try ModelFile.read(ModelFixtures.sampleModel).versions.count == 3)
        // A .mom without its extension is known by its first bytes.
        let folder = try Fixtures.temporaryDirectory("mom")
        let plain = folder.appendingPathComponent("Model")
        try FileManager.default.copyItem(at: Self.sampleMomd.appendingPathComponent("SampleModel3.mom"), to: plain)
        #expect(try ModelFile.read(plain).current.entityNames.contains("Maker"))
    }
}

@Suite("Broken compiled models")
struct BrokenCompiledModelTests {
    private func error(_ bytes: Data, name: String = "Broken.mom") throws -> ModelError {
        let url = try Fixtures.temporaryDirectory("mom").appendingPathComponent(name)
        try bytes.write(to: url)
        do {
            _ = try CompiledModelFile.read(url)
        } catch let error as ModelError {
            #expect(error.file == url.path)
            return error
        }
        Issue.record("\(name) was read")
        return ModelError(.noVersions)
    }

    private func model(_ entity: EntityDescription) throws -> Data {
        CompiledModelEncoder.encode(try ManagedObjectModel(entities: [entity]))
    }

    @Test("an XML model named .mom is refused by what it starts with")
    func xmlAsMom() throws {
        let e = try error(Data("<?xml version=\"1.0\"?><model/>".utf8))
        #expect(e.message.contains("binary property list"))
        #expect(e.message.contains("<?xml"))
    }

    @Test("a truncated .mom names the byte where it breaks")
    func truncated() throws {
        let whole = try Data(contentsOf: CompiledModelTests.sampleMomd.appendingPathComponent("SampleModel3.mom"))
        let e = try error(whole.prefix(whole.count / 2))
        #expect(e.message.hasPrefix("malformed binary property list"), "\(e)")
        let cut = whole.prefix(12)
        #expect(try error(cut).message.contains("too short"))
    }

    @Test("references outside the file and objects that contain themselves are refused, not followed")
    func hostileReferences() throws {
        var bytes = [UInt8](try Data(contentsOf: CompiledModelTests.sampleMomd.appendingPathComponent("SampleModel3.mom")))
        // Point the trailer's offset table past the end of the file.
        bytes[bytes.count - 1] = 0xFF
        bytes[bytes.count - 2] = 0xFF
        #expect(try error(Data(bytes)).message.contains("outside the file"))
        // An array whose only element is itself.
        let selfish = Data(Array("bplist00".utf8) + [0xA1, 0x00, 0x08]
            + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 10])
        #expect(try error(selfish).message.contains("contains itself"))
    }

    @Test("an archive of something else than a model says what it holds")
    func notAModel() throws {
        let plist = BinaryPropertyListWriter.write(.dictionary([
            "$archiver": .string("NSKeyedArchiver"), "$version": .int(100000),
            "$top": .dictionary(["root": .uid(1)]),
            "$objects": .array([.string("$null"), .dictionary(["$class": .uid(2)]),
                                .dictionary(["$classname": .string("NSColor"), "$classes": .array([.string("NSColor")])])]),
        ]))
        #expect(try error(plist).message.contains("NSColor, not an NSManagedObjectModel"))
        let settings = try PropertyListSerialization.data(fromPropertyList: ["a": 1], format: .binary, options: 0)
        #expect(try error(settings).message.contains("NSKeyedArchiver"))
    }

    @Test("an attribute type the reader does not know names the entity and property")
    func unknownType() throws {
        var bytes = try model(EntityDescription(name: "Book", attributes: [AttributeDescription(name: "title", type: .string)]))
        // 700 (String) is written as an eight-byte integer; make it 4711.
        let seven = Data([0x13] + withUnsafeBytes(of: Int64(700).bigEndian, Array.init))
        let range = try #require(bytes.range(of: seven))
        bytes.replaceSubrange(range, with: Data([0x13] + withUnsafeBytes(of: Int64(4711).bigEndian, Array.init)))
        let e = try error(bytes)
        #expect(e.entity == "Book" && e.property == "title")
        #expect(e.message.contains("4711"))
    }

    @Test("a .momd without its VersionInfo.plist and several versions says which file is missing")
    func momdWithoutVersionInfo() throws {
        let folder = try Fixtures.temporaryDirectory("momd").appendingPathComponent("M.momd")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["SampleModel.mom", "SampleModel2.mom"] {
            try FileManager.default.copyItem(at: CompiledModelTests.sampleMomd.appendingPathComponent(name),
                                             to: folder.appendingPathComponent(name))
        }
        #expect(throws: ModelError.self) { try CompiledModelFile.read(folder) }
        do { _ = try CompiledModelFile.read(folder) } catch let e as ModelError {
            #expect(e.message.contains("VersionInfo.plist"))
        }
    }
}
