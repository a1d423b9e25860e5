import Testing
import TestSupport
@testable import TerminalUI

@Suite("Help, palette, menus, prompt and panels")
struct OverlayTests {
    func tableApp(size: Size = Size(width: 60, height: 16)) -> TableHarness {
        TableHarness(rows: RecordingRows(count: 30), size: size)
    }

    @Test("? opens help listing the live key map: the focused table's keys, then the global ones")
    func help() {
        let harness = tableApp(size: Size(width: 60, height: 40))
        let screen = harness.run("?")
        let text = screen.joined(separator: "\n")
        #expect(text.contains("─ Keys ─"))
        #expect(text.contains("j, ↓") && text.contains("Next row"))
        #expect(text.contains("q, Ctrl-Q") && text.contains("Quit"))
        #expect(text.contains("?, F1"))
        let nextRow = screen.firstIndex { $0.contains("Next row") }!
        let quit = screen.firstIndex { $0.contains(" Quit ") }!
        #expect(nextRow < quit)
        harness.run("j")
        #expect(harness.table.state.selectedRow == 0)
        harness.run("<Esc>j")
        #expect(harness.table.state.selectedRow == 1)
    }

    @Test("a dialog's title never runs into its close marker: the dialog widens, or on a narrow screen the title is cut")
    func dialogTitle() {
        let wide = tableApp(size: Size(width: 60, height: 16))
        wide.app.alert(title: "Filter not applied", message: "no")
        let top = wide.run("").first { $0.contains("Filter not applied") } ?? ""
        #expect(top.contains("─ Filter not applied ─") && top.contains("─[x]─┐"), "\(top)")
        let narrow = tableApp(size: Size(width: 24, height: 16))
        narrow.app.alert(title: "Filter not applied to the items", message: "no")
        let cut = narrow.run("").first { $0.contains("[x]") } ?? ""
        #expect(cut.contains("…") && cut.contains(" ─[x]─┐"), "\(cut)")
    }

    @Test("the help overlay scrolls when the key map is longer than the screen")
    func helpScrolls() {
        let harness = tableApp(size: Size(width: 60, height: 12))
        var screen = harness.run("<F1>")
        #expect(screen.contains { $0.contains("Next row") })
        #expect(screen.contains { $0.contains("1–8 of ") && $0.contains("scroll") }, "it says there is more: \(screen.joined(separator: "\n"))")
        screen = harness.run("GG")
        #expect(!screen.contains { $0.contains("Next row") })
        #expect(screen.contains { $0.contains("Redraw the screen") })
    }

    @Test("the command palette filters commands by typed words and runs the chosen one")
    func palette() {
        let harness = tableApp()
        var screen = harness.run(":last row")
        #expect(screen.contains { $0.contains("Last row") && $0.contains("G, End") })
        #expect(!screen.contains { $0.contains("Next row") })
        screen = harness.run("<Enter>")
        #expect(harness.table.state.selectedRow == 29)
        #expect(harness.app.windows.count == 1)
        harness.run("<C-p>nomatchatall")
        #expect(harness.driver.screenLines.contains { $0.contains("no matching command") })
        harness.run("<Esc>")
        #expect(harness.app.windows.count == 1)
    }

    @Test("F9 opens the menu bar with each item's keys from the live commands; arrows pick and Enter runs the item's command")
    func menuBar() {
        let harness = tableApp()
        harness.app.menuBar = MenuBar([
            Menu("File", items: [MenuItem("Quit", command: "app.quit")]),
            Menu("Table", items: [MenuItem("First row", command: "table.top"), MenuItem("Last row", command: "table.bottom")]),
        ])
        harness.app.relayout()
        var screen = harness.run("<F9>")
        #expect(screen[0] == " File  Table")
        #expect(screen[1].hasPrefix("┌─────────────────┐"))
        #expect(screen[2].hasPrefix("│ Quit  q, Ctrl-Q │"))
        screen = harness.run("<Right>")
        #expect(screen[1].contains("┌────────────────────┐"))
        #expect(screen[2].contains("│ First row  g, Home │"))
        #expect(screen[3].contains("│ Last row    G, End │"))
        harness.run("j<Enter>")
        #expect(harness.table.state.selectedRow == 29)
        #expect(harness.app.menuBar?.isOpen == false)
    }

