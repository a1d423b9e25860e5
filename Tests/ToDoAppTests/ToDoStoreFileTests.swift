import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import TerminalUI
import ToDoApp
import Interchange
import TestSupport

@Suite("ToDo store: import, export and migration")
struct ToDoStoreFileTests: ToDoTesting {
    let folder: URL
    let url: URL

    init() throws {
        (folder, url) = try Self.makeFolder()
    }

    @Test("File ▸ Import… adds a graph file's objects as one undoable change; Export… writes them back out")
    func importAndExport() throws {
        let (todo, driver) = try launch()
        let file = folder.appendingPathComponent("more.json")
        try Data("""
            {"format": "termdata-graph", "version": 1, "entities": {
              "Category": [{"@id": "c1", "name": "Garden"}],
              "ToDo": [{"@id": "t1", "name": "Repot the fern", "category": "c1"}, {"@id": "t2", "name": "Sow the peas"}]}}
            """.utf8).write(to: file)
        todo.app.runScript("<F9>")
        #expect(screen(driver.screenLines).contains("│ Import…"), "the File menu offers it")
        todo.app.runScript("<Esc>")
        todo.app.perform("todo.import")
        var text = screen(todo.app.runScript(file.path + "<Enter>"))
        #expect(text.contains("Imported 3 objects — Ctrl-S saves, u takes them back"), "\(text)")
        #expect(names(todo).contains("Repot the fern") && names(todo).contains("Sow the peas"))
        #expect(todo.context.insertedObjects.count == 3, "not saved yet")
        todo.app.runScript("u")
        #expect(!names(todo).contains("Repot the fern"), "one u takes the whole import back")
        #expect(todo.context.insertedObjects.isEmpty)
        todo.app.runScript("<C-r>")
        #expect(names(todo).contains("Repot the fern"))

        let bad = folder.appendingPathComponent("bad.json")
        try Data(#"{"format": "termdata-graph", "version": 1, "entities": {"ToDo": [{"@id": "t9", "nmae": "x"}]}}"#.utf8).write(to: bad)
        todo.app.perform("todo.import")
        text = screen(todo.app.runScript(bad.path + "<Enter>"))
        #expect(text.contains("Nothing imported"))
        #expect(text.contains("ToDo t9: unknown key 'nmae' (did you mean 'name'?)"), "\(text)")
        todo.app.runScript("<Enter>")
        #expect(todo.context.insertedObjects.count == 3, "a refused file adds nothing")

        let out = folder.appendingPathComponent("out.json")
        todo.app.perform("todo.export")
        text = screen(todo.app.runScript("<C-u>" + out.path + "<Enter>"))
        #expect(text.contains("Exported 7 objects to /"), "\(text)")
        let exported = try GraphFile(data: Data(contentsOf: out))
        #expect(exported.entities["ToDo"]?.compactMap { if case .string(let n)? = $0["name"] { n } else { nil } }.sorted()
                == ["Repot the fern", "Sow the peas", "Welcome! Press a to add an item, c for categories, ? for help"])
        #expect(exported.entities["Category"]?.count == 4)
    }

    @Test("a version-1 store is migrated on open with the article's policy")
    func migratesVersionOne() throws {
        let versions = try ToDoStore.bundledVersions()
        let old = try TestStack(model: versions.version(named: "ToDo")!, type: .xml, url: url)
        for name in ["ask for a raise", "Archive mail", "buy bread"] { try old.context.insertObject(forEntityName: "ToDo")["name"] = .string(name) }
        try old.context.save()
        let store = try ToDoStore.open(at: url, type: .xml)
        #expect(store.migrations.first?.objectCount == 3)
        let items = try store.context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")]))
        #expect(items.map { "\($0.string("name")!)=\($0.bool("doNotAlert")!)" } == ["Archive mail=true", "ask for a raise=true", "buy bread=false"])
    }

    @Test("a store file removed under the app: Ctrl-S says so and keeps the item; q asks before quitting without it")
    func storeFileRemoved() throws {
        let (todo, _) = try launch(sqlite: true)
        let file = folder.appendingPathComponent("ToDo.sqlite")
        for path in StoreFiles.databaseFiles(forStoreAt: file) { try? FileManager.default.removeItem(at: path) }
        var text = screen(todo.app.runScript("aKeep me<Enter><C-s>"))
        #expect(text.contains("Could not save"))
        #expect(text.contains("is no longer there (removed or moved"))
        #expect(text.contains("and the changes are still here."))
        #expect(!text.contains("· saved"))
        todo.app.runScript("<Enter>")
        #expect(todo.context.hasChanges)
        text = screen(todo.app.runScript("q"))
        #expect(text.contains("Could not save changes while quitting. Quit anyway?"))
        #expect(!todo.app.isQuitting)
    }
}
