import Foundation
import Testing
import ObjectGraph
import ObjectModel
import PostgresStore
import TestSupport

/// The command line on a store on a real PostgreSQL server.
@Suite("termdata on a PostgreSQL store")
struct PostgresCommandTests {
    @Test("import makes a ToDo store on the server; query and export read it back without --model")
    func importQueryExport() throws {
        let cli = try CommandLineSession()
        let url = try PostgresServer.shared().storeURL().absoluteString
        let path = try cli.write(StoreCommandTests.graph, to: "todo.json")
        let imported = try cli.run(["import", "--store", url, "--model", "ToDo", path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("imported 6 object(s) into postgres://"))
        let query = try cli.run(["query", "--store", url, "ToDo", "name BEGINSWITH[c] %@", "--arg", "\"b\"",
                                 "--sort", "name", "--format", "json", "--keys", "name,category.name"])
        #expect(query.status == 0, "\(query.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(query.stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == ["Buy milk", "book flights"])
        #expect(rows.map { $0["category.name"] as? String } == ["Home", "Work"])
        let count = try cli.run(["query", "--store", url, "ToDo", "--count"])
        #expect(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "4", "\(count.stderr)")
        let export = try cli.run(["export", "--store", url])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.contains("\"book flights\"") && export.stdout.contains("\"Work\""))
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.directory.path).allSatisfy { !$0.hasPrefix("postgres") },
                "no file or folder named after the URL")
    }

    @Test("check reads a store on the server: sound (exit 0), then a dangling reference another client wrote (exit 1); --repair is refused there")
    func check() throws {
        let cli = try CommandLineSession()
        let url = try PostgresServer.shared().storeURL()
        let path = try cli.write(StoreCommandTests.graph, to: "todo.json")
        #expect(try cli.run(["import", "--store", url.absoluteString, "--model", "ToDo", path]).status == 0)
        let sound = try cli.run(["check", "--store", url.absoluteString])
        #expect(sound.status == 0, "\(sound.stdout)\(sound.stderr)")
        #expect(sound.stdout.hasPrefix("The store is sound: 6 objects"), "\(sound.stdout)")
        PostgresStore.register()
        let coordinator = PersistentStoreCoordinator(model: try ModelFixtures.toDoModel())
        try coordinator.addStore(type: .postgres, at: url)
        _ = try (coordinator.stores[0] as! PostgresStore).plainRows(#"UPDATE "ZTODO" SET "ZCATEGORY" = 999 WHERE "ZNAME" = 'Buy milk'"#)
        coordinator.removeStore(coordinator.stores[0])
        let broken = try cli.run(["check", "--store", url.absoluteString])
        #expect(broken.status == 1)
        #expect(broken.stdout.contains("✗ ToDo.category holds the key of a Category that is not in the store: 1 object"), "\(broken.stdout)")
        let repair = try cli.run(["check", "--store", url.absoluteString, "--repair"])
        #expect(repair.status != 0 && repair.stderr.contains("--repair mends SQLite stores"), "\(repair.stderr)")
    }

    @Test("diff compares a store on the server with a SQLite file of the same objects, matched by name: the same, then one renamed on the server")
    func diffAcrossEngines() throws {
        let cli = try CommandLineSession()
        let url = try PostgresServer.shared().storeURL()
        let path = try cli.write(StoreCommandTests.graph, to: "todo.json")
        let file = cli.file("Local.sqlite").path
        #expect(try cli.run(["import", "--store", url.absoluteString, "--model", "ToDo", path]).status == 0)
        #expect(try cli.run(["import", "--store", file, "--model", "ToDo", path]).status == 0)
        let same = try cli.run(["diff", "--store", file, "--store", url.absoluteString, "--model", "ToDo", "--match", "name"])
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(same.stdout.hasPrefix("the stores hold the same objects (6 objects in ") && same.stdout.contains("Local.sqlite, 6 in postgres://"),
                "\(same.stdout)")

        PostgresStore.register()
        let coordinator = PersistentStoreCoordinator(model: try ModelFixtures.toDoModel())
        try coordinator.addStore(type: .postgres, at: url)
        _ = try (coordinator.stores[0] as! PostgresStore).plainRows(#"UPDATE "ZTODO" SET "ZCOMPLETED" = 1 WHERE "ZNAME" = 'Buy milk'"#)
        coordinator.removeStore(coordinator.stores[0])
        let changed = try cli.run(["diff", "--store", file, "--store", url.absoluteString, "--model", "ToDo", "--match", "name"])
        #expect(changed.status == 1)
        #expect(changed.stdout.contains("changed ToDo name=“Buy milk”: completed false → true"), "\(changed.stdout)")
        #expect(changed.stdout.contains("0 added, 0 removed, 1 changed"))
    }

    @Test("a store URL is never taken for a file name", arguments: [
        ("postgres:/tmp/x", "is not a postgres:// URL"),
        ("postgresql:team", "is not a postgres:// URL"),
        ("mysql://db/x", "names a mysql:// store"),
    ])
    func notAFileName(_ store: String, _ message: String) throws {
        let cli = try CommandLineSession()
        let path = try cli.write(StoreCommandTests.graph, to: "todo.json")
        let result = try cli.run(["import", "--store", store, "--model", "ToDo", path])
        #expect(result.status != 0)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.directory.path).sorted() == ["todo.json"])
    }

    @Test("a server nobody answers at is said so in one line, the password left out")
    func unreachable() throws {
        let cli = try CommandLineSession()
        let result = try cli.run(["query", "--store", "postgres://ann:secret@127.0.0.1:1/team", "--model", "ToDo", "ToDo", "--count"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("cannot reach the PostgreSQL server of postgres://ann@127.0.0.1:1/team"), "\(result.stderr)")
        #expect(!result.stderr.contains("secret"))
    }

    @Test("history lists the transactions other clients and imports made on the server")
    func history() throws {
        let cli = try CommandLineSession()
        let url = try PostgresServer.shared().storeURL()
        // A client that records history, as the ToDo application does: from now on every writer is recorded.
        PostgresStore.register()
        let coordinator = PersistentStoreCoordinator(model: try ModelFixtures.toDoModel())
        try coordinator.addStore(type: .postgres, at: url, options: StoreOptions(tracksHistory: true))
        let path = try cli.write(StoreCommandTests.graph, to: "todo.json")
        let imported = try cli.run(["import", "--store", url.absoluteString, "--model", "ToDo", path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let result = try cli.run(["history", "--store", url.absoluteString, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let transactions = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(transactions.count == 1)
        #expect(transactions.first?["author"] as? String == "termdata import")
        #expect((transactions.first?["changes"] as? [Any])?.count == 6)
    }

    @Test("migrate brings a store on the server to the model's current version in place; a dry run changes nothing")
    func migrate() throws {
        let cli = try CommandLineSession()
        let url = try PostgresServer.shared().storeURL()
        PostgresStore.register()
        let versions = try XcodeModelFile.read(ModelFixtures.toDoHistory)
        do {
            let coordinator = PersistentStoreCoordinator(model: versions.version(named: "ToDo")!)
            let store = try coordinator.addStore(type: .postgres, at: url)
            let context = ManagedObjectContext(coordinator: coordinator)
            let item = try context.insertObject(forEntityName: "ToDo")
            item["name"] = "Buy milk"
            try context.save()
            store.close()
        }
        // Version 3 renames entities, beyond a change in place: the model is cut to two versions.
        let model = cli.directory.appendingPathComponent("ToDo.xcdatamodeld")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        for name in ["ToDo.xcdatamodel", "ToDo 2.xcdatamodel"] {
            try FileManager.default.copyItem(at: ModelFixtures.toDoHistory.appendingPathComponent(name), to: model.appendingPathComponent(name))
        }
        try Data(#"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>ToDo 2.xcdatamodel</string></dict></plist>"#.utf8)
            .write(to: model.appendingPathComponent(".xccurrentversion"))

        let dry = try cli.run(["migrate", "--store", url.absoluteString, "--model", model.path, "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("version ToDo → ToDo 2") && dry.stdout.contains("Dry run"), "\(dry.stdout)")
        #expect(try PostgresStore.readMetadata(at: url).versionHashes == versions.version(named: "ToDo")!.entityVersionHashes)

        let result = try cli.run(["migrate", "--store", url.absoluteString, "--model", model.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Migrated 1 objects in place") && !result.stdout.contains(".backup"), "\(result.stdout)")
        #expect(try PostgresStore.readMetadata(at: url).versionHashes == versions.version(named: "ToDo 2")!.entityVersionHashes)
        let query = try cli.run(["query", "--store", url.absoluteString, "--model", model.path, "ToDo", "doNotAlert == NO", "--count"])
        #expect(query.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "\(query.stderr)")
    }
}
