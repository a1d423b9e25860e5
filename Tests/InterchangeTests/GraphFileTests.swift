import Foundation
import Testing
import Interchange
import ObjectGraph
import ObjectModel
import Predicates
import TestSupport

@Suite("Graph files")
struct GraphFileTests {
    static func graph(_ entities: String) -> Data {
        Data("{\"format\": \"termdata-graph\", \"version\": 1, \"entities\": {\(entities)}}".utf8)
    }

    @Test("data that is not a graph file says what it is instead", arguments: [
        ("{\"format\": ", GraphFileError.Kind.notJSON("")),
        ("[1, 2]", .notAnObject),
        ("{\"format\": \"other\", \"version\": 1, \"entities\": {}}", .wrongFormat),
        ("{\"format\": \"termdata-graph\", \"version\": 2, \"entities\": {}}", .unsupportedVersion),
        ("{\"format\": \"termdata-graph\", \"version\": 1}", .noEntities),
        ("{\"format\": \"termdata-graph\", \"version\": 1, \"entities\": {\"ToDo\": {}}}", .entityNotAnArray("ToDo")),
        ("{\"format\": \"termdata-graph\", \"version\": 1, \"entities\": {\"ToDo\": [{}, 5]}}", .objectNotAnObject(entity: "ToDo", index: 1)),
    ])
    func notAGraph(_ text: String, _ expected: GraphFileError.Kind) throws {
        let error = try #require(throws: GraphFileError.self) { try GraphFile(data: Data(text.utf8)) }
        if case .notJSON(let detail) = error.kind {
            #expect(expected == .notJSON(""))
            #expect(!detail.isEmpty, "the parser's account of the problem")
        } else {
            #expect(error.kind == expected)
        }
    }

    @Test("problems name the object by its @id and carry the key and the key most likely meant")
    func problemsAsData() throws {
        let model = try ModelFixtures.toDoModel()
        let file = try GraphFile(data: Self.graph("""
            "ToDo": [{"@id": "t1", "nmae": "x"}, {"@id": "t2", "dueDate": "tomorrow"}, {"@id": "t3", "category": "c9"}],
            "Robot": []
            """))
        let problems = file.problems(for: model)
        let unknown = try #require(problems.first { $0.key == "nmae" })
        #expect(unknown.subject == "ToDo t1")
        #expect(unknown.suggestion == "name")
        #expect(unknown.description == "ToDo t1: unknown key 'nmae' (did you mean 'name'?)")
        #expect(problems.contains { $0.subject == "ToDo t2" && $0.key == "dueDate" })
        #expect(problems.contains { $0.subject == "ToDo t3" && $0.message == "'category' refers to 'c9', which the file does not define" })
        #expect(problems.contains { $0.subject == nil && $0.message.hasPrefix("unknown entity 'Robot'") })
    }

    @Test("an import writes all objects or none; refused objects are named by their @id; other changes stay")
    func allOrNothing() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let mine = try stack.context.insertObject(forEntityName: "ToDo")
        mine["name"] = "Mine, unsaved"
        let bad = try GraphFile(data: Self.graph("""
            "Category": [{"@id": "c1", "name": "Home"}, {"@id": "c2", "name": ""}]
            """))
        let error = try #require(throws: GraphImportError.self) { try bad.importObjects(into: stack.context) }
        #expect(error.problems.map(\.subject) == ["Category c2"])
        #expect(error.problems.first?.key == "name")
        #expect(try stack.context.count(for: FetchRequest(entityName: "Category")) == 0, "nothing of the file stays")
        #expect(stack.context.insertedObjects == [mine], "the change made before the import stays")
        for saving in [false, true] {
            #expect(throws: GraphImportError.self) { try bad.importObjects(into: stack.context, saving: saving) }
            #expect(stack.context.insertedObjects == [mine])
        }
        stack.context.delete(mine)

