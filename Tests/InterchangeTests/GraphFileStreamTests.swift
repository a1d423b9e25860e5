import Foundation
import Testing
import Interchange
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

@Suite("Graph files read as a stream and written as rows")
struct GraphFileStreamTests {
    /// A Company graph that gives each relationship one way or another: a required to-one to
    /// an object later in the file, a one-to-many only from its to-many side, a one-to-one
    /// only from one side, a many-to-many from one side.
    static let company = """
        "Project": [{"@id": "p1", "name": "Roof", "department": "d1", "members": ["e1", "e2"]},
                    {"@id": "p2", "name": "Cellar", "department": "d2"}],
        "Department": [{"@id": "d1", "name": "Building", "budget": 12.5, "employees": ["e1", "e2"]},
                       {"@id": "d2", "name": "Garden", "employees": ["e3"]}],
        "Employee": [{"@id": "e1", "name": "Ada", "salary": 100, "hired": "2020-05-01T09:30:00Z"},
                     {"@id": "e2", "name": "Bob", "projects": ["p1", "p2"]},
                     {"@id": "e3", "name": "Cy"}],
        "Badge": [{"@id": "b1", "code": "AB123", "holder": "e2"}],
        "Note": [{"@id": "n1", "text": "first", "author": "e1"}, {"@id": "n2", "author": "e1"}]
        """

    static func write(_ entities: String, in folder: URL, name: String = "graph.json") throws -> String {
        let url = folder.appendingPathComponent(name)
        try GraphFileTests.graph(entities).write(to: url)
        return url.path
    }

    static func sqliteStack(_ model: ManagedObjectModel, _ folder: URL, _ name: String) throws -> TestStack {
        SQLiteStore.register()
        return try TestStack(model: model, type: .sqlite, url: folder.appendingPathComponent(name))
    }

    static func exported(_ stack: TestStack) throws -> String {
        try JSONValue.text(GraphFile.export(from: stack.newContext()).json)
    }