    @Test("a click on a menu title opens it and a click on an item runs it")
    func menuMouse() {
        let harness = tableApp()
        harness.app.menuBar = MenuBar([
            Menu("File", items: [MenuItem("Quit", command: "app.quit")]),
            Menu("Table", items: [MenuItem("Last row", command: "table.bottom")]),
        ])
        harness.app.relayout()
        harness.driver.click(x: 8, y: 0)
        harness.run("")
        #expect(harness.app.menuBar?.openIndex == 1)
        harness.driver.click(x: 9, y: 2)
        harness.run("")
        #expect(harness.table.state.selectedRow == 29)
    }

    @Test("the prompt line takes typed input and reports each change")
    func prompt() {
        let harness = tableApp()
        var changes: [String] = []
        var submitted: String?
        harness.app.beginPrompt("Filter: ", onChange: { changes.append($0) }) { submitted = $0 }
        var screen = harness.run("ab<BS>c")
        #expect(screen[15] == "Filter: ac")
        #expect(changes == ["a", "ab", "a", "ac"])
        #expect(harness.driver.screen?.cursor == Point(x: 10, y: 15))
        screen = harness.run("<Enter>")
        #expect(submitted == "ac")
        #expect(harness.app.prompt == nil)
        #expect(screen[15].hasPrefix("s Sort"), "the hints are back")
    }

    @Test("↑ and ↓ on the prompt walk its history, newest first, and bring back what was typed before")
    func promptHistory() {
        let harness = tableApp()
        var submitted: String?
        harness.app.beginPrompt("Filter: ", history: ["done == NO", "name CONTAINS 'milk'"]) { submitted = $0 }
        var screen = harness.run("mi<Up>")
        #expect(screen[15] == "Filter: name CONTAINS 'milk'")
        screen = harness.run("<Up><Up>")
        #expect(screen[15] == "Filter: done == NO", "the oldest stays at the top")
        screen = harness.run("<Down>")
        #expect(screen[15] == "Filter: name CONTAINS 'milk'")
        screen = harness.run("<Down>")
        #expect(screen[15] == "Filter: mi", "what was typed comes back")
        harness.run("<Up>X<Enter>")
        #expect(submitted == "name CONTAINS 'milk'X", "a recalled entry can be edited")
    }

    @Test("Tab on the prompt asks for a completion at the end of the text; several candidates are listed until the next key")
    func promptCompletion() {
        let harness = tableApp()
        var asked: [String] = []
        harness.app.beginPrompt("Filter: ", complete: { text in
            asked.append(text)
            return text.hasSuffix("na") ? PromptCompletion(text: text + "me") : PromptCompletion(text: text, candidates: ["alpha", "beta"])
        }) { _ in }
        var screen = harness.run("na<Tab>")
        #expect(screen[15] == "Filter: name")
        screen = harness.run(" x<Tab>")
        #expect(screen[15].hasPrefix("Filter: name x") && screen[15].hasSuffix(" alpha  beta"), "\(screen[15])")
        screen = harness.run("<Left><Tab>")
        #expect(asked == ["na", "name x"], "Tab with the cursor inside the text asks nothing")
        screen = harness.run("y")
        #expect(!screen[15].contains("alpha"), "the list goes with the next key")
    }

