import Foundation
import Testing
import TestSupport
import ToDoApp

/// The real `termdata` binary on a pseudo-terminal under tmux, used as a person would:
/// add an item, save it with Ctrl-S, give it a due date, create a category in the panel and
/// give it to the item, quit, then read the item back with `termdata query`.
@Suite("ToDo on a real terminal", .serialized)
struct ToDoTerminalTests {
    /// The built `termdata` beside the tests.
    static func termdata() throws -> URL {
        try #require(TmuxSession.binary(named: "termdata"), "termdata was not built next to the tests")
    }

    /// The ToDo items of a store as `termdata query` prints them in CSV: `@id,name` lines.
    static func storedLines(_ store: URL) throws -> [String] {
        try TermDataProcess.run(["query", "--store", store.path, "ToDo", "--keys", "name", "--format", "csv"])
            .stdout.split(separator: "\n").map(String.init)
    }

    /// A ToDo store in `folder` of 8,000 items in one category, imported by `termdata import`,
    /// for `ToDoFixture.slowFilter`.
    static func itemsInOneCategory(in folder: URL) throws -> URL {
        let items = (0..<8_000).map { #"{"@id": "t\#($0)", "name": "item \#($0)", "category": "c"}"# }.joined(separator: ",")
        let graph = folder.appendingPathComponent("items.json")
        try Data(#"{"format": "termdata-graph", "version": 1, "entities": {"Category": [{"@id": "c", "name": "Home"}], "ToDo": [\#(items)]}}"#.utf8)
            .write(to: graph)
        let store = folder.appendingPathComponent("termdata/ToDo.sqlite")
        let imported = try TermDataProcess.run(["import", "--store", store.path, "--model", "ToDo", graph.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        return store
    }

    @Test("add an item with a due date, give it a new category, quit, and query it back")
    func endToEnd() throws {
        let termdata = try Self.termdata()
        let session = try TmuxSession(width: 100, height: 30)
        let data = session.directory.appendingPathComponent("xdg").path
        let dir = session.directory.path
        try session.typeLine("stty -g > \(dir)/before; XDG_DATA_HOME=\(data) XDG_STATE_HOME=\(data)/state \(termdata.path); echo \"EXIT=$?\" > \(dir)/exit; stty -g > \(dir)/after; echo DONE")
        var screen = try session.waitFor { $0.contains { $0.contains("Welcome!") } && $0.last?.contains("1 item") == true }
        #expect(screen[1].hasPrefix("┌─ ToDo — ToDo.sqlite"))

        // A new item, named in place.
        try session.send("a")
        try session.tmux(["send-keys", "-l", "Repot the fern"])
        try session.send("Enter")
        screen = try session.waitFor { $0.contains { $0.contains("Repot the fern") } && $0.last?.contains("2 items") == true }

        // Ctrl-S saves (the terminal's flow control is off), and the saved row stays.
        try session.send("C-s")
        screen = try session.waitFor { $0.last?.contains("2 items · saved") == true }
        #expect(screen.contains { $0.contains("│Repot the fern") })

        // Its due date: the date editor's "today".
        try session.send("l", "e", "t", "Enter")
        let today = ISO8601DateFormatter.string(from: Date(), timeZone: .current, formatOptions: [.withFullDate])
        screen = try session.waitFor { $0.contains { $0.contains("Repot the fern") && $0.contains(today) } }
        #expect(screen.contains { $0.contains("Repot the fern") && $0.contains(today) })

        // A new category in the panel.
        try session.send("c")
        _ = try session.waitFor { $0.contains { $0.contains("Categories") } }
        try session.send("a")
        try session.tmux(["send-keys", "-l", "Garden"])
        try session.send("Enter")
        _ = try session.waitFor { $0.contains { $0.contains("│Garden") } }
        try session.send("Escape")
        _ = try session.waitFor { !$0.contains { $0.contains("Categories") } }

        // The item gets it in the detail form: Tab to the form, the last field, choose.
        try session.send("Tab", "G", "Enter")
        _ = try session.waitFor { $0.contains { $0.contains("Garden") } }
        try session.send("Down", "Down", "Enter")
        screen = try session.waitFor { $0.contains { $0.contains("Category: Garden") } }
        #expect(screen.contains { $0.contains("Category: Garden") })

        // A paste is text: its line break becomes a space and its "d" deletes nothing.
        try session.send("BTab", "a")
        try session.tmux(["set-buffer", "Water\nd the roses"])
        try session.tmux(["paste-buffer", "-p"])
        try session.send("Enter")
        screen = try session.waitFor { $0.contains { $0.contains("Water d the roses") } && $0.last?.contains("3 items") == true }
        #expect(screen.contains { $0.contains("│Water d the roses") })
        #expect(screen.contains { $0.contains("│Repot the fern") })

        // Sorted by name, the new order is kept for the next start.
        try session.send("g", "s")
        screen = try session.waitFor { $0.contains { $0.contains("Item ▲") } }

        // q saves and quits; the terminal is as it was.
        try session.send("q")
        let exit = session.waitForFile("exit")
        #expect(exit == "EXIT=0\n")
        let layout = try ToDoViewSettings.load(from: URL(fileURLWithPath: "\(data)/state/termdata/ToDo-view.json"))
        #expect(layout.items?.sortColumn == "name")
        let before = try? String(contentsOf: session.file("before"), encoding: .utf8)
        let after = session.waitForFile("after")
        #expect(before != nil && before == after)

        let query = try TermDataProcess.run(["query", "ToDo", "category.name == 'Garden'", "--keys", "name,category.name,dueDate",
                                             "--format", "json"], environment: ["XDG_DATA_HOME": data])
        #expect(query.status == 0, "\(query.stderr)")
        let rows = try JSONSerialization.jsonObject(with: Data(query.stdout.utf8)) as? [[String: Any]]
        #expect(rows?.count == 1)
        #expect(rows?.first?["name"] as? String == "Repot the fern")
        #expect((rows?.first?["dueDate"] as? String)?.isEmpty == false)
    }

    @Test("the terminal going away (tmux killed: SIGHUP, then more, and input ends) saves the changes, every time")
    func hangupSaves() throws {
        let termdata = try Self.termdata()
        let data = try Fixtures.temporaryDirectory("hangup")
        for attempt in 1...5 {
            let session = try TmuxSession(width: 100, height: 30)
            let store = data.appendingPathComponent("run\(attempt)")
            // Under `sh -c`, as a terminal's command runs it: the dying shell passes on more hangups.
            try session.typeLine("sh -c 'XDG_DATA_HOME=\(store.path) XDG_STATE_HOME=\(store.path)/state \(termdata.path); echo done'")
            _ = try session.waitFor { $0.last?.contains("1 item") == true }
            try session.send("a")
            try session.tmux(["send-keys", "-l", "Saved on hangup \(attempt)"])
            try session.send("Enter")
            _ = try session.waitFor { $0.last?.contains("1 unsaved change") == true }
            try session.tmux(["kill-server"])
            let file = store.appendingPathComponent("termdata/ToDo.sqlite")
            var names: [String] = []
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                names = try Self.storedLines(file)
                if names.contains(where: { $0.hasSuffix(",Saved on hangup \(attempt)") }) { break }
                Thread.sleep(forTimeInterval: 0.1)
            }
            #expect(names.contains { $0.hasSuffix(",Saved on hangup \(attempt)") }, "attempt \(attempt): \(names)")
        }
    }

    @Test("a filter that would run for many seconds stops at Ctrl-C, and the application answers at once")
    func slowFilterStops() throws {
        let termdata = try Self.termdata()
        let data = try Fixtures.temporaryDirectory("slow-filter")
        let store = try Self.itemsInOneCategory(in: data)

        let session = try TmuxSession(width: 100, height: 30)
        let dir = session.directory.path
        try session.typeLine("XDG_STATE_HOME=\(data.path)/state \(termdata.path) --store \(store.path); echo \"EXIT=$?\" > \(dir)/exit")
        _ = try session.waitFor { $0.last?.contains("8000 items") == true }
        try session.send("/")
        try session.tmux(["send-keys", "-l", ToDoFixture.slowFilter])
        try session.send("Enter")
        Thread.sleep(forTimeInterval: 1)
        let pressed = Date()
        try session.send("C-c")
        let exit = session.waitForFile("exit", timeout: 30)
        let seconds = Date().timeIntervalSince(pressed)
        #expect(exit == "EXIT=0\n")
        #expect(seconds < 5, "Ctrl-C stopped the query: the application quit \(seconds) s after it")
    }

    @Test("while a slow filter runs, help opens at once and the status bar counts; Esc stops the filter, q quits")
    func keysAnswerDuringSlowFilter() throws {
        let termdata = try Self.termdata()
        let data = try Fixtures.temporaryDirectory("busy-filter")
        let store = try Self.itemsInOneCategory(in: data)

        let session = try TmuxSession(width: 100, height: 30)
        let dir = session.directory.path
        try session.typeLine("XDG_STATE_HOME=\(data.path)/state \(termdata.path) --store \(store.path); echo \"EXIT=$?\" > \(dir)/exit")
        _ = try session.waitFor { $0.last?.contains("8000 items") == true }
        try session.send("/")
        try session.tmux(["send-keys", "-l", ToDoFixture.slowFilter])
        try session.send("Enter")
        _ = try session.waitFor { $0.last?.contains("Filtering…") == true }
        // Help is answered while the filter runs: the frame shows both.
        try session.send("?")
        var screen = try session.waitFor(timeout: 5) { $0.contains { $0.contains("─ Keys ─") } }
        #expect(screen.last?.contains("Filtering…") == true, "the filter still runs: \(screen.last ?? "")")
        // Its time moves on in the status bar.
        _ = try session.waitFor { $0.last.map { $0.contains("Filtering… 2.") || $0.contains("Filtering… 3.") } == true }
        try session.send("Escape")
        _ = try session.waitFor { !$0.contains { $0.contains("─ Keys ─") } }
        try session.send("Escape")
        screen = try session.waitFor { $0.last?.contains("Stopped: Filtering") == true }
        #expect(screen.last?.contains("8000 items") == true, "the items as they were")
        try session.send("q")
        #expect(session.waitForFile("exit", timeout: 10) == "EXIT=0\n")
    }

    @Test("Esc stops a slow filter that runs on the key loop (the context has unsaved changes); keys typed meanwhile still count")
    func escapeStopsBusyLoop() throws {
        let termdata = try Self.termdata()
        let data = try Fixtures.temporaryDirectory("busy-loop")
        let store = try Self.itemsInOneCategory(in: data)

        let session = try TmuxSession(width: 100, height: 30)
        let dir = session.directory.path
        try session.typeLine("XDG_STATE_HOME=\(data.path)/state \(termdata.path) --store \(store.path); echo \"EXIT=$?\" > \(dir)/exit")
        _ = try session.waitFor { $0.last?.contains("8000 items") == true }
        // An unsaved change: only the application's own context can filter now, on its loop.
        try session.send("Space")
        _ = try session.waitFor(timeout: 20) { $0.last?.contains("1 unsaved change") == true }
        try session.send("/")
        try session.tmux(["send-keys", "-l", ToDoFixture.slowFilter])
        try session.send("Enter")
        Thread.sleep(forTimeInterval: 1)
        try session.send("j", "j")
        Thread.sleep(forTimeInterval: 0.3)
        let pressed = Date()
        try session.send("Escape")
        // The filter would run on for many seconds: the two j typed meanwhile come through only once it
        // has stopped, and then move the selection two rows down.
        // A loaded machine may hand the Esc to the loop before the filter holds it; a person
        // would press it again, and so does the test, at most twice more.
        var screen: [String] = []
        for attempt in 0..<3 {
            if attempt > 0 { try session.send("Escape") }
            if let shown = try? session.waitFor(timeout: 8) { $0.contains { $0.contains("Item: item 2") } } {
                screen = shown
                break
            }
        }
        let seconds = Date().timeIntervalSince(pressed)
        #expect(screen.contains { $0.contains("Item: item 2") }, "the filter went on: \((try? session.screen())?.joined(separator: "\n") ?? "")")
        #expect(seconds < 25, "Esc stopped the filter \(seconds) s after it was first pressed")
        #expect(screen.last?.contains("8000 items") == true && screen.last?.contains("filter:") == false,
                "the items as they were, unfiltered: \(screen.last ?? "")")
    }

    @Test("SIGTERM saves the changes and termdata exits with 143, as a program ended by SIGTERM does")
    func terminateSavesAndSaysSo() throws {
        let termdata = try Self.termdata()
        let session = try TmuxSession(width: 100, height: 30)
        let dir = session.directory.path
        let store = session.directory.appendingPathComponent("ToDo.sqlite")
        try session.typeLine("sh -c 'echo $$ > \(dir)/pid; exec env XDG_STATE_HOME=\(dir)/state \(termdata.path) --store \(store.path)'; "
                             + "echo \"EXIT=$?\" > \(dir)/exit")
        _ = try session.waitFor { $0.last?.contains("1 item") == true }
        try session.send("a")
        try session.tmux(["send-keys", "-l", "Saved on SIGTERM"])
        try session.send("Enter")
        _ = try session.waitFor { $0.last?.contains("1 unsaved change") == true }
        let pid = try #require(session.waitForFile("pid").flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        kill(pid, SIGTERM)
        #expect(session.waitForFile("exit") == "EXIT=143\n")
        let names = try Self.storedLines(store)
        #expect(names.contains { $0.hasSuffix(",Saved on SIGTERM") }, "\(names)")
    }
}
