import Foundation
import Testing
import TestSupport
import GRDB
import ObjectGraph
import SQLiteStore

@Suite("termdata import, export and query")
struct StoreCommandTests {
    static let graph = """
    {"format": "termdata-graph", "version": 1, "entities": {
     "Category": [{"@id": "c1", "name": "Home", "todos": ["t1", "t2"]}, {"@id": "c2", "name": "Work"}],
     "ToDo": [{"@id": "t1", "name": "Buy milk", "dueDate": "2024-05-01T10:00:00Z", "category": "c1"},
              {"@id": "t2", "name": "Call mom", "completed": true, "category": "c1"},
              {"@id": "t3", "name": "book flights", "dueDate": "2024-06-01T08:30:00Z", "category": "c2"},
              {"@id": "t4", "name": "answer mail", "dueDate": null}]}}
    """

    /// A ToDo store in the default place, filled from the graph above.
    func importedToDo() throws -> CommandLineSession {
        let cli = try CommandLineSession()
        let path = try cli.write(Self.graph, to: "todo.json")
        let result = try cli.run(["import", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("imported 6 object(s)"))
        return cli
    }

    func json(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    @Test("import reads a graph file from a pipe, such as standard input, and writes it as rows or through a context")
    func importFromPipe() throws {
        let cli = try CommandLineSession()
        for (store, type) in [("Piped.sqlite", "sqlite"), ("Piped.xml", "xml")] {
            let result = try TermDataProcess.run(["import", "--store", store, "--model", "ToDo", "--type", type, "/dev/stdin"],
                                                 environment: ["XDG_DATA_HOME": cli.dataHome.path], input: Self.graph,
                                                 currentDirectory: cli.directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("imported 6 object(s)"))
            let count = try cli.run(["query", "--store", store, "--model", "ToDo", "--type", type, "ToDo", "category.name == 'Home'", "--count"])
            #expect(count.stdout == "2\n", "\(count.stderr)")
        }
    }

    @Test("--model ToDo names the bundled model, so a new ToDo store can be made anywhere")
    func bundledModelByName() throws {
        let cli = try CommandLineSession()
        let path = try cli.write(Self.graph, to: "todo.json")
        let refused = try cli.run(["import", "--store", "Elsewhere.sqlite", path])
        #expect(refused.status != 0 && refused.stderr.contains("--model ToDo names the bundled ToDo model"), "\(refused.stderr)")
        let result = try cli.run(["import", "--store", "Elsewhere.sqlite", "--model", "ToDo", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try cli.run(["query", "--store", "Elsewhere.sqlite", "ToDo", "--count"]).stdout == "4\n",
                "the store is then known as a ToDo store without --model")
    }

    @Test("import creates the default ToDo store with the bundled model; query reads it back")
    func importAndQuery() throws {
        let cli = try importedToDo()
        #expect(FileManager.default.fileExists(atPath: cli.dataHome.appendingPathComponent("termdata/ToDo.sqlite").path))
        let result = try cli.run(["query", "ToDo", "name BEGINSWITH[c] %@", "--arg", "\"b\"", "--sort", "name", "--format", "json", "--keys", "name,category.name"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try json(result.stdout)
        #expect(rows.map { $0["name"] as? String } == ["Buy milk", "book flights"])
        #expect(rows.map { $0["category.name"] as? String } == ["Home", "Work"])
        #expect(rows.allSatisfy { ($0["@id"] as? String)?.hasPrefix("x-coredata://") == true })
    }

    /// Runs `termdata` as a user the folder's permissions apply to: this one, or `nobody`
    /// when the tests run as root (whom permissions do not stop).
    static func runUnprivileged(_ arguments: [String], in cli: CommandLineSession) throws -> TermDataProcess.Result {
        guard getuid() == 0 else { return try cli.run(arguments) }
        return try TermDataProcess.run(["-u", "nobody", "--", "env", "XDG_DATA_HOME=\(cli.dataHome.path)",
                                        TermDataProcess.executable.path] + arguments,
                                       currentDirectory: cli.directory, executable: URL(fileURLWithPath: "/usr/sbin/runuser"))
    }

    /// Root can only check this as `nobody`, who must be able to run the built binary.
    static var canDropPrivileges: Bool {
        guard getuid() == 0 else { return true }
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") else { return false }
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
        check.arguments = ["-u", "nobody", "--", "test", "-x", TermDataProcess.executable.path, "-a", "-w", "/dev/null"]
        guard (try? check.run()) != nil else { return false }
        check.waitUntilExit()
        return check.terminationStatus == 0
    }

    @Test("a store, model or input file the user may not read is said to be so, not 'unable to open' or '--model is required'")
    func permissionDenied() throws {
        // Not skipped: as root, the check needs `nobody`, who must be able to run the binary.
        try #require(Self.canDropPrivileges, "the tests run as root and nobody cannot run the built binary")
        let cli = try importedToDo()
        for folder in [cli.directory, cli.dataHome, cli.dataHome.appendingPathComponent("termdata")] {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        }
        let store = cli.dataHome.appendingPathComponent("termdata/ToDo.sqlite")
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: store.path)
        for arguments in [["query", "--store", store.path, "ToDo", "--count"], ["query", "--store", store.path, "--model", "ToDo", "ToDo", "--count"]] {
            let result = try Self.runUnprivileged(arguments, in: cli)
            #expect(result.status != 0)
            #expect(result.stderr.contains("\(store.path): you may not read this file (permission denied: its mode is 000"), "\(result.stderr)")
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: store.path)
        let graph = try cli.write(#"{"format": "termdata-graph", "version": 1, "entities": {}}"#, to: "secret.json")
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: graph)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: cli.directory.path)
        let unchangeable = try Self.runUnprivileged(["import", "--store", store.path, "--model", "ToDo", graph], in: cli)
        #expect(unchangeable.stderr.contains("cannot read \(graph): you may not read it (permission denied)"), "\(unchangeable.stderr)")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: graph)
        let readOnly = try Self.runUnprivileged(["import", "--store", store.path, "--model", "ToDo", graph], in: cli)
        #expect(readOnly.stderr.contains("you may read this file but not change it (its mode is 444"), "\(readOnly.stderr)")
        #expect(readOnly.stderr.contains("open it read-only"))
    }

    @Test("query and export read a store in a folder they may not write to (no -shm can be made there)",
          .enabled(if: canDropPrivileges, "the tests run as root and nobody cannot run the built binary"))
    func readOnlyFolder() throws {
        let cli = try importedToDo()
        let shelf = cli.file("shelf")
        try FileManager.default.createDirectory(at: shelf, withIntermediateDirectories: true)
        let store = shelf.appendingPathComponent("ToDo.sqlite")
        try FileManager.default.copyItem(at: cli.dataHome.appendingPathComponent("termdata/ToDo.sqlite"), to: store)
        for folder in [cli.directory, cli.dataHome, cli.dataHome.appendingPathComponent("termdata")] {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: store.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: shelf.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: shelf.path) }
        let count = try Self.runUnprivileged(["query", "--store", store.path, "--model", ModelFixtures.toDo.path, "ToDo", "--count"], in: cli)
        #expect(count.status == 0, "\(count.stderr) \(count.stdout)")
        #expect(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "4")
        let export = try Self.runUnprivileged(["export", "--store", store.path, "--model", ModelFixtures.toDo.path], in: cli)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.contains("Buy milk"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: shelf.path) == ["ToDo.sqlite"], "nothing was written beside it")
    }

    @Test("--arg dates, --var variables, --count, --limit and --offset")
    func options() throws {
        let cli = try importedToDo()
        let before = try cli.run(["query", "ToDo", "dueDate < %@", "--arg", "{\"$date\": \"2024-05-15T00:00:00Z\"}", "--count"])
        #expect(before.stdout == "1\n")
        let variable = try cli.run(["query", "ToDo", "category.name == $CAT", "--var", "CAT=\"Home\"", "--count"])
        #expect(variable.stdout == "2\n")
        let window = try cli.run(["query", "ToDo", "--sort", "name:desc", "--limit", "2", "--offset", "1", "--format", "csv", "--keys", "name"])
        #expect(window.stdout.split(separator: "\n").map { String($0.split(separator: ",").last!) } == ["name", "answer mail", "Call mom"])
        // A negative JSON number is --arg's value, not another option.
        let negative = try cli.run(["query", "ToDo", "name == %@", "--arg", "-5", "--count"])
        #expect(negative.status == 0, "\(negative.stderr)")
        #expect(negative.stdout == "0\n")
    }

    @Test("store and memory evaluation print the same objects", arguments: [
        "name CONTAINS[cd] 'M'", "completed == YES OR dueDate == nil", "category.name == 'Home'", "NOT (name LIKE '*mail')",
    ])
    func evaluationPaths(_ predicate: String) throws {
        let cli = try importedToDo()
        let store = try cli.run(["query", "ToDo", predicate, "--sort", "name", "--format", "json"])
        let memory = try cli.run(["query", "ToDo", predicate, "--sort", "name", "--format", "json", "--evaluate", "memory"])
        #expect(store.status == 0 && memory.status == 0)
        #expect(store.stdout == memory.stdout)
        #expect(try json(store.stdout).count > 0)
    }

    @Test("the table format lines up columns and counts the objects")
    func table() throws {
        let cli = try importedToDo()
        let result = try cli.run(["query", "Category", "--sort", "name"])
        #expect(result.stdout == "name\n----\nHome\nWork\n(2 objects)\n")
    }

    @Test("the table keeps an empty first column in place, measures wide characters in cells, and keeps each object on one line")
    func tableAlignment() throws {
        let cli = try CommandLineSession()
        let path = try cli.write("""
        {"format": "termdata-graph", "version": 1, "entities": {
         "Category": [{"@id": "c1", "name": "日本語"}],
         "ToDo": [{"@id": "t1", "name": "two\\nlines", "category": "c1"}, {"@id": "t2", "name": "loose"}]}}
        """, to: "todo.json")
        #expect(try cli.run(["import", path]).status == 0)
        let result = try cli.run(["query", "ToDo", "--sort", "name:desc", "--keys", "category.name,name"])
        #expect(result.stdout == """
            category.name  name
            -------------  ----------
            日本語         two\\nlines
                           loose
            (2 objects)

            """)
    }

    @Test("decimals are written with all their digits and read back exactly; doubles stay as they were")
    func decimals() throws {
        let cli = try CommandLineSession()
        let model = TestSupport.ModelFixtures.allFeatures.path
        let path = try cli.write("""
        {"format": "termdata-graph", "version": 1, "entities": {"AllTypesOfAttributes": [
         {"@id": "a", "decimalAttribute": 12345678901234567890.123456789, "doubleAttribute": 0.1, "floatAttribute": 1e-7}]}}
        """, to: "decimal.json")
        let store = cli.file("all.xml").path
        let imported = try cli.run(["import", "--store", store, "--model", model, "--type", "xml", path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let first = try cli.run(["export", "--store", store, "--model", model, "--type", "xml"])
        #expect(first.stdout.contains("\"decimalAttribute\" : 12345678901234567890.123456789"), "\(first.stdout)")
        #expect(first.stdout.contains("\"doubleAttribute\" : 0.1"))
        let csv = try cli.run(["export", "--store", store, "--model", model, "--type", "xml", "--entity", "AllTypesOfAttributes", "--format", "csv"])
        #expect(csv.stdout.contains(",12345678901234567890.123456789,"), "\(csv.stdout)")
        let again = cli.file("again.binary").path
        #expect(try cli.run(["import", "--store", again, "--model", model, "--type", "binary", try cli.write(first.stdout, to: "first.json")]).status == 0)
        let second = try cli.run(["export", "--store", again, "--model", model, "--type", "binary"])
        #expect(second.stdout == first.stdout)
    }

    @Test("export --entity of an abstract entity writes its concrete sub-entities' objects")
    func abstractEntityExport() throws {
        let cli = try CommandLineSession()
        let model = TestSupport.ModelFixtures.allFeatures.path
        let path = try cli.write("""
        {"format": "termdata-graph", "version": 1, "entities": {"ConcreteEntity": [{"@id": "a"}, {"@id": "b"}]}}
        """, to: "concrete.json")
        let store = cli.file("all.xml").path
        #expect(try cli.run(["import", "--store", store, "--model", model, "--type", "xml", path]).status == 0)
        let json = try cli.run(["export", "--store", store, "--model", model, "--type", "xml", "--entity", "AbstractEntity"])
        #expect(json.stdout.contains("\"@id\" : \"ConcreteEntity/2\""), "\(json.stdout)")
        let csv = try cli.run(["export", "--store", store, "--model", model, "--type", "xml", "--entity", "AbstractEntity", "--format", "csv"])
        #expect(csv.stdout.split(separator: "\n").dropFirst() == ["ConcreteEntity/1", "ConcreteEntity/2"])
    }

    @Test("a ToDo store kept elsewhere needs no --model; nor does a store that caches its model")
    func toDoStoreElsewhere() throws {
        let cli = try CommandLineSession()
        let graph = try cli.write(Self.graph, to: "todo.json")
        let store = cli.file("Elsewhere.sqlite").path
        #expect(try cli.run(["import", "--store", store, "--model", TestSupport.ModelFixtures.toDo.path, graph]).status == 0)
        let count = try cli.run(["query", "--store", store, "ToDo", "--count"])
        #expect(count.stdout == "4\n", "\(count.stderr)")
        let corpus = cli.file("SampleModel_V1.sqlite")
        try FileManager.default.copyItem(at: TestSupport.ModelFixtures.sampleStoreV1, to: corpus)
        let other = try cli.run(["query", "--store", corpus.path, "Car", "--count"])
        #expect(other.status == 0, "\(other.stderr)")
        #expect(other.stdout == "125\n")
    }

    @Test("processes that import into one store at once all succeed, and every one's objects are kept",
          arguments: ["sqlite", "xml", "binary"])
    func concurrentImports(type: String) throws {
        let cli = try CommandLineSession()
        let writers = 4
        let files = try (0..<writers).map { writer in
            let items = (0..<3).map { #"{"@id": "t\#($0)", "name": "writer \#(writer) item \#($0)"}"# }
            return try cli.write(#"{"format": "termdata-graph", "version": 1, "entities": {"ToDo": [\#(items.joined(separator: ", "))]}}"#,
                                 to: "writer\(writer).json")
        }
        for round in 0..<3 {
            let store = cli.file("new-\(round).\(type)").path
            let results = LockedBox<[TermDataProcess.Result]>([])
            DispatchQueue.concurrentPerform(iterations: writers) { writer in
                if let result = try? cli.run(["import", "--store", store, "--model", "ToDo", files[writer]]) {
                    results.mutate { $0.append(result) }
                }
            }
            #expect(results.value.count == writers)
            for result in results.value {
                #expect(result.status == 0, "round \(round): \(result.stderr)")
            }
            let count = try cli.run(["query", "--store", store, "ToDo", "--count"])
            #expect(count.stdout == "\(writers * 3)\n", "round \(round): \(count.stdout)\(count.stderr)")
        }
    }

    @Test("export and query that cannot write their output exit non-zero and say why", arguments: ["export", "query", "csv"])
    func outputRefused(command: String) throws {
        let cli = try importedToDo()
        let arguments = switch command {
        case "export": ["export"]
        case "csv": ["export", "--entity", "ToDo", "--format", "csv"]
        default: ["query", "ToDo"]
        }
        let environment = ["XDG_DATA_HOME": cli.dataHome.path]
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let onFullDisk = try TermDataProcess.run(arguments, environment: environment, standardOutput: full)
        #expect(onFullDisk.status == 1)
        #expect(onFullDisk.stderr == "Error: could not write the output (No space left on device); what was written is incomplete\n",
                "\(onFullDisk.stderr)")
        // A pipe whose reader has gone, in a process that ignores SIGPIPE (as some parents leave it).
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let closed = try TermDataProcess.run(["-c", "trap '' PIPE; exec \"$0\" \"$@\"", TermDataProcess.executable.path] + arguments,
                                             environment: environment, executable: URL(fileURLWithPath: "/bin/sh"),
                                             standardOutput: pipe.fileHandleForWriting)
        #expect(closed.status == 1)
        #expect(closed.stderr.contains("could not write the output (Broken pipe)"), "\(closed.stderr)")
    }

    @Test("a model file whose attribute name holds SQL is refused at its line; no store and no attached database is made")
    func injectedName() throws {
        let cli = try CommandLineSession()
        let evil = cli.file("evil.db")
        let name = "x INTEGER); ATTACH DATABASE '\(evil.path)' AS evil; CREATE TABLE evil.t (a"
        let model = try TestSupport.ModelFixtures.writeModelFile(TestSupport.ModelFixtures.modelXML("""
            <entity name="Note">
                <attribute name="\(name)" optional="YES" attributeType="String"/>
            </entity>
            """), name: "Notes")
        let graph = try cli.write(#"{"format": "termdata-graph", "version": 1, "entities": {"Note": [{"@id": "n"}]}}"#, to: "notes.json")
        let store = cli.file("notes.sqlite")
        let result = try cli.run(["import", "--store", store.path, "--model", model.path, graph])
        #expect(result.status != 0)
        #expect(result.stderr.contains("contents:4: entity 'Note', property 'x INTEGER); ATTACH"), "\(result.stderr)")
        #expect(result.stderr.contains("is not an identifier"))
        #expect(!FileManager.default.fileExists(atPath: evil.path), "no database was attached")
        #expect(!FileManager.default.fileExists(atPath: store.path), "no store was made")
    }

    @Test("a FIFO, a device or a folder given as a store is refused at once, saying what it is",
          arguments: ["fifo", "device", "folder"])
    func notAFile(kind: String) throws {
        let cli = try CommandLineSession()
        let graph = try cli.write(Self.graph, to: "todo.json")
        let (path, what): (String, String)
        switch kind {
        case "fifo":
            path = cli.file("pipe.sqlite").path
            #expect(mkfifo(path, 0o644) == 0)
            what = "this is a FIFO (named pipe), not a store file"
        case "device": (path, what) = ("/dev/null", "this is a character device, not a store file")
        default: (path, what) = (cli.directory.path, "is a folder, not a store file")
        }
        for arguments in [["query", "--store", path, "--model", "ToDo", "ToDo"], ["import", "--store", path, "--model", "ToDo", graph],
                          ["export", "--store", path, "--model", "ToDo"], ["import", "--type", "xml", "--store", path, "--model", "ToDo", graph]] {
            // Under timeout(1) with SIGKILL (a blocked termdata does not end on SIGTERM), so that a
            // command that waits on the FIFO fails the test instead of hanging it.
            let result = try TermDataProcess.run(["-s", "KILL", "10", TermDataProcess.executable.path] + arguments,
                                                 environment: ["XDG_DATA_HOME": cli.dataHome.path],
                                                 executable: URL(fileURLWithPath: "/usr/bin/timeout"))
            #expect(result.status == 1, "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains(what), "\(arguments): \(result.stderr)")
            #expect(result.stderr.components(separatedBy: path).count == 2, "the path once: \(result.stderr)")
        }
    }

    @Test("export, import into a new store and export again give the same content")
    func roundTrip() throws {
        let cli = try importedToDo()
        let first = try cli.run(["export"])
        #expect(first.status == 0, "\(first.stderr)")
        let exported = try cli.write(first.stdout, to: "export.json")
        let model = TestSupport.ModelFixtures.toDo.path
        for type in ["sqlite", "xml", "binary"] {
            let store = cli.file("copy.\(type)").path
            let imported = try cli.run(["import", "--store", store, "--model", model, "--type", type, exported])
            #expect(imported.status == 0, "\(imported.stderr)")
            let second = try cli.run(["export", "--store", store, "--model", model, "--type", type])
            #expect(second.stdout == first.stdout, "\(type)")
        }
    }

    @Test("one entity's JSON export imports on its own: references to objects left out are dropped")
    func oneEntityImports() throws {
        let cli = try importedToDo()
        for entity in ["ToDo", "Category"] {
            let export = try cli.run(["export", "--entity", entity])
            #expect(export.status == 0, "\(export.stderr)")
            #expect(!export.stdout.contains(entity == "ToDo" ? "Category/" : "ToDo/"), "\(export.stdout)")
            let file = try cli.write(export.stdout, to: "\(entity).json")
            let store = cli.file("\(entity)-only.sqlite").path
            let result = try cli.run(["import", "--store", store, "--model", TestSupport.ModelFixtures.toDo.path, file])
            #expect(result.status == 0, "\(result.stderr)")
            let count = try cli.run(["query", "--store", store, "--model", TestSupport.ModelFixtures.toDo.path, entity, "--count"])
            #expect(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == (entity == "ToDo" ? "4" : "2"))
        }
    }

    @Test("CSV export of one entity")
    func csv() throws {
        let cli = try importedToDo()
        let result = try cli.run(["export", "--entity", "Category", "--format", "csv"])
        #expect(result.stdout == "@id,name\nCategory/1,Home\nCategory/2,Work\n")
    }

    @Test("CSV keeps no value and an empty string apart: an empty field and \"\"")
    func csvEmptyAndNil() throws {
        let cli = try CommandLineSession()
        let model = try TestSupport.ModelFixtures.writeModelFile(TestSupport.ModelFixtures.modelXML(
            #"<entity name="Label"><attribute name="name" optional="YES" attributeType="String"/></entity>"#), name: "Labels").path
        let path = try cli.write("""
        {"format": "termdata-graph", "version": 1, "entities": {"Label": [
         {"@id": "a", "name": ""}, {"@id": "b", "name": null}, {"@id": "c", "name": "say \\"hi\\", then go"}]}}
        """, to: "names.json")
        let store = cli.file("names.sqlite").path
        #expect(try cli.run(["import", "--store", store, "--model", model, path]).status == 0)
        let export = try cli.run(["export", "--store", store, "--model", model, "--entity", "Label", "--format", "csv"])
        #expect(export.stdout == "@id,name\nLabel/1,\"\"\nLabel/2,\nLabel/3,\"say \"\"hi\"\", then go\"\n")
        let query = try cli.run(["query", "--store", store, "--model", model, "Label", "--keys", "name", "--sort", "name", "--format", "csv"])
        let fields = query.stdout.split(separator: "\n").map { $0.drop { $0 != "," }.dropFirst() }
        #expect(fields == ["name", "", "\"\"", "\"say \"\"hi\"\", then go\""], "no value sorts first")
    }

    @Test("invalid input names each object's @id and writes nothing")
    func invalidImport() throws {
        let cli = try CommandLineSession()
        let bad = """
        {"format": "termdata-graph", "version": 1, "entities": {
         "ToDo": [{"@id": "t1", "name": 5}, {"@id": "t2", "colour": "red"}, {"@id": "t3", "category": "nowhere"},
                  {"@id": "t4", "dueDte": "2024-05-01"}],
         "Gadget": [{"@id": "g1"}]}}
        """
        let stderr = try cli.refusedImport(bad)
        #expect(stderr.contains("ToDo t1: 'name': expects String, got a number"))
        #expect(stderr.contains("ToDo t2: unknown key 'colour'"))
        #expect(stderr.contains("ToDo t3: 'category' refers to 'nowhere', which the file does not define"))
        #expect(stderr.contains("ToDo t4: unknown key 'dueDte' (did you mean 'dueDate'?)"))
        #expect(stderr.contains("unknown entity 'Gadget' (the model has Category, ToDo)"))
        #expect(!FileManager.default.fileExists(atPath: cli.dataHome.appendingPathComponent("termdata/ToDo.sqlite").path))
    }

    @Test("a decimal with more significant digits than a Decimal keeps is refused, not cut; one that fits comes back exactly")
    func longDecimals() throws {
        let cli = try CommandLineSession()
        let model = TestSupport.ModelFixtures.allFeatures.path
        let store = cli.file("d.xml").path
        let long = try cli.write("""
        {"format": "termdata-graph", "version": 1, "entities": {"AllTypesOfAttributes": [
          {"@id": "a", "decimalAttribute": "123456789012345678901234567890123456789012"}]}}
        """, to: "long.json")
        let refused = try cli.run(["import", "--store", store, "--type", "xml", "--model", model, long])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("AllTypesOfAttributes a: 'decimalAttribute': 42 significant digits are more than a Decimal keeps (38)"),
                "\(refused.stderr)")
        let fits = try cli.write("""
        {"format": "termdata-graph", "version": 1, "entities": {"AllTypesOfAttributes": [
          {"@id": "b", "decimalAttribute": "1000000000000000000000000000000000000000000"},
          {"@id": "c", "decimalAttribute": "12345678901234567890.123456789"}]}}
        """, to: "fits.json")
        #expect(try cli.run(["import", "--store", store, "--type", "xml", "--model", model, fits]).status == 0)
        let export = try cli.run(["export", "--store", store, "--type", "xml", "--model", model])
        #expect(export.stdout.contains("1000000000000000000000000000000000000000000"))
        #expect(export.stdout.contains("12345678901234567890.123456789"))
    }

    @Test("a transformable value that is a number or a blob round-trips on every store type", arguments: ["sqlite", "xml", "binary"])
    func transformableRoundTrip(type: String) throws {
        let cli = try CommandLineSession()
        let model = TestSupport.ModelFixtures.allFeatures.path
        let store = cli.file("t.\(type)").path
        let file = try cli.write("""
        {"format": "termdata-graph", "version": 1, "entities": {"AllTypesOfAttributes": [
          {"@id": "a", "transformableAttribute": 42}, {"@id": "b", "transformableAttribute": "dGV4dA=="}]}}
        """, to: "t.json")
        let result = try cli.run(["import", "--store", store, "--type", type, "--model", model, file])
        #expect(result.status == 0, "\(result.stderr)")
        let export = try cli.run(["export", "--store", store, "--type", type, "--model", model, "--entity", "AllTypesOfAttributes"])
        #expect(export.stdout.contains("\"transformableAttribute\" : 42"), "\(export.stdout)")
        #expect(export.stdout.contains("\"transformableAttribute\" : \"dGV4dA==\""))
    }

    @Test("a file that is not valid JSON is named, with where and what is wrong", arguments: [
        (#"{"format": "termdata-graph", "version": 1, "entities": {"ToDo": ["#, "not valid JSON: at 1:66: expected a value, found the end of the text"),
        (#"{"a": 1e400}"#, "not valid JSON: at 1:7: the number 1e400 is out of range"),
        ("[1]", "the file is not a JSON object"),
    ])
    func notJSON(_ text: String, _ message: String) throws {
        let cli = try CommandLineSession()
        let file = try cli.write(text, to: "broken.json")
        let result = try cli.run(["import", file])
        #expect(result.status != 0)
        #expect(result.stderr.contains("\(file): \(message)"), "\(result.stderr)")
    }

    @Test("a relationship given on both sides that disagree is reported, and nothing is imported")
    func contradictorySides() throws {
        let cli = try CommandLineSession()
        let stderr = try cli.refusedImport("""
        {"format": "termdata-graph", "version": 1, "entities": {
         "Category": [{"@id": "D8", "name": "Home"}, {"@id": "D9", "name": "Work", "todos": ["E9"]}],
         "ToDo": [{"@id": "E9", "name": "Call", "category": "D8"}, {"@id": "E10", "name": "Mail", "category": "D9"}]}}
        """)
        #expect(stderr.contains("Category D9: 'todos' holds 'E9', whose 'category' is 'D8'"), "\(stderr)")
        #expect(stderr.contains("ToDo E10: 'category' holds 'D9', whose 'todos' holds only 'E9'"), "\(stderr)")
        #expect(!stderr.contains("D8:"), "D8 does not give its side")
        #expect(!FileManager.default.fileExists(atPath: cli.dataHome.appendingPathComponent("termdata/ToDo.sqlite").path))
    }

    @Test("an existing store's type comes from its contents, whatever its name; a new store's from its extension")
    func typeFromContents() throws {
        let cli = try importedToDo()
        let original = cli.dataHome.appendingPathComponent("termdata/ToDo.sqlite")
        let xml = cli.file("todo.xml").path
        let export = try cli.write(try cli.run(["export"]).stdout, to: "all.json")
        #expect(try cli.run(["import", "--store", xml, "--model", TestSupport.ModelFixtures.toDo.path, export]).status == 0)
        // The XML store under a SQLite name, and the SQLite store under an XML name.
        try FileManager.default.copyItem(atPath: xml, toPath: cli.file("disguised.sqlite").path)
        try FileManager.default.copyItem(at: original, to: cli.file("disguised.xml"))
        for name in ["disguised.sqlite", "disguised.xml"] {
            let count = try cli.run(["query", "--store", cli.file(name).path, "--model", TestSupport.ModelFixtures.toDo.path, "ToDo", "--count"])
            #expect(count.status == 0, "\(name): \(count.stderr)")
            #expect(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "4", "\(name)")
        }
    }

    @Test("the example in import --help imports as it stands")
    func helpExample() throws {
        let cli = try CommandLineSession()
        let help = try cli.run(["import", "--help"]).stdout
        let start = try #require(help.range(of: "{\"format\""))
        let end = try #require(help.range(of: "}}\n", range: start.lowerBound..<help.endIndex))
        let file = try cli.write(String(help[start.lowerBound..<end.upperBound]), to: "example.json")
        let result = try cli.run(["import", file])
        #expect(result.status == 0, "\(result.stderr)")
        let query = try cli.run(["query", "ToDo", "category.name == 'Home'", "--count"])
        #expect(query.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    }

    @Test("a value that does not fit its attribute says what is wrong with it")
    func valueProblems() throws {
        let cli = try CommandLineSession()
        let stderr = try cli.refusedImport("""
        {"format": "termdata-graph", "version": 1, "entities": {"AllTypesOfAttributes": [
          {"@id": "a", "integer32Attribute": 3000000000, "integer16Attribute": 1.5, "dateAttribute": "yesterday",
           "binaryAttribute": "not base64!"}]}}
        """, arguments: ["--store", cli.file("v.sqlite").path, "--model", TestSupport.ModelFixtures.allFeatures.path])
        for problem in ["'integer32Attribute': 3000000000 is out of range for Integer 32 (-2147483648…2147483647)",
                        "'integer16Attribute': 1.5 is not a whole number, which Integer 16 needs",
                        "'dateAttribute': \"yesterday\" is not an ISO-8601 date",
                        "'binaryAttribute': this string is not base64, which Binary needs"] {
            #expect(stderr.contains(problem), "\(problem)\n\(stderr)")
        }
    }

    @Test("dates read in each ISO-8601 form, to the millisecond, and export in UTC")
    func dateForms() throws {
        let cli = try CommandLineSession()
        let file = try cli.write("""
        {"format": "termdata-graph", "version": 1, "entities": {"ToDo": [
          {"@id": "a", "name": "utc", "dueDate": "2024-05-01T10:00:00Z"},
          {"@id": "b", "name": "offset", "dueDate": "2024-05-01T12:00:00+02:00"},
          {"@id": "c", "name": "milliseconds", "dueDate": "2024-05-01T10:00:00.123Z"},
          {"@id": "d", "name": "day", "dueDate": "2024-05-01"},
          {"@id": "e", "name": "space and minutes", "dueDate": "2024-05-01 10:30z"}]}}
        """, to: "dates.json")
        let imported = try cli.run(["import", file])
        #expect(imported.status == 0, "\(imported.stderr)")
        let exported = try json(try cli.run(["query", "ToDo", "--keys", "name,dueDate", "--sort", "name", "--format", "json"]).stdout)
        #expect(exported.map { "\($0["name"]!) \($0["dueDate"]!)" } == [
            "day 2024-05-01T00:00:00Z", "milliseconds 2024-05-01T10:00:00.123Z",
            "offset 2024-05-01T10:00:00Z", "space and minutes 2024-05-01T10:30:00Z", "utc 2024-05-01T10:00:00Z"])
        // Stored as the millisecond itself, so that a date typed the same way elsewhere is equal.
        let store = cli.dataHome.appendingPathComponent("termdata/ToDo.sqlite")
        let stored = try DatabaseQueue(path: store.path).read {
            try Double.fetchOne($0, sql: "SELECT ZDUEDATE FROM ZTODO WHERE ZNAME = 'milliseconds'")
        }
        #expect(stored == Date(timeIntervalSince1970: 1_714_557_600.123).timeIntervalSinceReferenceDate)
    }

    @Test("a date that is more or less than an ISO-8601 date is refused, not read as midnight", arguments: [
        "2024-05-01T10:00:00", "2024-05-01T10:00", "2024-05-01x", "2024-05-01T10:00:00Zjunk", "01/05/2024", "2024-05-01T1"])
    func malformedDate(_ text: String) throws {
        let cli = try CommandLineSession()
        let stderr = try cli.refusedImport(#"{"format": "termdata-graph", "version": 1, "entities": {"ToDo": [{"@id": "a", "name": "x", "dueDate": "\#(text)"}]}}"#)
        #expect(stderr.contains("'dueDate': \"\(text)\" is not an ISO-8601 date"), "\(stderr)")
    }

    @Test("an impossible date is refused by import and by --arg, saying which field, not rolled over", arguments: [
        ("2023-02-30", "February 2023 has 28 days"), ("2024-13-01", "there is no month 13"), ("2023-03-01T25:61:61Z", "there is no hour 25"),
    ])
    func impossibleDate(_ text: String, _ reason: String) throws {
        let cli = try CommandLineSession()
        let stderr = try cli.refusedImport(#"{"format": "termdata-graph", "version": 1, "entities": {"ToDo": [{"@id": "a", "name": "x", "dueDate": "\#(text)"}]}}"#)
        #expect(stderr.contains("ToDo a: 'dueDate': \"\(text)\" is not a date: \(reason)"), "\(stderr)")
        let empty = try cli.run(["import", "--model", "ToDo", try cli.write(#"{"format": "termdata-graph", "version": 1, "entities": {}}"#, to: "empty.json")])
        #expect(empty.status == 0 && empty.stdout.contains("imported 0 object(s)"), "\(empty.stderr)")
        let query = try cli.run(["query", "ToDo", "dueDate < %@", "--arg", "{\"$date\": \"\(text)\"}"])
        #expect(query.status != 0)
        #expect(query.stderr.contains("not a date: \(text) (\(reason))"), "\(query.stderr)")
    }

    @Test("a relationship whose inverse does not name it back is checked by its values alone")
    func oneSidedInverse() throws {
        let cli = try CommandLineSession()
        let model = cli.file("Pets.xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Owner" representedClassName="Owner" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="pets" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Pet" inverseName="owner" inverseEntity="Pet"/>
            </entity>
            <entity name="Pet" representedClassName="Pet" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner"/>
            </entity>
        </model>
        """.write(to: model.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let file = try cli.write(#"{"format": "termdata-graph", "version": 1, "entities": {"Owner": [{"@id": "o", "name": "Ann", "pets": ["p"]}], "Pet": [{"@id": "p", "name": "Rex", "owner": "o"}]}}"#,
                                 to: "pets.json")
        let result = try cli.run(["import", "--store", cli.file("pets.sqlite").path, "--model", model.path, file])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("imported 2 object(s)"))
    }

    @Test("a file with thousands of problems lists the first twenty and counts the rest")
    func manyProblems() throws {
        let cli = try CommandLineSession()
        let items = (1...1_000).map { #"{"@id": "t\#($0)", "name": "item", "category": "missing"}"# }
        let stderr = try cli.refusedImport(#"{"format": "termdata-graph", "version": 1, "entities": {"ToDo": ["#
                                           + items.joined(separator: ",") + "]}}")
        let listed = stderr.split(separator: "\n").filter { $0.contains("which the file does not define") }
        #expect(listed.count == 20, "\(stderr)")
        #expect(stderr.contains("  … and 980 more (1000 problems in all)"), "\(stderr)")
    }

    @Test("a save the model refuses writes nothing and leaves no new store behind")
    func refusedSave() throws {
        let cli = try CommandLineSession()
        let empty = """
        {"format": "termdata-graph", "version": 1, "entities": {"Category": [{"@id": "c1", "name": ""}]}}
        """
        let stderr = try cli.refusedImport(empty)
        #expect(stderr.contains("nothing imported"))
        // The object is named by the file's @id, not by an ID the store never kept.
        #expect(stderr.contains("  Category c1: name "), "\(stderr)")
        #expect(!stderr.contains("x-coredata") && !stderr.contains("new Category"))
        #expect(!FileManager.default.fileExists(atPath: cli.dataHome.appendingPathComponent("termdata/ToDo.sqlite").path))
    }

    @Test("mistakes print one clear message and exit non-zero", arguments: [
        (["query", "ToDo", "name =="], "invalid predicate: expected"),
        // The caret is measured in terminal cells: each CJK character takes two.
        (["query", "ToDo", "名前 =="], "at 1:6\n  名前 ==\n         ^\n"),
        (["query", "Nope"], "unknown entity 'Nope'"),
        (["query", "ToDo", "--keys", "name,colour"], "entity ToDo has no key 'colour'"),
        (["query", "ToDo", "colour == 1"], "entity ToDo has no key 'colour' (its keys: "),
        // A key close to one the entity has is named, in SQL, in memory, and in --sort and --keys.
        (["query", "ToDo", "nmae == 'x'"], "entity ToDo has no key 'nmae' (did you mean 'name'?)"),
        (["query", "ToDo", "category.Name == 'x'", "--evaluate", "memory"], "entity Category has no key 'Name' (did you mean 'name'?)"),
        (["query", "ToDo", "--sort", "dueDat:desc"], "entity ToDo has no key 'dueDat' (did you mean 'dueDate'?)"),
        (["query", "ToDo", "--keys", "name,category.nme"], "no key 'nme' (in 'category.nme') (did you mean 'name'?)"),
        (["query", "--store", "missing.sqlite", "--model", TestSupport.ModelFixtures.toDo.path, "ToDo"], "no store at"),
        (["query", "--store", "x.sqlite", "ToDo"], "--model is required"),
        (["query", "ToDo", "colour == 1", "--evaluate", "memory"], "Error: entity ToDo has no key 'colour'"),
        (["query", "ToDo", "name == $X"], "Error: invalid predicate: no value for variable $X"),
        (["query", "ToDo", "name MATCHES '(['"], "Error: MATCHES pattern \"([\" is not a valid regular expression\n"),
        (["query", "ToDo", "name MATCHES '(['", "--evaluate", "memory"], "Error: MATCHES pattern \"([\" is not a valid regular expression\n"),
        (["query", "ToDo", "--keys", ""], "--keys names no key"),
        (["query", "ToDo", "--limit", "0"], "--limit must be at least 1 (leave it out for no limit)"),
        (["query", "ToDo", "--limit=-2"], "--limit must be at least 1"),
        (["query", "ToDo", "--limit", "-1"], "--limit must be at least 1"),
        (["query", "ToDo", "--offset", "-3"], "--offset must not be negative"),
        (["query", "ToDo", "name == $X", "--var", "=1"], "the variable has no name"),
        (["query", "ToDo", "--keys", "name,,dueDate"], "--keys has an empty key"),
        (["query", "ToDo", "dueDate < %@", "--arg", "{\"$date\": 0}"], "takes an ISO-8601 string"),
        (["query", "ToDo", "dueDate < %@", "--arg", "{\"$Date\": \"2024-05-01\"}"], "unknown tag $Date"),
        (["query", "ToDo", "dueDate < %@", "--arg", "{\"$date\": \"2024-05-01\", \"x\": 1}"], "stands alone"),
        (["query", "ToDo", "name == %@", "--arg", "\"a\"", "--arg", "\"b\""], "--arg 2 is not used"),
        (["query", "ToDo", "%K == 1", "--arg", "name"], "--arg 1 is not valid JSON: name (a string takes JSON quotes: '\"name\"')"),
        (["query", "--store", ".", "--model", TestSupport.ModelFixtures.toDo.path, "ToDo"], "is a folder, not a store file"),
    ])
    func mistakes(_ arguments: [String], _ message: String) throws {
        let cli = try importedToDo()
        let result = try cli.run(arguments)
        #expect(result.status != 0)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
        #expect(!result.stderr.contains("error: "), "no second prefix")
        #expect(!result.stderr.contains("SELECT"), "no SQL in the message")
        #expect(result.stdout.isEmpty)
    }

    /// A new SQLite store of the company model in the session's folder, and a stack on it.
    func companyStore(in cli: CommandLineSession) throws -> (url: URL, stack: TestStack) {
        let url = cli.file("company.sqlite")
        SQLiteStore.register()
        return (url, try TestStack(model: try ModelFixtures.companyModel(), type: .sqlite, url: url))
    }

    @Test("export names a reference to a row that is not in the store, writes it as null, and the file still imports")
    func exportDanglingReference() throws {
        // Ann's note keeps pointing at her after she is deleted: Employee.notes is No Action.
        let cli = try CommandLineSession()
        let (store, stack) = try companyStore(in: cli)
        let ann = try stack.context.insertObject(forEntityName: "Employee")
        ann["name"] = "Ann"
        let note = try stack.context.insertObject(forEntityName: "Note")
        note["text"] = "call back"
        try note.setValue(ann, forKey: "author")
        try stack.context.save()
        stack.context.delete(ann)
        try stack.context.save()

        let model = ModelFixtures.company.path
        let json = try cli.run(["export", "--store", store.path, "--model", model])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stderr == "warning: Note/1: author refers to the Employee with primary key 1, which is not in the store; written as null\n")
        #expect(json.stdout.contains("\"author\" : null"), "\(json.stdout)")
        let csv = try cli.run(["export", "--store", store.path, "--model", model, "--entity", "Note", "--format", "csv"])
        #expect(csv.stderr.contains("Note/1: author refers to the Employee with primary key 1"))
        #expect(csv.stdout.hasPrefix("@id,text,author\nNote/1,call back,\n"), "\(csv.stdout)")

        let file = try cli.write(json.stdout, to: "company.json")
        let copy = try cli.run(["import", "--store", cli.file("copy.sqlite").path, "--model", model, file])
        #expect(copy.status == 0, "\(copy.stderr)")
    }

    @Test("values another program put in a store: far dates export as seconds and import back; what no file can hold is named and written as null")
    func valuesFromAnotherWriter() throws {
        let cli = try CommandLineSession()
        let (store, stack) = try companyStore(in: cli)
        for name in ["far", "text", "infinite", "past9999"] {
            let employee = try stack.context.insertObject(forEntityName: "Employee")
            employee["name"] = .string(name)
        }
        try stack.context.save()
        // Employee.hired is a Date (at least 2001-01-01, the model says).
        try DatabaseQueue(path: store.path).write { db in
            try db.execute(sql: "UPDATE ZEMPLOYEE SET ZHIRED = 1e300 WHERE ZNAME = 'far'")
            try db.execute(sql: "UPDATE ZEMPLOYEE SET ZHIRED = 'next week' WHERE ZNAME = 'text'")
            try db.execute(sql: "UPDATE ZEMPLOYEE SET ZHIRED = 9e999 WHERE ZNAME = 'infinite'")
            try db.execute(sql: "UPDATE ZEMPLOYEE SET ZHIRED = 400000000000 WHERE ZNAME = 'past9999'")
        }
        let model = ModelFixtures.company.path
        let json = try cli.run(["export", "--store", store.path, "--model", model])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stderr.contains("'hired' holds the text “next week”, which is no Date; written as null"), "\(json.stderr)")
        #expect(json.stderr.contains("'hired' holds a date of inf seconds, which no file can hold; written as null"), "\(json.stderr)")
        #expect(json.stderr.components(separatedBy: "warning:").count == 3, "two warnings: \(json.stderr)")
        #expect(json.stdout.contains("\"hired\" : 1e+300") && json.stdout.contains("\"hired\" : 400000000000"), "\(json.stdout)")
        let file = try cli.write(json.stdout, to: "company.json")
        let copy = cli.file("copy.sqlite").path
        let imported = try cli.run(["import", "--store", copy, "--model", model, file])
        #expect(imported.status == 0, "what export writes, import reads: \(imported.stderr)")
        let again = try cli.run(["export", "--store", copy, "--model", model])
        #expect(again.stdout == json.stdout, "the far dates came back exactly")
    }