        let good = try GraphFile(data: Self.graph("""
            "Category": [{"@id": "c1", "name": "Home"}],
            "ToDo": [{"@id": "t1", "name": "Buy milk", "category": "c1", "dueDate": "2024-05-01T10:00:00Z"}]
            """))
        #expect(try good.importObjects(into: stack.context) == 2)
        #expect(!stack.context.hasChanges, "saved")
        let item = try #require(try stack.context.fetch(FetchRequest(entityName: "ToDo")).first)
        #expect(item.object("category")?.string("name") == "Home")
        #expect(item.date("dueDate") == JSONValue.date("2024-05-01T10:00:00Z"))
    }

    @Test("without saving, an import leaves its objects as the context's unsaved changes and reports progress")
    func unsavedWithProgress() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let items = (1...2_500).map { "{\"@id\": \"t\($0)\", \"name\": \"Item \($0)\"}" }.joined(separator: ", ")
        let file = try GraphFile(data: Self.graph("\"ToDo\": [\(items)]"))
        var reported: [Int] = []
        #expect(try file.importObjects(into: stack.context, saving: false) { reported.append($0) } == 2_500)
        #expect(reported == [1_000, 2_000, 2_500], "every thousand, then all of them before the save")
        #expect(stack.context.insertedObjects.count == 2_500)
    }

    @Test("an error thrown by the progress (the user gave up) takes the import back and saves nothing", arguments: [2_000, 2_500])
    func stoppedByProgress(at stop: Int) throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let kept = try stack.context.insertObject(forEntityName: "ToDo")
        kept["name"] = "mine, unsaved"
        let items = (1...2_500).map { "{\"@id\": \"t\($0)\", \"name\": \"Item \($0)\"}" }.joined(separator: ", ")
        let file = try GraphFile(data: Self.graph("\"ToDo\": [\(items)]"))
        #expect(throws: CancellationError.self) {
            try file.importObjects(into: stack.context, saving: true) { if $0 == stop { throw CancellationError() } }
        }
        #expect(stack.context.insertedObjects == [kept], "the user's own insert stays")
        #expect(try stack.newContext().count(for: FetchRequest(entityName: "ToDo")) == 0, "nothing saved")
    }

    @Test("an export imports back into an empty store as the same objects and relationships")
    func roundTrip() throws {
        let source = try TestStack(model: try ModelFixtures.toDoModel())
        let home = try source.context.insertObject(forEntityName: "Category")
        home["name"] = "Home"
        for name in ["Water the ferns", "Fix the tap, then \"dry\" it"] {
            let item = try source.context.insertObject(forEntityName: "ToDo")
            item["name"] = .string(name)
            try item.setValue(home, forKey: "category")
        }
        try source.context.save()
        let exported = try GraphFile.export(from: source.context)
        #expect(exported.problems.isEmpty)
        let text = try JSONValue.text(exported.json)
        let copy = try TestStack(model: try ModelFixtures.toDoModel())
        #expect(try GraphFile(data: Data(text.utf8)).importObjects(into: copy.context) == 3)
        let category = try #require(try copy.context.fetch(FetchRequest(entityName: "Category")).first)
        #expect(Set(category.objects("todos").compactMap { $0.string("name") }) == ["Water the ferns", "Fix the tap, then \"dry\" it"])
        #expect(try GraphFile.export(from: copy.context).json == exported.json)
    }
}

@Suite("Export progress")
struct ExportProgressTests {
    @Test("an export reports each entity before reading it, with the objects read so far")
    func progress() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        for n in 0..<3 { try stack.context.insertObject(forEntityName: "ToDo")["name"] = .string("item \(n)") }
        try stack.context.insertObject(forEntityName: "Category")["name"] = "Home"
        try stack.context.save()
        var reported: [String] = []
        let graph = try GraphFile.export(from: stack.context) { entity, read in reported.append("\(entity) \(read)") }
        #expect(reported == ["Category 0", "ToDo 1"])
        #expect(graph.objectCount == 4)
    }
}