    @Test("objects written as rows read back as the objects a context's import saves, every relationship with them")
    func sameAsContext() throws {
        let model = try ModelFixtures.companyModel()
        let folder = try Fixtures.temporaryDirectory("graph-stream")
        let path = try Self.write(Self.company, in: folder)

        let stream = try GraphFileStream(path: path)
        try stream.check(against: model)
        #expect(stream.writesAsRows)
        let rows = try Self.sqliteStack(model, folder, "Rows.sqlite")
        #expect(try stream.importObjects(into: rows.coordinator, partSize: 3) == 10)

        let objects = try Self.sqliteStack(model, folder, "Objects.sqlite")
        try GraphFile(data: Data(contentsOf: URL(fileURLWithPath: path))).importObjects(into: objects.context)
        #expect(try Self.exported(rows) == Self.exported(objects))

        // And as a reader sees them: the sides the file did not give are there too.
        let context = rows.newContext()
        let cy = try #require(context.fetch(FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: "name == 'Cy'"))).first)
        #expect(cy.object("department")?["name"] == "Garden")
        let bob = try #require(context.fetch(FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: "name == 'Bob'"))).first)
        #expect(bob.object("badge")?["code"] == "AB123")
        #expect(try bob.objectIDs(forRelationshipNamed: "projects").count == 2)
        let roof = try #require(context.fetch(FetchRequest(entityName: "Project", predicate: try ObjectPredicate(format: "name == 'Roof'"))).first)
        #expect(try roof.objectIDs(forRelationshipNamed: "members").count == 2)
        #expect(try context.count(for: FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: "salary == 0"))) == 2,
                "an absent attribute takes the model's default")
    }

    @Test("the check finds what the whole file's check finds, and the model's rules, naming each object; nothing is written")
    func problems() throws {
        let model = try ModelFixtures.companyModel()
        let folder = try Fixtures.temporaryDirectory("graph-stream")
        let path = try Self.write("""
            "Project": [{"@id": "p1", "name": "Roof", "members": ["e1", "e2", "e3", "e4"], "departmnet": "d1"},
                        {"@id": "p2", "name": "Cellar", "department": "d9"}],
            "Department": [{"@id": "d1", "name": "Building", "employees": ["e1"]}],
            "Employee": [{"@id": "e1", "name": "Ada", "salary": 2000000, "department": "d2"},
                         {"@id": "e2", "name": "Bob"}, {"@id": "e3", "name": "Cy"}, {"@id": "e4"}],
            "Badge": [{"@id": "b1", "code": "ab1"}]
            """, in: folder)
        let stream = try GraphFileStream(path: path)
        let error = try #require(throws: GraphImportError.self) { try stream.check(against: model) }
        let found = error.problems.map(\.description)
        // What the file's structure gets wrong, as the whole file's check says it.
        let whole = try GraphFile(data: Data(contentsOf: URL(fileURLWithPath: path))).problems(for: model).map(\.description)
        #expect(!whole.isEmpty)
        for problem in whole { #expect(found.contains(problem)) }
        #expect(found.contains("Project p1: unknown key 'departmnet' (did you mean 'department'?)"))
        #expect(found.contains("Project p2: 'department' refers to 'd9', which the file does not define"), "a reference forward, then missing")
        #expect(found.contains("Employee e1: 'department' refers to 'd2', which the file does not define"))
        // And what the model's rules refuse, as a save would have said it.
        #expect(found.contains("Badge b1: code does not match /[A-Z]{2}[0-9]{3}/"))
        #expect(found.contains("Employee e1: salary is larger than the maximum 1000000"))
        #expect(found.contains("Employee e4: name is required"))
        #expect(found.contains("Project p1: department is required"), "a required to-one the file does not give")
        #expect(found.contains("Project p1: members holds 4 objects, more than the maximum 3"))
        #expect(throws: GraphFileStreamError.notChecked) {
            try stream.importObjects(into: try Self.sqliteStack(model, folder, "Never.sqlite").coordinator)
        }
    }

    @Test("an import stopped after some parts leaves the store as it was, and runs whole the next time")
    func stoppedMidway() throws {
        let model = try ModelFixtures.toDoModel()
        let folder = try Fixtures.temporaryDirectory("graph-stream")
        let items = (0..<250).map { #"{"@id": "t\#($0)", "name": "item \#($0)", "category": "c\#($0 % 2)"}"# }
        let path = try Self.write("""
            "Category": [{"@id": "c0", "name": "Home"}, {"@id": "c1", "name": "Work"}],
            "ToDo": [\(items.joined(separator: ", "))]
            """, in: folder)
        let stack = try Self.sqliteStack(model, folder, "ToDo.sqlite")
        try stack.context.insertObject(forEntityName: "Category")["name"] = "Mine"
        try stack.context.save()

        struct Stop: Error {}
        let stream = try GraphFileStream(path: path)
        try stream.check(against: model)
        var parts: [Int] = []
        #expect(throws: Stop.self) {
            try stream.importObjects(into: stack.coordinator, partSize: 100) { written in
                parts.append(written)
                if written >= 200 { throw Stop() }
            }
        }
        #expect(parts == [100, 200], "two parts written before the stop")
        let reader = stack.newContext()
        #expect(try reader.count(for: FetchRequest(entityName: "ToDo")) == 0)
        #expect(try reader.count(for: FetchRequest(entityName: "Category")) == 1)

        #expect(try stream.importObjects(into: stack.coordinator, partSize: 100) == 252)
        #expect(try reader.count(for: FetchRequest(entityName: "ToDo")) == 250)
        let work = try #require(reader.fetch(FetchRequest(entityName: "Category", predicate: try ObjectPredicate(format: "name == 'Work'"))).first)
        #expect(try work.objectIDs(forRelationshipNamed: "todos").count == 125)
        // The keys go on from the store's own: a new object saved later takes the next one.
        let later = try stack.context.insertObject(forEntityName: "ToDo")
        later["name"] = "later"
        try stack.context.save()
        #expect(try reader.count(for: FetchRequest(entityName: "ToDo")) == 251)
    }

    @Test("objects of an entity with uniqueness constraints go through a context, whose save checks them")
    func uniqueness() throws {
        let model = try ModelFixtures.companyModel()
        let folder = try Fixtures.temporaryDirectory("graph-stream")
        let stream = try GraphFileStream(path: try Self.write(#""Tag": [{"@id": "t1", "label": "x"}, {"@id": "t2", "label": "x"}]"#, in: folder))
        try stream.check(against: model)
        #expect(!stream.writesAsRows)
        #expect(throws: GraphFileStreamError.cannotWriteRows) {
            try stream.importObjects(into: try Self.sqliteStack(model, folder, "Tags.sqlite").coordinator)
        }
        let plain = try GraphFileStream(path: try Self.write(#""Note": [{"@id": "n1", "text": "x"}]"#, in: folder, name: "notes.json"))
        try plain.check(against: model)
        #expect(plain.writesAsRows)
    }

    @Test("two objects that list one member whose side holds one object are a problem, not a coin toss")
    func claimedTwice() throws {
        let model = try ModelFixtures.toDoModel()
        let folder = try Fixtures.temporaryDirectory("graph-stream")
        let stream = try GraphFileStream(path: try Self.write("""
            "Category": [{"@id": "c1", "name": "Home", "todos": ["t1", "t2"]}, {"@id": "c2", "name": "Work", "todos": ["t1"]}],
            "ToDo": [{"@id": "t1", "name": "one"}, {"@id": "t2", "name": "two"}]
            """, in: folder))
        let error = try #require(throws: GraphImportError.self) { try stream.check(against: model) }
        #expect(error.problems.map(\.description) == ["ToDo t1: 'c1' and 'c2' both list it in 'todos', but its 'category' holds one object"])
    }

    @Test("a file with no objects imports nothing, and a file changed after its check is refused")
    func emptyAndChanged() throws {
        let model = try ModelFixtures.toDoModel()
        let folder = try Fixtures.temporaryDirectory("graph-stream")
        let stack = try Self.sqliteStack(model, folder, "ToDo.sqlite")
        let empty = try GraphFileStream(path: try Self.write(#""ToDo": []"#, in: folder, name: "empty.json"))
        try empty.check(against: model)
        #expect(try empty.importObjects(into: stack.coordinator) == 0)

        let path = try Self.write(#""ToDo": [{"@id": "t1", "name": "one"}]"#, in: folder)
        let stream = try GraphFileStream(path: path)
        try stream.check(against: model)
        try GraphFileTests.graph(#""ToDo": [{"@id": "t1", "name": "one"}, {"@id": "t2", "name": "two"}]"#).write(to: URL(fileURLWithPath: path))
        #expect(throws: GraphFileStreamError.changed(path: path)) { try stream.importObjects(into: stack.coordinator) }
        #expect(try stack.newContext().count(for: FetchRequest(entityName: "ToDo")) == 0)
    }

    @Test("the import is one history transaction of inserts, whatever its parts, under the author given")
    func history() throws {
        let model = try ModelFixtures.toDoModel()
        let folder = try Fixtures.temporaryDirectory("graph-stream")
        SQLiteStore.register()
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(type: .sqlite, at: folder.appendingPathComponent("History.sqlite"), options: StoreOptions(tracksHistory: true))
        // Items first: their owners come in a later part.
        let items = (0..<250).map { #"{"@id": "t\#($0)", "name": "item \#($0)", "category": "c\#($0 % 2)"}"# }
        let stream = try GraphFileStream(path: try Self.write("""
            "ToDo": [\(items.joined(separator: ", "))],
            "Category": [{"@id": "c0", "name": "Home"}, {"@id": "c1", "name": "Work"}]
            """, in: folder))
        try stream.check(against: model)
        try stream.importObjects(into: coordinator, transaction: TransactionInfo(author: "import test"), partSize: 100)
        let transactions = try coordinator.fetchHistory(HistoryRequest())
        #expect(transactions.count == 1)
        #expect(transactions.first?.author == "import test")
        let changes = transactions.first?.changes ?? []
        #expect(changes.count == 252)
        #expect(changes.allSatisfy { $0.changeType == .insert }, "no owner is also updated")
        #expect(Set(changes.map(\.changedObjectID)).count == 252)
    }

    @Test("an entity with a class of its own is imported through a context, whose objects run its hooks")
    func registeredClass() throws {
        final class Note: ManagedObject {}
        let model = try ModelFixtures.companyModel()
        let folder = try Fixtures.temporaryDirectory("graph-stream")
        let stack = try Self.sqliteStack(model, folder, "Notes.sqlite")
        stack.coordinator.register(Note.self, forEntityName: "Note")
        let stream = try GraphFileStream(path: try Self.write(#""Note": [{"@id": "n1", "text": "x"}]"#, in: folder))
        try stream.check(against: model)
        #expect(stream.writesAsRows)
        #expect(throws: GraphFileStreamError.cannotWriteRows) { try stream.importObjects(into: stack.coordinator) }
    }

    @Test("an export written as it is read, a batch at a time, is byte for byte the export made whole, warnings too")
    func exportInBatches() throws {
        let model = try ModelFixtures.companyModel()
        let folder = try Fixtures.temporaryDirectory("graph-stream")
        let stack = try Self.sqliteStack(model, folder, "Company.sqlite")
        func compare(_ names: [String]?, _ comment: Comment) throws -> Int {
            let whole = try GraphFile.export(from: stack.newContext(), entityNames: names, keepsOutsideReferences: names == nil)
            var pieces: [[UInt8]] = []
            let problems = try GraphFile.writeExport(from: stack.newContext(), entityNames: names, keepsOutsideReferences: names == nil,
                                                     batchSize: 2) { pieces.append($0) }
            #expect(String(decoding: pieces.joined(), as: UTF8.self) == String(decoding: try JSONValue.bytes(whole.json), as: UTF8.self), comment)
            #expect(problems == whole.problems, comment)
            return pieces.count
        }
        _ = try compare(nil, "an empty store")
        try GraphFile(data: GraphFileTests.graph(Self.company)).importObjects(into: stack.context)
        // Ada's notes keep her key after she goes (No Action): the export warns and writes null.
        let ada = try #require(stack.context.fetch(FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: "name == 'Ada'"))).first)
        stack.context.delete(ada)
        try stack.context.save()
        #expect(try compare(nil, "every entity") > 3, "written in pieces")
        _ = try compare(["Employee", "Project"], "some entities, without references to the others")
        let problems = try GraphFile.writeExport(from: stack.newContext(), batchSize: 2) { _ in }
        #expect(problems.count == 2 && problems.allSatisfy { $0.key == "author" })
    }

    @Test("a file that is not JSON is pointed at, line and column, as when it is read whole")
    func syntax() throws {
        let folder = try Fixtures.temporaryDirectory("graph-stream")
        let path = try Self.write("\n\"ToDo\": [{\"@id\": \"t1\"},\n  {\"@id\": \"t2\",}]", in: folder)
        let stream = try GraphFileStream(path: path)
        let error = try #require(throws: GraphFileError.self) { try stream.check(against: try ModelFixtures.toDoModel()) }
        let whole = try #require(throws: GraphFileError.self) { try GraphFile(data: Data(contentsOf: URL(fileURLWithPath: path))) }
        #expect(error == whole)
        #expect(error.description.contains("3:15"), "\(error)")

        let missing = folder.appendingPathComponent("none.json").path
        #expect(throws: GraphFileStreamError.cannotRead(path: missing, reason: "there is no such file")) { try GraphFileStream(path: missing) }
    }

    @Test("the file's shape is checked as when it is read whole", arguments: [
        ("[1, 2]", GraphFileError.Kind.notAnObject),
        ("{\"format\": \"other\", \"version\": 1, \"entities\": {}}", .wrongFormat),
        ("{\"entities\": {}, \"format\": \"termdata-graph\", \"version\": 2}", .unsupportedVersion),
        ("{\"format\": \"termdata-graph\", \"version\": 1}", .noEntities),
        ("{\"format\": \"termdata-graph\", \"version\": 1, \"entities\": [1]}", .noEntities),
        ("{\"format\": \"termdata-graph\", \"version\": 1, \"entities\": {\"ToDo\": {}}}", .entityNotAnArray("ToDo")),
        ("{\"format\": \"termdata-graph\", \"version\": 1, \"entities\": {\"ToDo\": [{}, 5]}}", .objectNotAnObject(entity: "ToDo", index: 1)),
    ])
    func shape(_ text: String, _ expected: GraphFileError.Kind) throws {
        let folder = try Fixtures.temporaryDirectory("graph-stream")
        let url = folder.appendingPathComponent("shape.json")
        try Data(text.utf8).write(to: url)
        let error = try #require(throws: GraphFileError.self) { try GraphFileStream(path: url.path).check(against: try ModelFixtures.toDoModel()) }
        #expect(error.kind == expected)
    }
}
