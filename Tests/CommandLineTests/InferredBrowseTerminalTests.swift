import Foundation
import GRDB
import Testing
import TestSupport

/// `termdata browse` on a real pseudo-terminal, on a Core Data store found without its model:
/// it opens on the model inferred from the layout, read-only, and follows relationships.
@Suite("Browsing a store without its model, on a real terminal", .serialized)
struct InferredBrowseTerminalTests {
    @Test("opens without --model, read-only, and Enter on a person's cars follows them")
    func browseInferred() throws {
        let termdata = try #require(TmuxSession.binary(named: "termdata"), "termdata was not built next to the tests")
        let session = try TmuxSession(width: 120, height: 30)
        let store = session.file("Cars.sqlite")
        try FileManager.default.copyItem(at: ModelFixtures.sampleStoreV1, to: store)
        let queue = try DatabaseQueue(path: store.path)
        try queue.write { try $0.execute(sql: "DROP TABLE Z_MODELCACHE") }
        try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = DELETE") }
        try queue.close()
        let before = try Data(contentsOf: store)

        try session.typeLine("\(termdata.path) browse --store \(store.path); echo DONE")
        var screen = try session.waitFor { $0.last?.contains("125 Car · read-only") == true }
        #expect(screen.last?.contains("inferred from the store's layout") == true)
        // The entity list, down to Person; its objects, down to Edythe (one car); right to cars.
        try session.send("BTab", "Down", "Down")
        _ = try session.waitFor { $0.last?.contains("20 Person") == true }
        try session.send("Tab", "Down", "Right", "Right", "Right", "Right", "Enter")
        screen = try session.waitFor { $0.last?.contains("1 Car · Person “Edythe” › cars") == true }
        #expect(screen.contains { $0.contains("(1 back)") })
        try session.send("q")
        _ = try session.waitFor { $0.contains { $0.contains("DONE") } }
        #expect(try Data(contentsOf: store) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: session.directory.path).filter { $0.hasPrefix("Cars.sqlite") } == ["Cars.sqlite"])
    }

    @Test("a store whose entity table is a view that never ends: Esc stops its count, which shows ?, and q quits")
    func endlessView() throws {
        let termdata = try #require(TmuxSession.binary(named: "termdata"), "termdata was not built next to the tests")
        let session = try TmuxSession(width: 100, height: 30)
        let store = session.file("Endless.sqlite")
        let graph = session.file("one.json")
        try Data(#"{"format": "termdata-graph", "version": 1, "entities": {"Category": [{"@id": "c", "name": "Home"}]}}"#.utf8).write(to: graph)
        let imported = try TermDataProcess.run(["import", "--store", store.path, "--model", "ToDo", graph.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        // Another program put a view that never ends where the items' table was.
        let queue = try DatabaseQueue(path: store.path)
        try queue.write { db in
            let number = try Int.fetchOne(db, sql: "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'ToDo'") ?? 0
            try db.execute(sql: "DROP TABLE ZTODO")
            try db.execute(sql: """
                CREATE VIEW ZTODO AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)
                SELECT n AS Z_PK, \(number) AS Z_ENT, 1 AS Z_OPT, 0 AS ZCOMPLETED, 0 AS ZDONOTALERT, NULL AS ZCATEGORY,
                       NULL AS ZDUEDATE, NULL AS ZLASTALERTDATE, 'endless' AS ZNAME FROM r
                """)
        }
        try queue.close()

        try session.typeLine("\(termdata.path) browse --store \(store.path) --model ToDo --read-only; echo DONE")
        // The entity list counts each entity as it is drawn: the items' count does not end.
        Thread.sleep(forTimeInterval: 1.5)
        try session.send("Escape")
        var screen = try session.waitFor(timeout: 20) { $0.contains { $0.contains("│ToDo") && $0.contains("?") } }
        #expect(screen.contains { $0.contains("│Category") && $0.contains("1│") }, "\(screen.joined(separator: "\n"))")
        // What the stopped frame left out comes with the next one; the stopped counts stay "?",
        // not started again (the category's items are counted in the same view).
        try session.send("C-l")
        screen = try session.waitFor(timeout: 20) { $0.contains { $0.contains("│Home") } }
        #expect(screen.contains { $0.contains("│Home") && $0.hasSuffix("?│") }, "\(screen.joined(separator: "\n"))")
        try session.send("q")
        _ = try session.waitFor(timeout: 20) { $0.contains { $0.contains("DONE") } }
    }
}

