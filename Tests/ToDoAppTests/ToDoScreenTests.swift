import Foundation
import Testing
import ObjectGraph
import TerminalUI
import ToDoApp
import TestSupport

/// The ToDo application's screens, whole: every row compared with a snapshot in
/// `Tests/ToDoAppTests/Screens/`, so a layout regression fails. The clock is a fixed local
/// time, so the seeded welcome item is due "2026-11-22 09:00" in any time zone.
@Suite("ToDo screens")
struct ToDoScreenTests {
    let folder: URL
    static let now = Calendar.current.date(from: DateComponents(year: 2026, month: 11, day: 21, hour: 12, minute: 24))!

    init() throws {
        folder = try Fixtures.temporaryDirectory("todo-screens")
    }

    func launch(width: Int = 80, height: Int = 24) throws -> (ToDoApplication, MemoryDriver) {
        let store = try ToDoStore.open(at: folder.appendingPathComponent("ToDo.sqlite"), type: .sqlite, now: Self.now)
        let driver = MemoryDriver(size: Size(width: width, height: height))
        let todo = try ToDoApplication(store: store, driver: driver, now: { Self.now },
                                       viewSettingsURL: folder.appendingPathComponent("view.json"))
        todo.app.runScript("")
        return (todo, driver)
    }

    func check(_ lines: [String], _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        assertScreen(lines, snapshot: name, target: "ToDoAppTests", sourceLocation: sourceLocation)
    }

    @Test("the first screen: the welcome item selected, its details below, the hints and the count")
    func firstScreen() throws {
        let (_, driver) = try launch()
        check(driver.screenLines, "todo-first")
    }

    @Test("master and detail after adding items and marking one done")
    func afterEdits() throws {
        let (todo, _) = try launch()
        check(todo.app.runScript("aBuy milk<Enter><Space>aCall Ada<Enter>"), "todo-after-edits")
    }

    @Test("the category panel floats over the items with the category's own items")
    func categoryPanel() throws {
        let (todo, _) = try launch()
        check(todo.app.runScript("c"), "todo-category-panel")
    }

    @Test("help lists the keys that apply where the focus is")
    func help() throws {
        let (todo, _) = try launch()
        check(todo.app.runScript("?"), "todo-help")
    }

    @Test("a filter that does not parse shows where, with a caret")
    func filterError() throws {
        let (todo, _) = try launch()
        check(todo.app.runScript("/name LIKE<Enter>"), "todo-filter-error")
    }

    @Test("Ctrl-C with an unsaved change asks, Save and quit first")
    func quitQuestion() throws {
        let (todo, _) = try launch()
        check(todo.app.runScript("aBuy milk<Enter><C-c>"), "todo-quit-question")
    }

    @Test("a save that meets another window's save asks whose values win")
    func conflictDialog() throws {
        let (todo, _) = try launch()
        let other = try ToDoStore.open(at: folder.appendingPathComponent("ToDo.sqlite"), type: .sqlite, seeded: false)
        let item = try #require(try other.context.fetch(FetchRequest(entityName: "ToDo")).first)
        item["name"] = "Theirs"
        try other.context.save()
        check(todo.app.runScript("<Enter><C-u>Mine<Enter><C-s>"), "todo-conflict")
    }

    @Test("the README's screen is this test's snapshot, so it cannot drift")
    func readmeScreen() throws {
        let (todo, _) = try launch(width: 80, height: 16)
        let lines = todo.app.runScript("aBuy milk<Enter>")
        check(lines, "todo-readme")
        let readme = Fixtures.packageRoot.appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let marker = "<!-- screen: Tests/ToDoAppTests/Screens/todo-readme.txt -->\n```\n"
        let start = try #require(text.range(of: marker), "README.md marks its screen with \(marker)")
        let end = try #require(text.range(of: "\n```", range: start.upperBound..<text.endIndex))
        let shown = String(text[start.upperBound..<end.lowerBound]).components(separatedBy: "\n")
        if ScreenSnapshots.isRecording {
            try (text.replacingCharacters(in: start.upperBound..<end.lowerBound, with: lines.joined(separator: "\n")))
                .write(to: readme, atomically: true, encoding: .utf8)
        } else {
            #expect(shown == lines, "README.md shows another screen; TERMDATA_RECORD_SCREENS=1 swift test --filter readmeScreen rewrites it")
        }
    }
}