    @Test("an integer column another program gave a REAL no integer holds is read as that number, not trapped on; export names it")
    func realInIntegerColumn() throws {
        let cli = try CommandLineSession()
        let (store, stack) = try companyStore(in: cli)
        try stack.context.insertObject(forEntityName: "Employee")["name"] = "Ann"
        try stack.context.save()
        try DatabaseQueue(path: store.path).write { try $0.execute(sql: "UPDATE ZEMPLOYEE SET ZSALARY = 1e300") }
        let model = ModelFixtures.company.path
        let query = try cli.run(["query", "--store", store.path, "--model", model, "Employee", "--keys", "name,salary"])
        #expect(query.status == 0 && query.stdout.contains("1e+300"), "\(query.stderr)\(query.stdout)")
        let json = try cli.run(["export", "--store", store.path, "--model", model])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stderr.contains("Employee/1: 'salary' holds the number 1e+300, which is no Integer 32; written as null, and import refuses the file until Employee/1 has a salary"),
                "\(json.stderr)")
    }

    @Test("a required reference to a missing row is exported as null with a warning that import will refuse it")
    func exportDanglingRequiredReference() throws {
        let cli = try CommandLineSession()
        let store: URL
        do {
            let stack: TestStack
            (store, stack) = try companyStore(in: cli)
            let sales = try stack.context.insertObject(forEntityName: "Department")
            sales["name"] = "Sales"
            let project = try stack.context.insertObject(forEntityName: "Project")
            project["name"] = "Launch"
            try project.setValue(sales, forKey: "department")
            try stack.context.save()
        }
        // Another program removes the department, which the model's Deny rule would refuse.
        try DatabaseQueue(path: store.path).write { try $0.execute(sql: "DELETE FROM ZDEPARTMENT") }

        let model = ModelFixtures.company.path
        let json = try cli.run(["export", "--store", store.path, "--model", model])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stderr == "warning: Project/1: department refers to the Department with primary key 1, which is not in the store; "
                + "written as null, which the model does not allow: import refuses the file until Project/1 has a department\n")
        let csv = try cli.run(["export", "--store", store.path, "--model", model, "--entity", "Project", "--format", "csv"])
        #expect(csv.stderr.hasSuffix("written as null, which the model does not allow\n"), "CSV is not imported: \(csv.stderr)")
        let file = try cli.write(json.stdout, to: "company.json")
        let copy = try cli.run(["import", "--store", cli.file("copy.sqlite").path, "--model", model, file])
        #expect(copy.status != 0)
        #expect(copy.stderr.contains("Project/1"), "\(copy.stderr)")
    }

    @Test("a limit or offset no query could take is a usage mistake, with the status of one the parser refuses", arguments: [
        ["--limit", "-1"], ["--limit", "0"], ["--offset", "-1"], ["--limit", "x"],
    ])
    func usageMistakes(_ options: [String]) throws {
        let cli = try importedToDo()
        let result = try cli.run(["query", "ToDo"] + options)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("Usage: termdata query"))
    }

    @Test("the table of an entity without attributes lists its objects by ID")
    func tableWithoutAttributes() throws {
        let cli = try CommandLineSession()
        let model = TestSupport.ModelFixtures.allFeatures.path
        let file = try cli.write(#"{"format": "termdata-graph", "version": 1, "entities": {"NewInVersion2": [{"@id": "a"}, {"@id": "b"}]}}"#,
                                 to: "two.json")
        let store = cli.file("all.sqlite").path
        #expect(try cli.run(["import", "--store", store, "--model", model, file]).status == 0)
        let result = try cli.run(["query", "--store", store, "--model", model, "NewInVersion2"])
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "@id", "\(result.stdout)")
        #expect(lines.dropFirst(2).prefix(2).allSatisfy { $0.hasPrefix("x-coredata://") && $0.contains("/NewInVersion2/p") }, "\(result.stdout)")
        #expect(lines.contains("(2 objects)"))
    }

    @Test("a store of another model is refused, naming both sides' entities")
    func wrongModel() throws {
        let cli = try importedToDo()
        let store = cli.dataHome.appendingPathComponent("termdata/ToDo.sqlite").path
        let result = try cli.run(["query", "--store", store, "--model", TestSupport.ModelFixtures.sampleModel.path, "Car"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("was written with another model: it holds Category, ToDo, and the model given has Car"), "\(result.stderr)")
    }

    @Test("query and export leave an Apple-written WAL-mode store byte for byte, with no file made beside it")
    func corpus() throws {
        let cli = try CommandLineSession()
        let folder = try Fixtures.temporaryDirectory("corpus")
        let copy = folder.appendingPathComponent("SampleModel_V1.sqlite")
        try FileManager.default.copyItem(at: TestSupport.ModelFixtures.sampleStoreV1, to: copy)
        let before = try Data(contentsOf: copy)
        let model = TestSupport.ModelFixtures.sampleModel.path
        let result = try cli.run(["query", "--store", copy.path, "--model", model,
                                  "Car", "owner.lastName == %@", "--arg", "\"Pyke\"", "--count"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "3\n", "\(result.stdout)")
        let export = try cli.run(["export", "--store", copy.path, "--model", model])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.contains("\"Theodora\""))
        #expect(try Data(contentsOf: copy) == before, "query and export leave the file as it was (no switch to WAL)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files == ["SampleModel_V1.sqlite"], "no -wal, -shm or -journal file is left beside the store")
    }
}