    @Test("a long paste into the prompt is one change and one undo step, cut to the prompt's length with a notice")
    func promptPaste() {
        let harness = tableApp(size: Size(width: 80, height: 16))
        var changes: [String] = []
        var submitted: String?
        harness.app.beginPrompt("Filter: ", onChange: { changes.append($0) }) { submitted = $0 }
        harness.run("x")
        harness.driver.send(.paste(String(repeating: "milk and\nhoney ", count: 1_200)))   // 18,000 characters
        var screen = harness.run("")
        #expect(changes.count == 2, "one change for the key, one for the whole paste")
        #expect(changes.last?.count == 4_096)
        #expect(changes.last?.hasPrefix("xmilk and honey milk") == true, "line breaks become spaces")
        #expect(screen[15].hasSuffix(" at most 4096 characters: the rest was left out"), "\(screen[15])")
        screen = harness.run("y")
        #expect(changes.count == 2, "a key past the length is not taken")
        #expect(screen[15].contains("at most 4096 characters"))
        screen = harness.run("<C-_>")
        #expect(changes.last == "x", "one undo takes the paste back")
        #expect(!screen[15].contains("at most"), "the notice lasts until the next key")
        harness.run("<Enter>")
        #expect(submitted == "x")
    }

    @Test("a floating panel overlaps the window, takes focus, and Esc or [x] closes it")
    func floatingPanel() {
        let harness = tableApp(size: Size(width: 40, height: 12))
        let panel = Window(title: "Lists", floating: true)
        let list = TableView(columns: [TableColumn("title", title: "List", width: 10)], dataSource: RecordingRows(count: 3))
        panel.addSubview(list)
        panel.layout = { _, area in list.frame = area }
        panel.placement = { area in Rect(x: 20, y: 2, width: 16, height: 7) }
        harness.app.show(panel)
        var screen = harness.run("j")
        assertScreen(Array(screen[2...8]), [
            "│────┼────────────┼─┌─ Lists ──[x]─┐───│",
            "│   1│Task 1      │ │List      │   │   │",
            "│   2│Task 2      │ │──────────┼───│   │",
            "│   3│Task 3      │ │Task 1    │   │   │",
            "│   4│Task 4      │ │Task 2    │   │   │",
            "│   5│Task 5      │ │Task 3    │   │   │",
            "│   6│Task 6      │ └──────────────┘   │",
        ])
        #expect(list.state.selectedRow == 1)
        #expect(harness.table.state.selectedRow == 0)
        screen = harness.run("<Esc>j")
        #expect(harness.app.windows.count == 1)
        #expect(harness.table.state.selectedRow == 1)
        harness.app.show(panel)
        harness.driver.click(x: 31, y: 2)
        harness.run("")
        #expect(harness.app.windows.count == 1)
    }

    @Test("clicking a window below brings it to the front")
    func raiseOnClick() {
        let harness = tableApp(size: Size(width: 40, height: 12))
        let panel = Window(title: "Lists", floating: true)
        panel.placement = { _ in Rect(x: 20, y: 2, width: 16, height: 7) }
        harness.app.show(panel)
        harness.driver.click(x: 5, y: 6)
        harness.run("")
        #expect(harness.app.keyWindow === harness.table.window)
        #expect(harness.table.state.selectedRow == 3)
    }
}

@Suite("Dialog text")
struct DialogTextTests {
    @Test("a message line keeps its indentation, so a caret stays under its column")
    func caret() {
        let driver = MemoryDriver(size: Size(width: 60, height: 12))
        let app = Application(driver: driver)
        app.show(Window(title: "Main"))
        app.alert(title: "Filter", message: "expected a value after LIKE at 1:10\nname LIKE\n         ^")
        let lines = app.runScript("")
        let nameLine = lines.first { $0.contains("name LIKE") }!
        let caretLine = lines.first { $0.contains("^") }!
        let name = nameLine.range(of: "name LIKE")!.lowerBound
        let column = nameLine.distance(from: nameLine.startIndex, to: name) + 9
        #expect(caretLine.distance(from: caretLine.startIndex, to: caretLine.firstIndex(of: "^")!) == column)
    }
}
