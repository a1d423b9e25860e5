import Foundation
import Testing
import ObjectGraph
import ObjectModel
import SQLiteStore
import TestSupport

@Suite("Files given as a SQLite store that are not one")
struct NotAStoreTests {
    @Test("a short file that is not SQLite is refused and left as it was; an empty file becomes a store",
          arguments: ["x", "a note\n", String(repeating: "a", count: 99), "SQLite format 3\u{0}"])
    func shortFiles(contents: String) throws {
        SQLiteStore.register()
        let url = try Fixtures.temporaryDirectory("notastore").appendingPathComponent("Store.sqlite")
        try Data(contents.utf8).write(to: url)
        let coordinator = PersistentStoreCoordinator(model: try ModelFixtures.toDoModel())
        let error = try #require(throws: ObjectGraphError.self) { try coordinator.addStore(type: .sqlite, at: url) }
        #expect("\(error)".contains("not a SQLite store (it starts with “"), "\(error)")
        #expect(try Data(contentsOf: url) == Data(contents.utf8), "the file is kept")
        #expect(try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path) == ["Store.sqlite"])

        try Data().write(to: url)
        let stack = try TestStack(model: try ModelFixtures.toDoModel(), type: .sqlite, url: url)
        try stack.context.insertObject(forEntityName: "ToDo")["name"] = "new"
        try stack.context.save()
        #expect(try TestStack(model: try ModelFixtures.toDoModel(), type: .sqlite, url: url).context
            .count(for: FetchRequest(entityName: "ToDo")) == 1)
    }
}
