import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import TerminalUI
import ToDoApp
import AppShell
import Interchange
import TestSupport
import TermDataResources

@Suite("ToDo store: import, export and migration")
struct ToDoStoreFileTests: ToDoTesting {
    let folder: URL
    let url: URL

    init() throws {
        (folder, url) = try Self.makeFolder()
    }

    @Test("File ▸ Import… saves a graph file's objects on their own, unsaved edits left unsaved; Export… writes them back out",
          arguments: [false, true])
    func importAndExport(sqlite: Bool) throws {
        let (todo, driver) = try launch(sqlite: sqlite)
        let file = folder.appendingPathComponent("more.json")
        try Data("""
            {"format": "termdata-graph", "version": 1, "entities": {
              "Category": [{"@id": "c1", "name": "Garden"}],
              "ToDo": [{"@id": "t1", "name": "Repot the fern", "category": "c1"}, {"@id": "t2", "name": "Sow the peas"}]}}
            """.utf8).write(to: file)
        // An edit the user has not saved.
        try #require(todo.items.arrangedObjects.first)["name"] = "Renamed, not saved"
        todo.endEvent()
        todo.app.runScript("<F9>")
        #expect(screen(driver.screenLines).contains("│ Import…"), "the File menu offers it")
        todo.app.runScript("<Esc>")
        todo.app.perform("todo.import")
        var text = screen(todo.app.runScript(file.path + "<Enter>"))
        #expect(text.contains("Imported and saved 3 objects"), "\(text)")
        #expect(names(todo).contains("Repot the fern") && names(todo).contains("Sow the peas"), "\(names(todo))")
        #expect(names(todo).contains("Renamed, not saved"))
        #expect(todo.context.hasChanges && todo.context.insertedObjects.isEmpty, "the rename is still unsaved; the import is not")
        let stored = try otherStore(sqlite: sqlite).context
            .fetch(FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")])).compactMap { $0.string("name") }
        #expect(stored == ["Repot the fern", "Sow the peas", "Welcome! Press a to add an item, c for categories, ? for help"])

        let bad = folder.appendingPathComponent("bad.json")
        try Data(#"{"format": "termdata-graph", "version": 1, "entities": {"ToDo": [{"@id": "t9", "nmae": "x"}]}}"#.utf8).write(to: bad)
        todo.app.perform("todo.import")
        text = screen(todo.app.runScript(bad.path + "<Enter>"))
        #expect(text.contains("Nothing imported"))
        #expect(text.contains("ToDo t9: unknown key 'nmae' (did you mean 'name'?)"), "\(text)")
        todo.app.runScript("<Enter>")
        #expect(names(todo).count == 3, "a refused file adds nothing")

        let out = folder.appendingPathComponent("out.json")
        todo.app.perform("todo.export")
        text = screen(todo.app.runScript("<C-u>" + out.path + "<Enter>"))
        #expect(text.contains("Exported 7 objects to /"), "\(text)")
        let exported = try GraphFile(data: Data(contentsOf: out))
        #expect(exported.entities["ToDo"]?.compactMap { if case .string(let n)? = $0["name"] { n } else { nil } }.sorted()
                == ["Renamed, not saved", "Repot the fern", "Sow the peas"], "the export shows what the user sees")
        #expect(exported.entities["Category"]?.count == 4)
    }

    @Test("Esc before an import's save stops it; once it saves, Esc is refused and the save is merged")
    func stopBeforeSaving() throws {
        let early = WorkStop()
        #expect(early.stop(), "not saving yet: it stops")
        #expect(throws: CancellationError.self) { try early.check() }
        #expect(throws: CancellationError.self) { try early.beginSaving() }
        let late = WorkStop()
        try late.beginSaving()
        try late.beginSaving()
        #expect(!late.stop(), "saving: it finishes")
        try late.check()
    }

    /// A graph file of `count` ToDo items named "`prefix` n".
    private func largeFile(_ name: String, count: Int = 150_000, prefix: String) throws -> URL {
        let file = folder.appendingPathComponent(name)
        var json = #"{"format": "termdata-graph", "version": 1, "entities": {"ToDo": ["#
        json += (0..<count).map { #"{"@id": "t\#($0)", "name": "\#(prefix) \#($0)"}"# }.joined(separator: ",")
        json += "]}}"
        try Data(json.utf8).write(to: file)
        return file
    }

    @Test("a large file is read, inserted and saved in the background: keys answer meanwhile, and Esc stops it with nothing saved")
    func importInBackground() throws {
        let (todo, driver) = try launch(sqlite: true)
        let file = try largeFile("large.json", prefix: "Imported item number")
        todo.app.perform("todo.import")
        todo.app.runScript(file.path + "<Enter>", waitingForWork: false)
        #expect(todo.app.isWorking, "the file is read off the loop")
        #expect(screen(driver.screenLines).contains("Importing large.json"), "the status bar says what runs")
        todo.app.runScript("?", waitingForWork: false)
        #expect(screen(driver.screenLines).contains("Help"), "keys answer meanwhile")
        todo.app.runScript("<Esc><Esc>", waitingForWork: false)
        #expect(!todo.app.isWorking, "Esc stops it")
        // Looked at for longer than the whole import takes here, in case it went on.
        let other = try otherStore()
        for _ in 0..<25 {
            Thread.sleep(forTimeInterval: 0.2)
            try #require(try other.context.count(for: FetchRequest(entityName: "ToDo")) == 1, "nothing of the stopped import is saved")
        }
        todo.app.runScript("")
        #expect(names(todo).count == 1)
    }

    @Test("an import ends while an item is being renamed: the editor stays open with what was typed, and the items appear")
    func importDuringEdit() throws {
        let (todo, _) = try launch(sqlite: true)
        let file = try largeFile("during.json", count: 20_000, prefix: "Imported during the edit")
        todo.app.perform("todo.import")
        todo.app.runScript(file.path + "<Enter>", waitingForWork: false)
        // The user starts renaming the selected item while the file is imported.
        todo.app.runScript("<Enter><C-u>Half-typed", waitingForWork: false)
        todo.app.perform("todo.import")
        let refused = screen(todo.app.runScript("", waitingForWork: false))
        #expect(refused.contains("Wait for the work in progress"), "one import at a time: \(refused)")
        #expect(todo.app.waitForWork(timeout: 120))
        let text = screen(todo.app.runScript("", waitingForWork: false))
        #expect(text.contains("Imported and saved 20000 objects"), "\(text)")
        #expect(todo.items.arrangedCount == 20_001)
        #expect(text.contains("Half-typed"), "the editor is still open with the typed text: \(text)")
        #expect(!names(todo).contains("Half-typed"), "the half-typed name is not committed")
        todo.app.runScript("<Enter>")
        #expect(names(todo).contains("Half-typed"), "Enter commits it as usual")
    }

    /// A version-1 store of `count` items, every fifth named "ask …".
    private func versionOneStore(items count: Int) throws -> URL {
        let versions = try ToDoStore.bundledVersions()
        let old = try TestStack(model: versions.version(named: "ToDo")!, type: .xml, url: url)
        for i in 0..<count { try old.context.insertObject(forEntityName: "ToDo")["name"] = .string(i % 5 == 0 ? "ask \(i)" : "item \(i)") }
        try old.context.save()
        return url
    }

    @Test("a version-1 store is migrated at start in a window that says what changes and answers keys; the app then opens it")
    func migratesInWindow() throws {
        let url = try versionOneStore(items: 40_000)
        let migration = try #require(try ToDoMigration(storeAt: url, type: .xml))
        let driver = MemoryDriver(size: Size(width: 100, height: 30))
        let app = migration.begin(on: driver)
        var text = screen(app.runScript("", waitingForWork: false))
        #expect(text.contains("Migrating ToDo.xml"), "\(text)")
        #expect(text.contains("ToDo: adds doNotAlert, lastAlertDate; policy ToDoDoNotAlert"), "\(text)")
        #expect(text.contains("The original is kept as ToDo.xml.backup."))
        #expect(app.isWorking, "the migration runs off the loop")
        text = screen(app.runScript("?", waitingForWork: false))
        #expect(text.contains("Stop the migration"), "help answers meanwhile: \(text)")
        #expect(app.isWorking)
        app.runScript("<Esc>", waitingForWork: false)
        #expect(app.isWorking, "Esc closes the help; the migration goes on")
        #expect(app.waitForWork(timeout: 120))
        let reports = try #require(try migration.outcome?.get())
        #expect(reports.last?.objectCount == 40_000)
        #expect(try ToDoMigration(storeAt: url, type: .xml) == nil, "current now")
        let store = try ToDoStore.open(at: url, type: .xml)
        #expect(store.migrations.isEmpty, "nothing left for the open to migrate")
        let asks = try store.context.count(for: FetchRequest(entityName: "ToDo", predicate: try ObjectPredicate(format: "doNotAlert == YES")))
        #expect(asks == 8_000, "the article's policy ran")
    }

    @Test("Esc stops a migration at start: the store file is as it was, byte for byte, with nothing left beside it")
    func migrationStopped() throws {
        let url = try versionOneStore(items: 40_000)
        let before = try Data(contentsOf: url)
        let migration = try #require(try ToDoMigration(storeAt: url, type: .xml))
        let clock = VirtualClock()
        let app = migration.begin(on: MemoryDriver(size: Size(width: 100, height: 30), clock: clock))
        app.runScript("", waitingForWork: false)
        #expect(app.isWorking)
        app.runScript("<Esc>", waitingForWork: false)
        clock.advance(by: 0.1)
        let text = screen(app.runScript("", waitingForWork: false))
        #expect(text.contains("Stopping: putting ToDo.xml back as it was") || migration.outcome != nil, "\(text)")
        let deadline = Date().addingTimeInterval(60)
        while migration.outcome == nil, Date() < deadline {
            clock.advance(by: 0.1)
            app.runScript("", waitingForWork: false)
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(throws: MigrationStopped.self) { try migration.outcome?.get() }
        #expect(try Data(contentsOf: url) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["ToDo.xml"])
        #expect(try ToDoMigration(storeAt: url, type: .xml)?.sourceVersion == "ToDo", "still to migrate")
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

    @Test("termdata migrate gives a version-1 store exactly the rows the app gives it, the article's policy included",
          arguments: ["sqlite", "xml"])
    func commandLineMigratesAsTheAppDoes(type: String) throws {
        // A version-1 store made as a user would: an import with the version-1 model.
        let graph = folder.appendingPathComponent("v1.json")
        try Data("""
            {"format": "termdata-graph", "version": 1, "entities": {
              "Category": [{"@id": "c1", "name": "Home"}, {"@id": "c2", "name": "Work"}],
              "ToDo": [{"@id": "t1", "name": "ask for a raise", "category": "c2", "dueDate": "2026-12-01T09:00:00Z"},
                       {"@id": "t2", "name": "Archive mail", "completed": true, "category": "c2"},
                       {"@id": "t3", "name": "buy bread", "category": "c1"},
                       {"@id": "t4", "name": "Água", "dueDate": "2027-01-02T10:30:00Z"},
                       {"@id": "t5", "name": "alpha", "completed": true}]}}
            """.utf8).write(to: graph)
        let versionOne = BundledResources.toDoModelURL.appendingPathComponent("ToDo.xcdatamodel")
        let byApp = folder.appendingPathComponent("app.\(type)"), byTool = folder.appendingPathComponent("tool.\(type)")
        let made = try TermDataProcess.run(["import", "--store", byApp.path, "--type", type, "--model", versionOne.path, graph.path])
        #expect(made.status == 0, "\(made.stderr)")
        try FileManager.default.copyItem(at: byApp, to: byTool)

        let storeType: StoreType = type == "sqlite" ? .sqlite : .xml
        let app = try ToDoStore.open(at: byApp, type: storeType)
        #expect(app.migrations.count == 1)
        let tool = try TermDataProcess.run(["migrate", "--store", byTool.path, "--type", type])
        #expect(tool.status == 0, "\(tool.stderr)")
        #expect(tool.stdout.contains("ToDo → ToDo 2 (mapping file)"), "the bundled mapping is found: \(tool.stdout)")

        func rows(_ store: ToDoStore) throws -> [String] {
            try store.context.fetch(FetchRequest(entityName: ToDoItem.entityName, sortDescriptors: [ObjectSortDescriptor(key: "name")])).map { item in
                [item.string("name") ?? "nil", "\(item.bool("doNotAlert").map(String.init) ?? "nil")",
                 "\(item.bool("completed").map(String.init) ?? "nil")", "\(item.date("dueDate")?.timeIntervalSince1970 ?? -1)",
                 item.object("category")?.string("name") ?? "-"].joined(separator: " | ")
            }
        }
        let migratedByTool = try ToDoStore.open(at: byTool, type: storeType, seeded: false)
        #expect(migratedByTool.migrations.isEmpty, "the tool left it at the current version")
        let expected = try rows(app)
        #expect(try rows(migratedByTool) == expected)
        let doNotAlert = expected.filter { $0.split(separator: "|")[1].contains("true") }.map { String($0.prefix { $0 != " " }) }
        #expect(doNotAlert == ["Archive", "alpha", "ask"], "items starting with 'a', and only those, are do-not-alert: \(expected)")
    }

    @Test("a store file removed under the app: Ctrl-S says so and keeps the item; q asks before quitting without it")
    func storeFileRemoved() throws {
        let (todo, _) = try launch(sqlite: true)
        let file = folder.appendingPathComponent("ToDo.sqlite")
        for path in StoreFiles.databaseFiles(forStoreAt: file) { try? FileManager.default.removeItem(at: path) }
        var text = screen(todo.app.runScript("aKeep me<Enter><C-s>"))
        #expect(text.contains("The store's file is gone"))
        #expect(text.contains("is no longer there (removed or moved"))
        #expect(text.contains("and the changes are still here."))
        #expect(text.contains("Save here again") && text.contains("Save as…") && text.contains("Cancel"))
        #expect(!text.contains("· saved"))
        todo.app.runScript("<Esc>")
        #expect(todo.context.hasChanges)
        #expect(!FileManager.default.fileExists(atPath: file.path), "nothing written without the user's say")
        text = screen(todo.app.runScript("q"))
        #expect(text.contains("Could not save changes while quitting. Quit anyway?"))
        #expect(!todo.app.isQuitting)
    }

    /// The names of the items in a SQLite store file.
    func storedNames(at file: URL) throws -> [String] {
        let store = try ToDoStore.open(at: file, type: .sqlite, seeded: false)
        return try store.context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")]))
            .compactMap { $0.string("name") }
    }

    @Test("a removed store file: Save here again writes the store as it was read, with the changes, at its path")
    func removedSavedHereAgain() throws {
        let (todo, driver) = try launch(sqlite: true)
        let file = folder.appendingPathComponent("ToDo.sqlite")
        for path in StoreFiles.databaseFiles(forStoreAt: file) { try? FileManager.default.removeItem(at: path) }
        todo.app.runScript("aKeep me<Enter><C-s>")
        todo.app.runScript("<Enter>")        // Save here again
        #expect(!todo.context.hasChanges)
        #expect(screen(driver.screenLines).contains("Saved"))
        #expect(try storedNames(at: file).contains("Keep me"))
        #expect(try storedNames(at: file).contains { $0.hasPrefix("Welcome!") }, "with what the store held when it was read")
    }

    @Test("a removed store file: Save as… asks where, saves a new store there, and the title follows it")
    func removedSavedAs() throws {
        let (todo, driver) = try launch(sqlite: true)
        let file = folder.appendingPathComponent("ToDo.sqlite")
        for path in StoreFiles.databaseFiles(forStoreAt: file) { try? FileManager.default.removeItem(at: path) }
        todo.app.runScript("aKeep me<Enter><C-s>")
        let prompt = screen(todo.app.runScript("l<Enter>"))       // Save as…
        // Beside the old one; the line scrolls to the end of a long path.
        #expect(prompt.contains("Save as a new store at: ") && prompt.contains("\(folder.lastPathComponent)/ToDo (recovered).sqlite"),
                "\(driver.screenLines.last ?? "")")
        let elsewhere = folder.appendingPathComponent("Elsewhere.sqlite")
        todo.app.runScript("<C-u>\(elsewhere.path)<Enter>")
        #expect(!todo.context.hasChanges)
        #expect(try storedNames(at: elsewhere).contains("Keep me"))
        #expect(driver.screenLines[1].contains("ToDo — Elsewhere.sqlite"), "\(driver.screenLines[1])")
        // Later saves go there too.
        todo.app.runScript("aAnd me<Enter><C-s>")
        #expect(try storedNames(at: elsewhere).contains("And me"))
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("a store file replaced by another store: Save into it is refused, saying why, and Save as… keeps the changes")
    func replacedByAnotherStore() throws {
        let (todo, driver) = try launch(sqlite: true)
        let file = folder.appendingPathComponent("ToDo.sqlite")
        let otherFolder = try Fixtures.temporaryDirectory("other")
        let other = try ToDoStore.open(at: otherFolder.appendingPathComponent("Other.sqlite"), type: .sqlite, seeded: false)
        try other.context.insertObject(forEntityName: "ToDo")["name"] = "Theirs"
        try other.context.save()
        for store in other.coordinator.stores { other.coordinator.removeStore(store) }
        for path in StoreFiles.databaseFiles(forStoreAt: file) { try? FileManager.default.removeItem(at: path) }
        try FileManager.default.copyItem(at: otherFolder.appendingPathComponent("Other.sqlite"), to: file)

        var text = screen(todo.app.runScript("aKeep me<Enter><C-s>"))
        #expect(text.contains("The store's file was replaced") && text.contains("Save into it"), "\(text)")
        text = screen(todo.app.runScript("<Enter>"))
        #expect(todo.app.windows.map(\.title).last == "Could not save", "asked once, not again")
        #expect(text.contains("is now another store, not a copy of the one opened"), "\(text)")
        #expect(try storedNames(at: file) == ["Theirs"], "the other store is left alone")
        todo.app.runScript("<Enter><C-s>l<Enter>")
        let saved = folder.appendingPathComponent("ToDo (recovered).sqlite")
        todo.app.runScript("<Enter>")       // the suggested path
        #expect(try storedNames(at: saved).contains("Keep me"), "\(driver.screenLines.last ?? "")")
        #expect(!todo.context.hasChanges)
    }

    @Test("with nothing unsaved, an export is read and written in the background, the status bar showing it")
    func exportInBackground() throws {
        let (todo, driver) = try launch(sqlite: true)
        todo.app.runScript("aSow the peas<Enter><C-s>")
        #expect(!todo.context.hasChanges)
        let out = folder.appendingPathComponent("background.json")
        todo.app.perform("todo.export")
        todo.app.runScript("<C-u>" + out.path + "<Enter>", waitingForWork: false)
        #expect(todo.app.isWorking)
        #expect(driver.screenLines.last?.contains("Exporting…") == true, "\(driver.screenLines.last ?? "")")
        todo.app.waitForWork()
        todo.app.runScript("")
        #expect(screen(driver.screenLines).contains("Exported 5 objects to /"), "\(driver.screenLines.last ?? "")")
        let exported = try GraphFile(data: Data(contentsOf: out))
        #expect(exported.entities["ToDo"]?.count == 2)
        #expect(exported.entities["Category"]?.count == 3)
    }
}
