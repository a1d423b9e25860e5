import Foundation
import Testing
import TestSupport
import ObjectGraph
import SQLiteStore

@Suite("termdata history")
struct HistoryCommandTests {
    /// A ToDo store that keeps history, with one save by "tester" and then an import by
    /// another process.
    func trackedStore() throws -> (CommandLineSession, String) {
        let cli = try CommandLineSession()
        let url = cli.file("Tracked.sqlite")
        SQLiteStore.register()
        do {
            let coordinator = PersistentStoreCoordinator(model: try ModelFixtures.toDoModel())
            try coordinator.addStore(type: .sqlite, at: url, options: StoreOptions(tracksHistory: true))
            let context = ManagedObjectContext(coordinator: coordinator)
            context.transactionAuthor = "tester"
            context.name = "setup"
            try context.insertObject(forEntityName: "Category")["name"] = "Home"
            try context.save()
            coordinator.removeStore(coordinator.stores[0])
        }
        let graph = try cli.write(StoreCommandTests.graph, to: "todo.json")
        let imported = try cli.run(["import", "--store", url.path, "--model", "ToDo", graph])
        #expect(imported.status == 0, "\(imported.stderr)")
        return (cli, url.path)
    }

    @Test("lists each transaction's changes with its token, author and context")
    func table() throws {
        let (cli, store) = try trackedStore()
        let result = try cli.run(["history", "--store", store])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("token  time") == true)
        #expect(lines.contains { $0.hasPrefix("1 ") && $0.contains("tester") && $0.contains("setup") && $0.contains("insert  Category 1") })
        let imported = lines.filter { $0.hasPrefix("2 ") && $0.contains("termdata import") }
        #expect(imported.count == 6, "two categories and four items: \(lines)")
        #expect(lines.contains("(7 changes)"))
        #expect(lines.last == "(2 transactions; the last token is 2)")
    }

    @Test("--object lists one object's story — its insert, each update with the keys it changed, its delete with the values kept — and its values now")
    func oneObject() throws {
        let (cli, store) = try trackedStore()
        let url = URL(fileURLWithPath: store)
        let coordinator = PersistentStoreCoordinator(model: try ModelFixtures.toDoModel())
        try coordinator.addStore(type: .sqlite, at: url, options: StoreOptions(tracksHistory: true))
        let context = ManagedObjectContext(coordinator: coordinator)
        context.transactionAuthor = "editor"
        let home = try #require(try context.fetch(FetchRequest(entityName: "Category")).first { $0.objectID.primaryKey == 1 }, "the first save's Home")
        home["name"] = "House"
        try context.save()
        home["name"] = "Cottage"
        try context.save()
        let uri = home.objectID.uriRepresentation.absoluteString
        coordinator.removeStore(coordinator.stores[0])

        let result = try cli.run(["history", "--store", store, "--object", uri])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("1 ") && $0.contains("tester") && $0.contains("insert  Category 1") }, "\(result.stdout)")
        // Each update with the value before and after: the next update's before, or the value now.
        #expect(lines.contains { $0.hasPrefix("3 ") && $0.contains("editor") && $0.contains("update  Category 1") && $0.hasSuffix("name Home → House") },
                "\(result.stdout)")
        #expect(lines.contains { $0.hasPrefix("4 ") && $0.hasSuffix("name House → Cottage") }, "\(result.stdout)")
        #expect(!lines.contains { $0.contains("ToDo ") }, "no other object's changes")
        #expect(lines.contains("(3 transactions; the last token is 4)"))
        #expect(lines.last == "now: name=Cottage", "\(lines.last ?? "")")
        let bad = try cli.run(["history", "--store", store, "--object", "x-coredata://elsewhere/Category/p1"])
        #expect(bad.status != 0 && bad.stderr.contains("--object x-coredata://elsewhere/Category/p1: an object's URI"), "\(bad.stderr)")
    }

    @Test("--revert takes a transaction back in a new one; --dry-run shows what it would write; a later change of the same value refuses it")
    func revert() throws {
        let (cli, store) = try trackedStore()
        do {
            let coordinator = PersistentStoreCoordinator(model: try ModelFixtures.toDoModel())
            try coordinator.addStore(type: .sqlite, at: URL(fileURLWithPath: store), options: StoreOptions(tracksHistory: true))
            let context = ManagedObjectContext(coordinator: coordinator)
            context.transactionAuthor = "editor"
            let home = try #require(try context.fetch(FetchRequest(entityName: "Category")).first { $0.objectID.primaryKey == 1 })
            home["name"] = "House"
            try context.save()
            coordinator.removeStore(coordinator.stores[0])
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let dry = try cli.run(["history", "--store", store, "--revert", "3", "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("by editor: 1 change. Taking it back would write:"), "\(dry.stdout)")
        #expect(dry.stdout.contains("  restore Category 1: name House → Home"), "\(dry.stdout)")
        #expect(dry.stdout.hasSuffix("(a dry run: nothing written)\n"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before, "the file untouched")

        let done = try cli.run(["history", "--store", store, "--revert", "3"])
        #expect(done.status == 0, "\(done.stderr)")
        #expect(done.stdout.contains("Taken back in transaction 4 (author “termdata revert”)."), "\(done.stdout)")
        let uri = try #require(try cli.run(["history", "--store", store, "--format", "json"]).stdout
            .components(separatedBy: "\"").first { $0.hasSuffix("/Category/p1") })
        let story = try cli.run(["history", "--store", store, "--object", uri])
        #expect(story.stdout.contains("termdata revert"), "\(story.stdout)")
        #expect(story.stdout.hasSuffix("now: name=Home\n"), "\(story.stdout)")

        // The revert changed the name after transaction 3: taking 3 back again is refused.
        let again = try cli.run(["history", "--store", store, "--revert", "3"])
        #expect(again.status != 0)
        #expect(again.stderr.contains("transaction 3 cannot be taken back"), "\(again.stderr)")
        #expect(again.stderr.contains("Category 1: transaction 4 (termdata revert, revert of transaction 3) changed name after"), "\(again.stderr)")
        let missing = try cli.run(["history", "--store", store, "--revert", "40"])
        #expect(missing.status != 0 && missing.stderr.contains("no transaction 40"), "\(missing.stderr)")
    }

    @Test("--since, --author and --entity choose transactions; json lists them with their changes")
    func filtersAndJSON() throws {
        let (cli, store) = try trackedStore()
        let since = try cli.run(["history", "--store", store, "--since", "1", "--format", "json"])
        #expect(since.status == 0, "\(since.stderr)")
        let transactions = try #require(try JSONSerialization.jsonObject(with: Data(since.stdout.utf8)) as? [[String: Any]])
        #expect(transactions.map { $0["author"] as? String } == ["termdata import"])
        let changes = try #require(transactions.first?["changes"] as? [[String: Any]])
        #expect(changes.count == 6)
        #expect(changes.allSatisfy { $0["type"] as? String == "insert" && ($0["object"] as? String)?.hasPrefix("x-coredata://") == true })

        let byAuthor = try cli.run(["history", "--store", store, "--author", "tester"])
        #expect(byAuthor.stdout.contains("(1 transaction;"))
        let byEntity = try cli.run(["history", "--store", store, "--entity", "ToDo"])
        #expect(byEntity.stdout.contains("(4 changes)"))
        let bad = try cli.run(["history", "--store", store, "--since", "soon"])
        #expect(bad.status != 0 && bad.stderr.contains("a token is a transaction number"), "\(bad.stderr)")
    }

    @Test("--delete-through removes history up to a token; the objects stay")
    func deleting() throws {
        let (cli, store) = try trackedStore()
        let removed = try cli.run(["history", "--store", store, "--delete-through", "1"])
        #expect(removed.stdout == "Removed 1 transaction of history.\n", "\(removed.stderr)")
        #expect(try cli.run(["history", "--store", store]).stdout.contains("(1 transaction;"))
        #expect(try cli.run(["query", "--store", store, "--model", "ToDo", "Category", "--count"]).stdout == "3\n")
    }

    @Test("an XML store is said to keep no history")
    func xmlStore() throws {
        let cli = try CommandLineSession()
        let graph = try cli.write(StoreCommandTests.graph, to: "todo.json")
        _ = try cli.run(["import", "--store", "T.xml", "--model", "ToDo", graph])
        let result = try cli.run(["history", "--store", "T.xml", "--model", "ToDo"])
        #expect(result.status != 0 && result.stderr.contains("keeps no history (SQLite and PostgreSQL stores do)"), "\(result.stderr)")
    }
}
