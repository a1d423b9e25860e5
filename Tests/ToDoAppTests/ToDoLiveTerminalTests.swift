import Foundation
import ObjectGraph
import Predicates
import Testing
import TestSupport
import ToDoApp

/// Two real processes on one store: the ToDo app on a pseudo-terminal under tmux, and
/// writers beside it (`termdata import`, and this test's own stack, as a phone's app would
/// be). The app shows the others' saves as they happen, and a conflict goes through the
/// dialog with nothing lost.
@Suite("ToDo on a real terminal, beside another writer", .serialized)
struct ToDoLiveTerminalTests {
    @Test("another process's import shows within seconds; an edit that meets another save asks, and both sides' fields survive")
    func liveRefreshAndConflict() throws {
        let termdata = try ToDoTerminalTests.termdata()
        let session = try TmuxSession(width: 100, height: 30)
        let data = session.directory.appendingPathComponent("xdg").path
        let dir = session.directory.path
        try session.typeLine("XDG_DATA_HOME=\(data) XDG_STATE_HOME=\(data)/state \(termdata.path); echo \"EXIT=$?\" > \(dir)/exit")
        _ = try session.waitFor { $0.contains { $0.contains("Welcome!") } && $0.last?.contains("1 item") == true }
        let store = URL(fileURLWithPath: "\(data)/termdata/ToDo.sqlite")

        // Another process imports an item: it appears, and the status line says who added it.
        let graph = session.file("item.json")
        try Data(#"{"format": "termdata-graph", "version": 1, "entities": {"ToDo": [{"@id": "t", "name": "Imported from afar"}]}}"#.utf8)
            .write(to: graph)
        let imported = try TermDataProcess.run(["import", "--store", store.path, graph.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        var screen = try session.waitFor { $0.contains { $0.contains("│Imported from afar") } && $0.last?.contains("2 items") == true }
        #expect(screen.contains { $0.contains("Updated by termdata import: 1 added") })
        #expect(screen.contains { $0.contains("│Welcome!") }, "the welcome item is still there")

        // The user renames the welcome item (unsaved); meanwhile another writer renames it and marks it done.
        let welcomeRow = try #require(screen.firstIndex { $0.contains("│Welcome!") })
        let importedRow = try #require(screen.firstIndex { $0.contains("│Imported from afar") })
        if importedRow < welcomeRow { try session.send("j") } else if !screen.contains(where: { $0.contains("Item: Welcome!") }) { try session.send("k") }
        _ = try session.waitFor { $0.contains { $0.contains("Item: Welcome!") } }
        try session.send("Enter", "C-u")
        try session.tmux(["send-keys", "-l", "Mine"])
        try session.send("Enter")
        _ = try session.waitFor { $0.last?.contains("1 unsaved change") == true }

        let phone = try ToDoStore.open(at: store, type: .sqlite, seeded: false)
        phone.context.transactionAuthor = "phone"
        let item = try #require(try phone.context.fetch(FetchRequest(entityName: "ToDo", predicate: try ObjectPredicate(format: "name BEGINSWITH 'Welcome'"))).first)
        item["name"] = "Theirs"
        item["completed"] = true
        try phone.context.save()
        // The user's name stays on screen, and the form marks the field changed on both sides.
        screen = try session.waitFor {
            $0.contains { $0.contains("Changed by phone too; saving will ask") } && $0.contains { $0.contains("│Mine") }
                && $0.contains { $0.contains("Changed by phone to “Theirs” too") }
        }

        // Saving asks, naming the field both changed; Keep mine keeps the name and takes their "done".
        try session.send("C-s")
        // The dialog's title and its lines arrive in one frame, which tmux may show half
        // drawn when the machine is busy: the wait is for both (a missing line times out).
        screen = try session.waitFor { $0.contains { $0.contains("Changed elsewhere") } && $0.contains { $0.contains("name changed on both sides") } }
        try session.send("Enter")
        _ = try session.waitFor { $0.last?.contains("saved") == true && !$0.contains { $0.contains("Changed elsewhere") } }
        try session.send("q")
        #expect(session.waitForFile("exit") == "EXIT=0\n")

        let rows = try TermDataProcess.run(["query", "--store", store.path, "ToDo", "--keys", "name,completed", "--sort", "name", "--format", "csv"])
        #expect(rows.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",", maxSplits: 1).last.map(String.init) ?? "" }
                == ["Imported from afar,false", "Mine,true"], "\(rows.stdout)")
    }
}
