import Foundation
import GRDB
import Testing
import TestSupport
import ObjectModel
import SQLiteStore

@Suite("termdata model")
struct ModelCommandTests {
    @Test("summarises every corpus model and exits 0", arguments: ModelFixtures.corpusModels)
    func corpus(url: URL) throws {
        let result = try TermDataProcess.run(["model", url.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("entities"))
        #expect(result.stderr.isEmpty)
    }

    @Test("ToDo names the bundled ToDo model, both its versions")
    func bundledByName() throws {
        let result = try TermDataProcess.run(["model", "ToDo"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("lastAlertDate"), "\(result.stdout)")
        #expect(result.stdout.contains("Category"))
    }

    @Test("prints the employee directory's inheritance and constraints")
    func employeeText() throws {
        let result = try TermDataProcess.run(["model", ModelFixtures.employeeDirectory.path])
        #expect(result.stdout.contains("Employee : Person"))
        #expect(result.stdout.contains("salary"))
        #expect(result.stdout.contains("required, min 0"))
    }

    @Test("--format json puts each entity under its name")
    func json() throws {
        let result = try TermDataProcess.run(["model", ModelFixtures.sampleModel.path, "--format", "json"])
        #expect(result.status == 0)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let entities = try #require(root["entities"] as? [String: Any])
        #expect(Set(entities.keys) == ["Car", "SportCar", "ExpensiveSportCar", "Person"])
    }

    @Test("--format json carries a relationship's transient flag, as the text does")
    func transientRelationship() throws {
        let result = try TermDataProcess.run(["model", ModelFixtures.allFeatures.path, "--format", "json"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let from = try #require((root["entities"] as? [String: Any])?["RelationshipFrom"] as? [String: Any])
        let relationships = try #require(from["relationships"] as? [String: [String: Any]])
        #expect(relationships["relationshiopProperties"]?["transient"] as? Bool == true)
        #expect(relationships.values.contains { $0["transient"] as? Bool == false })
    }

    @Test("with no arguments and no terminal it says it needs one, in one line, and exits non-zero")
    func defaultRunWithoutTerminal() throws {
        let folder = try Fixtures.temporaryDirectory()
        let result = try TermDataProcess.run([], environment: ["XDG_DATA_HOME": folder.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("termdata needs a terminal for the ToDo application"))
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("termdata/ToDo.sqlite").path),
                "nothing is created without a terminal")
    }

    @Test("the ToDo application takes --type as the other commands do, and --store-type as before", arguments: ["--type", "--store-type"])
    func toDoTypeOption(option: String) throws {
        let folder = try Fixtures.temporaryDirectory()
        let accepted = try TermDataProcess.run(["todo", option, "xml", "--store", folder.appendingPathComponent("list.xml").path])
        #expect(accepted.status != 0)
        #expect(accepted.stderr.contains("termdata needs a terminal"), "the option was read: \(accepted.stderr)")
        let refused = try TermDataProcess.run(["todo", option, "paper"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("'paper'"), "\(refused.stderr)")
        #expect(try TermDataProcess.run(["todo", "--help"]).stdout.contains("--type"))
    }

    @Test("browse without a terminal says it needs one and names the commands that do not")
    func browseWithoutTerminal() throws {
        let result = try TermDataProcess.run(["browse", "--store", try Fixtures.copyOfCorpusFile(ModelFixtures.sampleStoreV1).path,
                                              "--model", ModelFixtures.sampleModel.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("the browser needs a terminal; `termdata query` and `termdata export` do not"), "\(result.stderr)")
    }

    static let broken: [(String, String)] = [
        ("<model><entity name=\"A\">", "malformed XML"),
        (ModelFixtures.modelXML("<entity name=\"A\"><attribute name=\"x\" attributeType=\"Money\"/></entity>"), "unknown attribute type 'Money'"),
        (ModelFixtures.modelXML("<entity name=\"A\" parentEntity=\"B\"/>"), "parent entity 'B' does not exist"),
        ("{\"entities\": []}\n", "not an XML document (it starts with “{\"entities\":”)"),
        ("", "the file is empty"),
    ]

    @Test("refuses a broken file with one clear line and a non-zero exit", arguments: 0..<5)
    func brokenFiles(index: Int) throws {
        let (xml, fragment) = Self.broken[index]
        let url = try ModelFixtures.writeModelFile(xml)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let result = try TermDataProcess.run(["model", url.path])
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(fragment), "\(result.stderr)")
        #expect(result.stderr.contains("Broken.xcdatamodel/contents"))
        #expect(!result.stderr.contains("Fatal error"))
        #expect(result.stderr.split(separator: "\n").count <= 2)
    }

    @Test("a missing path is reported, not crashed on")
    func missing() throws {
        let result = try TermDataProcess.run(["model", "/no/such/Model.xcdatamodeld"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("/no/such/Model.xcdatamodeld: no such model file or folder"))
    }
}

@Suite("termdata migrate")
struct MigrateCommandTests {
    func versionOneStore(in folder: URL) throws -> URL {
        let versions = try XcodeModelFile.read(ModelFixtures.toDoHistory)
        let url = folder.appendingPathComponent("todo.xml")
        let stack = try TestStack(model: versions.version(named: "ToDo")!, type: .xml, url: url)
        for name in ["alpha", "beta"] { try stack.context.insertObject(forEntityName: "ToDo")["name"] = .string(name) }
        try stack.context.save()
        return url
    }

    @Test("a store at the current version that does not open (its entity table lost a row) is reported as query reports it, not as nothing to do")
    func currentButDamaged() throws {
        let folder = try Fixtures.temporaryDirectory()
        let versions = try XcodeModelFile.read(ModelFixtures.toDoHistory)
        let url = folder.appendingPathComponent("todo.sqlite")
        SQLiteStore.register()
        do {
            let stack = try TestStack(model: versions.current, type: .sqlite, url: url)
            try stack.context.insertObject(forEntityName: "ToDo")["title"] = "alpha"
            try stack.context.save()
        }
        let healthy = try TermDataProcess.run(["migrate", "--store", url.path, "--model", ModelFixtures.toDoHistory.path])
        #expect(healthy.status == 0 && healthy.stdout.contains("nothing to do"), "\(healthy.stderr)")
        try DatabaseQueue(path: url.path).write { try $0.execute(sql: "DELETE FROM Z_PRIMARYKEY WHERE Z_NAME = 'ToDo'") }
        let result = try TermDataProcess.run(["migrate", "--store", url.path, "--model", ModelFixtures.toDoHistory.path])
        #expect(result.status != 0)
        #expect(!result.stdout.contains("nothing to do"))
        #expect(result.stderr.contains("Z_PRIMARYKEY lacks ToDo"), "\(result.stderr)")
    }

    @Test("--dry-run reports the plan and changes nothing")
    func dryRun() throws {
        let folder = try Fixtures.temporaryDirectory()
        let url = try versionOneStore(in: folder)
        let before = try Data(contentsOf: url)
        let result = try TermDataProcess.run(["migrate", "--store", url.path, "--model", ModelFixtures.toDoHistory.path, "--dry-run"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("version ToDo → ToDo 3"))
        #expect(result.stdout.contains("ToDo 2 → ToDo 3 (inferred)"))
        #expect(result.stdout.contains("List: renamed from Category"))
        #expect(result.stdout.contains("Dry run: nothing changed."))
        #expect(try Data(contentsOf: url) == before)
    }

    @Test("--dry-run checks the mapping file against the model and lists each misfit")
    func dryRunChecksMapping() throws {
        let folder = try Fixtures.temporaryDirectory()
        let url = try versionOneStore(in: folder)
        let before = try Data(contentsOf: url)
        let mapping = folder.appendingPathComponent("mapping.json")
        try Data(#"""
        {"format": "termdata-mapping", "version": 1, "source": "ToDo 2", "destination": "ToDo 3",
         "entityMappings": [
           {"name": "GadgetToToDo", "source": "Gadget", "destination": "ToDo"},
           {"name": "ToDoToToDo", "source": "ToDo", "destination": "ToDo", "policy": "NoSuchPolicy",
            "attributes": {"title": "$source.nmae", "colour": "$source.name"}}]}
        """#.utf8).write(to: mapping)
        let result = try TermDataProcess.run(["migrate", "--store", url.path, "--model", ModelFixtures.toDoHistory.path,
                                              "--mapping", mapping.path, "--dry-run"])
        #expect(result.status != 0)
        for misfit in ["entity mapping GadgetToToDo: the source model (ToDo 2) has no entity 'Gadget'",
                       "entity mapping ToDoToToDo: no migration policy is registered as 'NoSuchPolicy'",
                       "attributes.colour: ToDo in the destination model has no attribute 'colour'",
                       "attributes.title: ToDo in the source model has no key 'nmae' ($source.nmae)"] {
            #expect(result.stderr.contains(misfit), "\(misfit)\n\(result.stderr)")
        }
        #expect(!result.stdout.contains("Dry run: nothing changed."))
        #expect(try Data(contentsOf: url) == before)
    }

    @Test("migrates to the current version and keeps a backup")
    func migrates() throws {
        let folder = try Fixtures.temporaryDirectory()
        let url = try versionOneStore(in: folder)
        let result = try TermDataProcess.run(["migrate", "--store", url.path, "--model", ModelFixtures.toDoHistory.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Migrated 2 objects"))
        #expect(FileManager.default.fileExists(atPath: url.path + ".backup"))
        let again = try TermDataProcess.run(["migrate", "--store", url.path, "--model", ModelFixtures.toDoHistory.path])
        #expect(again.stdout.contains("is at the current version (ToDo 3)"))
    }

    @Test("an Apple-written store, whose version hashes cannot be computed here, migrates from the version its tables fit")
    func appleStore() throws {
        let folder = try Fixtures.temporaryDirectory()
        let store = folder.appendingPathComponent("SampleModel_V1.sqlite")
        try FileManager.default.copyItem(at: ModelFixtures.sampleStoreV1, to: store)
        // SampleModel's first version as Core Data wrote the store with it, and a second that adds an attribute.
        let first = ModelFixtures.sampleModel.appendingPathComponent("SampleModel.xcdatamodel")
        let bundle = folder.appendingPathComponent("Sample.xcdatamodeld")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: first, to: bundle.appendingPathComponent("SampleModel.xcdatamodel"))
        let v1 = try String(contentsOf: first.appendingPathComponent("contents"), encoding: .utf8)
        let v2 = v1.replacingOccurrences(of: #"<attribute name="maker" optional="YES" attributeType="String"/>"#,
                                         with: #"<attribute name="vin" optional="YES" attributeType="String"/><attribute name="maker" optional="YES" attributeType="String"/>"#)
        #expect(v2 != v1)
        let second = bundle.appendingPathComponent("SampleModel 2.xcdatamodel")
        try FileManager.default.createDirectory(at: second, withIntermediateDirectories: true)
        try Data(v2.utf8).write(to: second.appendingPathComponent("contents"))
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>SampleModel 2.xcdatamodel</string></dict></plist>
            """.utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))

        let current = try TermDataProcess.run(["migrate", "--store", store.path, "--model", ModelFixtures.sampleModel.path, "--dry-run"])
        #expect(current.status == 0, "\(current.stderr)")
        #expect(current.stdout.contains("is at the current version (SampleModel)"), "\(current.stdout)")
        let plan = try TermDataProcess.run(["migrate", "--store", store.path, "--model", bundle.path, "--dry-run"])
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(plan.stdout.contains("version SampleModel → SampleModel 2"), "\(plan.stdout)")
        let result = try TermDataProcess.run(["migrate", "--store", store.path, "--model", bundle.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Migrated 145 objects"), "\(result.stdout)")
        let count = try TermDataProcess.run(["query", "--store", store.path, "--model", bundle.path, "Car", "vin == nil AND owner != nil", "--count"])
        #expect(count.stdout == "118\n", "\(count.stderr)")
    }

    @Test("a store of another model is refused with one line and left untouched")
    func refused() throws {
        let folder = try Fixtures.temporaryDirectory()
        let url = try versionOneStore(in: folder)
        let before = try Data(contentsOf: url)
        let result = try TermDataProcess.run(["migrate", "--store", url.path, "--model", ModelFixtures.company.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("matches no version of the model"))
        #expect(try Data(contentsOf: url) == before)
    }
}

@Suite("termdata model on compiled models")
struct CompiledModelCommandTests {
    static let sampleMomd = Fixtures.corpusFile("coredataplus-samplemodel/SampleModel.momd")

    @Test("prints a real .momd as it prints its source, and a single .mom")
    func printsCompiled() throws {
        let compiled = try TermDataProcess.run(["model", Self.sampleMomd.path])
        #expect(compiled.status == 0, "\(compiled.stderr)")
        let source = try TermDataProcess.run(["model", ModelFixtures.sampleModel.path])
        #expect(compiled.stdout == source.stdout)
        let one = try TermDataProcess.run(["model", Self.sampleMomd.appendingPathComponent("SampleModel3.mom").path])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stdout.contains("Maker"))
        #expect(one.stdout.contains("LuxuryCar : SportCar"))
    }

    @Test("--write-xcdatamodeld recovers a source that reads back as the compiled model, and never overwrites")
    func writesSource() throws {
        let folder = try Fixtures.temporaryDirectory("recovered")
        let target = folder.appendingPathComponent("Recovered.xcdatamodeld")
        let result = try TermDataProcess.run(["model", Self.sampleMomd.path, "--write-xcdatamodeld", target.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("3 versions, current SampleModel"))
        let recovered = try XcodeModelFile.read(target)
        let compiled = try CompiledModelFile.read(Self.sampleMomd)
        #expect(recovered == compiled)
        let again = try TermDataProcess.run(["model", Self.sampleMomd.path, "--write-xcdatamodeld", target.path])
        #expect(again.status != 0)
        #expect(again.stderr.contains("already exists"))
    }

    /// A compiled model whose texts carry escape sequences and a control character XML cannot hold.
    private func hostileMom() throws -> URL {
        let model = try ManagedObjectModel(
            entities: [EntityDescription(name: "Note", attributes: [
                AttributeDescription(name: "title", type: .string, defaultValue: .string("\u{1B}]0;owned\u{7}\u{1B}[2J")),
            ])],
            fetchRequestTemplates: [FetchRequestTemplate(name: "all", entityName: "Note", predicateFormat: "title == '\u{1B}[31m'")])
        let url = try Fixtures.temporaryDirectory("hostile").appendingPathComponent("Hostile.mom")
        try CompiledModelEncoder.encode(model).write(to: url)
        return url
    }

    @Test("model prints a file's escape sequences as escapes, never raw to the terminal")
    func escapesControls() throws {
        let result = try TermDataProcess.run(["model", try hostileMom().path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("\u{1B}") && !result.stdout.contains("\u{7}"), "\(result.stdout.debugDescription)")
        #expect(result.stdout.contains(#"\u{1b}]0;owned\u{7}\u{1b}[2J"#), "\(result.stdout)")
    }

    @Test("--write-xcdatamodeld refuses a model XML cannot hold, naming the element, and leaves nothing behind")
    func unwritableSource() throws {
        let target = try Fixtures.temporaryDirectory("unwritable").appendingPathComponent("Out.xcdatamodeld")
        let result = try TermDataProcess.run(["model", try hostileMom().path, "--write-xcdatamodeld", target.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("<attribute name=\"title\">") && result.stderr.contains("U+001B, a control character an XML file cannot hold"),
                "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}"))
        #expect(!FileManager.default.fileExists(atPath: target.path), "nothing was written")
    }

    @Test("a broken .mom is refused naming the file and the byte")
    func broken() throws {
        let url = try Fixtures.temporaryDirectory("mom").appendingPathComponent("Cut.mom")
        let whole = try Data(contentsOf: Self.sampleMomd.appendingPathComponent("SampleModel.mom"))
        try whole.prefix(whole.count - 40).write(to: url)
        let result = try TermDataProcess.run(["model", url.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains(url.path))
        #expect(result.stderr.contains("byte"), "\(result.stderr)")
    }

    @Test("a store that caches its model needs no --model: model --store prints it, query reads with it, the file stays as it was")
    func cachedModel() throws {
        let store = try Fixtures.copyOfCorpusFile(ModelFixtures.sampleStoreV2)
        let before = try Data(contentsOf: store)
        let printed = try TermDataProcess.run(["model", "--store", store.path])
        #expect(printed.status == 0, "\(printed.stderr)")
        #expect(printed.stdout.contains("caches of itself (Z_MODELCACHE)"))
        #expect(printed.stdout.contains("LuxuryCar : SportCar"))
        // sqlite3: SELECT COUNT(*) FROM ZCAR WHERE Z_ENT = 3 gives 5; FROM ZPERSON gives 20.
        let luxury = try TermDataProcess.run(["query", "--store", store.path, "LuxuryCar", "--count"])
        #expect(luxury.status == 0, "\(luxury.stderr)")
        #expect(luxury.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "5")
        let people = try TermDataProcess.run(["query", "--store", store.path, "Person", "--count"])
        #expect(people.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "20")
        #expect(try Data(contentsOf: store) == before)
    }

    @Test("a cached model the tables contradict is not trusted: the model comes from the tables, the column is named, the store is only read")
    func contradictedCache() throws {
        let store = try Fixtures.copyOfCorpusFile(ModelFixtures.sampleStoreV2)
        // Another program turned the first names into numbers; Z_MODELCACHE still says text.
        let queue = try DatabaseQueue(path: store.path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: """
                DROP INDEX Z_Person_UNIQUE_firstName_lastName;
                ALTER TABLE ZPERSON RENAME COLUMN ZFIRSTNAME TO ZOLD;
                ALTER TABLE ZPERSON ADD COLUMN ZFIRSTNAME INTEGER;
                UPDATE ZPERSON SET ZFIRSTNAME = length(ZOLD);
                ALTER TABLE ZPERSON DROP COLUMN ZOLD;
                PRAGMA journal_mode = DELETE;
                """)
        }
        try queue.close()
        let printed = try TermDataProcess.run(["model", "--store", store.path])
        #expect(printed.status == 0, "\(printed.stderr)")
        #expect(printed.stdout.contains("inferred from its layout"), "\(printed.stdout)")
        #expect(printed.stdout.contains("caches of itself (Z_MODELCACHE) does not fit its tables"))
        #expect(printed.stdout.contains("ZPERSON.ZFIRSTNAME is declared INTEGER (numbers), where the model keeps text"), "\(printed.stdout)")
        #expect(printed.stderr.contains("warning: The model SampleModel_V2.sqlite caches of itself"), "\(printed.stderr)")
        let people = try TermDataProcess.run(["query", "--store", store.path, "Person", "--count"])
        #expect(people.stdout == "20\n", "\(people.stderr)")
        let graph = store.deletingLastPathComponent().appendingPathComponent("people.json")
        try Data(#"{"format": "termdata-graph", "version": 1, "entities": {"Person": [{"@id": "p", "firstname": 3}]}}"#.utf8).write(to: graph)
        let refused = try TermDataProcess.run(["import", "--store", store.path, graph.path])
        #expect(refused.status != 0 && refused.stderr.contains("--writable"), "\(refused.stderr)")
    }
}

@Suite("termdata on a store found without its model")
struct InferredModelCommandTests {
    /// SampleModel's version-1 store without its cached model, as older Core Data wrote them.
    private func storeWithoutCache() throws -> URL {
        let url = try Fixtures.copyOfCorpusFile(ModelFixtures.sampleStoreV1)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { try $0.execute(sql: "DROP TABLE Z_MODELCACHE") }
        try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = DELETE") }
        try queue.close()
        return url
    }

    @Test("model --store says the model is inferred and lists the guesses; query reads with it")
    func inferred() throws {
        let url = try storeWithoutCache()
        let printed = try TermDataProcess.run(["model", "--store", url.path])
        #expect(printed.status == 0, "\(printed.stderr)")
        #expect(printed.stdout.contains("inferred from its layout"))
        #expect(printed.stdout.contains("Car.owner: destination Person"))
        #expect(printed.stdout.contains("ExpensiveSportCar : SportCar"))
        let count = try TermDataProcess.run(["query", "--store", url.path, "Person", "cars.@count > 5", "--count"])
        #expect(count.status == 0, "\(count.stderr)")
        #expect(count.stdout == "1\n")
    }

    @Test("a model recovered from a store's layout and written out is a plain model file, not marked inferred")
    func recoveredIsPlain() throws {
        let url = try storeWithoutCache()
        let target = url.deletingLastPathComponent().appendingPathComponent("Recovered.xcdatamodeld")
        let result = try TermDataProcess.run(["model", "--store", url.path, "--write-xcdatamodeld", target.path])
        #expect(result.status == 0, "\(result.stderr)")
        let recovered = try XcodeModelFile.read(target).current
        #expect(recovered.entityNames.sorted() == ["Car", "ExpensiveSportCar", "Person", "SportCar"])
        #expect(!InferredModel.isInferred(recovered))
    }

    @Test("a store opened on an inferred model is read-only unless --writable")
    func readOnlyUnlessWritable() throws {
        let url = try storeWithoutCache()
        let graph = url.deletingLastPathComponent().appendingPathComponent("people.json")
        try Data(#"{"format": "termdata-graph", "version": 1, "entities": {"Person": [{"@id": "p", "firstName": "Ada", "lastName": "Byron", "updatedat": "2024-05-01T00:00:00Z"}]}}"#.utf8).write(to: graph)
        let refused = try TermDataProcess.run(["import", "--store", url.path, graph.path])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("inferred from its layout"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--writable"))
        let allowed = try TermDataProcess.run(["import", "--store", url.path, "--writable", graph.path])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        let count = try TermDataProcess.run(["query", "--store", url.path, "Person", "--count"])
        #expect(count.stdout == "21\n")
    }
}
