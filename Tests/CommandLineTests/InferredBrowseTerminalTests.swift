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
}
