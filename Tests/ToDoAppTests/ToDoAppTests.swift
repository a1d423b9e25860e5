import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import TerminalUI
import ToDoApp
import Interchange
import TestSupport

/// Drives the ToDo application with key scripts on the memory driver.
@Suite("ToDo application")
struct ToDoAppTests {
    let folder: URL
    let url: URL

    init() throws {
        folder = try Fixtures.temporaryDirectory("todo")
        url = folder.appendingPathComponent("ToDo.xml")
    }

    final class Clock: @unchecked Sendable { var now = Date(timeIntervalSinceReferenceDate: 800_000_000) }

    /// The application on the XML store at `url`, or with `sqlite` on a SQLite store beside it.
    func launch(seeded: Bool = true, sqlite: Bool = false, width: Int = 100, height: Int = 30, clock: Clock = Clock(),
                alertInterval: Double = 60, viewSettingsURL: URL? = nil) throws -> (ToDoApplication, MemoryDriver) {
        let store = sqlite ? try ToDoStore.open(at: folder.appendingPathComponent("ToDo.sqlite"), type: .sqlite, seeded: seeded)
                           : try ToDoStore.open(at: url, type: .xml, seeded: seeded)
        let driver = MemoryDriver(size: Size(width: width, height: height))
        let todo = try ToDoApplication(store: store, driver: driver, alertInterval: alertInterval, now: { clock.now },
                                       viewSettingsURL: viewSettingsURL)
        todo.app.runScript("")
        return (todo, driver)
    }

    func screen(_ lines: [String]) -> String { lines.joined(separator: "\n") }

    func names(_ todo: ToDoApplication) -> [String] {
        todo.items.arrangedObjects.compactMap { $0.string(ToDoKeys.name) }
    }

    func storedNames() throws -> [String] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        let store = try ToDoStore.open(at: url, type: .xml, seeded: false)
        return try store.context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")]))
            .compactMap { $0.string("name") }
    }

    @Test("a new store starts with a welcome item and three categories; the first screen shows them")
    func firstScreen() throws {
        let (todo, driver) = try launch()
        let text = screen(driver.screenLines)
        #expect(text.contains("Welcome! Press a to add an item"))
        #expect(text.contains("1 item · saved"))
        #expect(try todo.context.fetch(FetchRequest(entityName: "Category")).compactMap { $0.string("name") }.sorted() == ["Errands", "Home", "Work"])
        #expect(text.contains("Item: Welcome!"), "the detail form shows the selected item")
    }

    @Test("the menus show each item's keys as the key map binds them, and follow a rebinding")
    func menusShowKeys() throws {
        let (todo, _) = try launch()
        var lines = todo.app.runScript("<F9>")
        #expect(lines[2].hasPrefix("│ Save     Ctrl-S, F2 │"), "\(lines[2])")
        #expect(lines[3].hasPrefix("│ Import…             │"), "\(lines[3])")
        #expect(lines[5].hasPrefix("│ Quit      q, Ctrl-Q │"), "\(lines[5])")
        lines = todo.app.runScript("<Right>")
        #expect(lines.contains { $0.contains("│ Add item                  a, Ins │") })
        #expect(lines.contains { $0.contains("│ Undo                           u │") })
        todo.app.runScript("<Esc>")
        todo.app.keyMap.rebind("todo.save", to: [.control("w")])
        lines = todo.app.runScript("<F9>")
        #expect(lines[2].hasPrefix("│ Save        Ctrl-W │"), "\(lines[2])")
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

    @Test("the item column takes the width the other columns leave: a long name shows whole, and no blank column follows")
    func nameColumnFillsWidth() throws {
        let (todo, driver) = try launch()
        let welcome = "Welcome! Press a to add an item, c for categories, ? for help"
        let row = try #require(driver.screenLines.first { $0.contains("Welcome!") })
        #expect(row.contains(welcome + " "), "\(row)")
        #expect(row.hasSuffix("│  [ ]   │"), "the last column ends at the window's edge: \(row)")
        let header = try #require(driver.screenLines.first { $0.contains("No alert") })
        #expect(header.hasSuffix("│No alert│"), "\(header)")
        driver.resize(to: Size(width: 140, height: 30))
        todo.app.runScript("")
        #expect(driver.screenLines.first { $0.hasPrefix("└") }?.count == 140)
        let wider = try #require(driver.screenLines.first { $0.contains("Welcome!") })
        #expect(wider.hasSuffix("│  [ ]   │"), "the item column grows with the window: \(wider)")
    }

    @Test("the window is drawn before the items are loaded")
    func drawsBeforeLoading() throws {
        let store = try ToDoStore.open(at: url, type: .xml)
        let driver = MemoryDriver(size: Size(width: 100, height: 30))
        let todo = try ToDoApplication(store: store, driver: driver)
        todo.app.runScript("")
        #expect(driver.drawCount >= 2, "a frame before the load, one after")
        #expect(screen(driver.screenLines).contains("Welcome!"))
    }

    @Test("--empty starts with nothing, and the detail form says nothing is selected")
    func empty() throws {
        let (_, driver) = try launch(seeded: false)
        let text = screen(driver.screenLines)
        #expect(text.contains("No item selected"))
        #expect(text.contains("0 items"))
    }

    @Test("a adds an item with its name in edit; typing and Enter names it")
    func add() throws {
        let (todo, _) = try launch(seeded: false)
        let text = screen(todo.app.runScript("aBuy milk<Enter>"))
        #expect(names(todo) == ["Buy milk"])
        #expect(text.contains("Buy milk"))
        #expect(text.contains("1 unsaved change"))
    }

    @Test("undoing an added item takes two steps on either store: its typed name, then the item", arguments: [false, true])
    func undoAdd(sqlite: Bool) throws {
        let (todo, _) = try launch(seeded: false, sqlite: sqlite)
        todo.app.runScript("aEggs<Enter>")
        todo.app.runScript("u")
        #expect(names(todo) == [""])
        todo.app.runScript("u")
        #expect(names(todo).isEmpty)
        #expect(!todo.context.hasChanges)
    }

    @Test("in a sorted list a new item stays selected when its name moves it", arguments: [false, true])
    func addSorted(sqlite: Bool) throws {
        let (todo, _) = try launch(seeded: false, sqlite: sqlite)
        todo.app.runScript("abuy milk<Enter>azebra<Enter><Esc>gs")
        #expect(names(todo) == ["buy milk", "zebra"])
        todo.app.runScript("ammm middle<Enter>")
        #expect(names(todo) == ["buy milk", "mmm middle", "zebra"])
        #expect(todo.items.selectedObjects.first?.string(ToDoKeys.name) == "mmm middle")
        #expect(todo.table.state.selectedRow == 1)
    }

    @Test("pasted text is typed into the open editor, line breaks as spaces; with no editor open it is refused, not run as keys")
    func paste() throws {
        let (todo, driver) = try launch(seeded: false)
        todo.app.runScript("aKeep me<Enter>")
        todo.app.runScript("a")
        driver.send(.paste("zzz\nd q"))
        todo.app.runScript("<Enter>")
        #expect(Set(names(todo)) == ["Keep me", "zzz d q"])
        #expect(!todo.app.isQuitting)
        driver.send(.paste("dd"))
        let text = screen(todo.app.runScript(""))
        #expect(Set(names(todo)) == ["Keep me", "zzz d q"], "nothing deleted")
        #expect(text.contains("Paste into a cell or field being edited"))
    }

    @Test("Ctrl-S during an edit stores the edit and saves; a value the model refuses keeps the edit open and says why")
    func saveWhileEditing() throws {
        let (todo, driver) = try launch(seeded: false)
        todo.app.runScript("aBuy milk<C-s>")
        #expect(try storedNames() == ["Buy milk"])
        #expect(!todo.table.state.isEditing)
        #expect(screen(driver.screenLines).contains("saved"))
        // In the form: the name must not be empty (the model's minimum length).
        todo.app.runScript("<Tab><Enter><C-u><C-s>")
        #expect(screen(driver.screenLines).contains("Finish or cancel the edit"), "\(screen(driver.screenLines))")
        #expect(try storedNames() == ["Buy milk"])
    }

    @Test("Esc on a new item's first edit takes the item back; after a stored edit, Esc only cancels")
    func escapeNewItem() throws {
        let (todo, _) = try launch(seeded: false)
        todo.app.runScript("aKeep<Enter>")
        todo.app.runScript("aTyped then cancelled<Esc>")
        #expect(names(todo) == ["Keep"])
        #expect(!todo.context.insertedObjects.contains { $0.string(ToDoKeys.name) == "" })
        todo.app.runScript("aSecond<Enter>")
        todo.app.runScript("<Enter><C-u>Other<Esc>")
        #expect(Set(names(todo)) == ["Keep", "Second"], "an item with a stored name stays")
        // Nothing of the cancelled add is left to undo: undo goes back through Second.
        todo.app.runScript("uu")
        #expect(names(todo) == ["Keep"])
    }

    @Test("d deletes, u undoes, Ctrl-R redoes")
    func deleteUndoRedo() throws {
        let (todo, _) = try launch(seeded: false)
        todo.app.runScript("aOne<Enter>aTwo<Enter>")
        #expect(Set(names(todo)) == ["One", "Two"])
        todo.app.runScript("d")
        #expect(names(todo).count == 1)
        todo.app.runScript("u")
        #expect(Set(names(todo)) == ["One", "Two"])
        todo.app.runScript("<C-r>")
        #expect(names(todo).count == 1)
    }

    @Test("Space toggles completed; Ctrl-S saves")
    func toggleAndSave() throws {
        let (todo, driver) = try launch(seeded: false)
        todo.app.runScript("aTask<Enter> ")
        #expect(todo.items.selectedObjects.first?.bool(ToDoKeys.completed) == true)
        todo.app.runScript("<C-s>")
        #expect(screen(driver.screenLines).contains("saved"))
        #expect(try storedNames() == ["Task"])
        todo.app.runScript(" ")
        #expect(todo.items.selectedObjects.first?.bool(ToDoKeys.completed) == false)
    }

    @Test("on a SQLite store, a filter the store refuses is reported and the previous filter stays", arguments: [
        "name.length > 3", "name == $x", "name MATCHES '[('",
    ])
    func refusedFilterOnSQLite(_ filter: String) throws {
        let (todo, driver) = try launch(seeded: false, sqlite: true)
        todo.app.runScript("aBuy milk<Enter>aCall Anna<Enter><C-s>/milk<Enter>")
        #expect(Set(names(todo)) == ["Buy milk"])
        let text = screen(todo.app.runScript("/<C-u>\(filter)<Enter>"))
        #expect(text.contains("Filter not applied"), "\(text)")
        todo.app.runScript("<Enter>")
        #expect(Set(names(todo)) == ["Buy milk"], "the previous filter stays")
        #expect(screen(driver.screenLines).contains("filter: milk"))
    }

    @Test("on a SQLite store, a saved new item stays on screen and can be changed (the rows are read a window at a time)")
    func saveOnSQLite() throws {
        let (todo, driver) = try launch(seeded: false, sqlite: true)
        todo.app.runScript("aFirst<Enter>aSecond<Enter><C-s>")
        let text = screen(driver.screenLines)
        #expect(text.contains("│First "), "the saved rows still show their items")
        #expect(text.contains("│Second "))
        #expect(text.contains("Item: Second"), "the form still shows the selected item")
        todo.app.runScript(" ")
        #expect(todo.items.selectedObjects.first?.string(ToDoKeys.name) == "Second")
        #expect(todo.items.selectedObjects.first?.bool(ToDoKeys.completed) == true)
    }

    @Test("/ filters by words in the name, or by a predicate; a bad predicate shows its caret and keeps the filter")
    func filter() throws {
        let (todo, driver) = try launch(seeded: false)
        todo.app.runScript("aBuy milk<Enter>aCall Anna<Enter>aMILKSHAKE<Enter>")
        todo.app.runScript("/milk<Enter>")
        #expect(Set(names(todo)) == ["Buy milk", "MILKSHAKE"])
        #expect(screen(driver.screenLines).contains("filter: milk"))
        let text = screen(todo.app.runScript("/<C-u>name BEGINSWITH<Enter>"))
        #expect(text.contains("Filter not applied"))
        #expect(text.contains("^"), "the caret under the position")
        todo.app.runScript("<Enter>")
        #expect(Set(names(todo)) == ["Buy milk", "MILKSHAKE"], "the previous filter stays")
        // After wide characters the caret is still under the position (cells, not characters).
        let wide = todo.app.runScript("/<C-u>名前 ==<Enter>")
        let line = try #require(wide.firstIndex { $0.contains("名前 ==") && !$0.contains("Filter") })
        let end = try #require(wide[line].range(of: "==")?.upperBound)
        let caret = try #require(wide[line + 1].firstIndex(of: "^"))
        #expect(String(wide[line + 1][..<caret]).displayWidth == String(wide[line][..<end]).displayWidth)
        todo.app.runScript("<Enter>")
        todo.app.runScript("/<C-u>name BEGINSWITH 'Call'<Enter>")
        #expect(names(todo) == ["Call Anna"])
        let unknown = screen(todo.app.runScript("/<C-u>colour == 'red'<Enter>"))
        #expect(unknown.contains("colour"))
        todo.app.runScript("<Enter>/<C-u><Enter>")
        #expect(names(todo).count == 3)
    }

    @Test("plain words each match the name, in any order, case and accents ignored")
    func filterWords() throws {
        let (todo, _) = try launch(seeded: false)
        todo.app.runScript("aItem 00016 Beta<Enter>aItem 00017 Gamma<Enter>aBéta only<Enter>")
        todo.app.runScript("/item beta<Enter>")
        #expect(names(todo) == ["Item 00016 Beta"])
        todo.app.runScript("/<C-u>00016   ITEM<Enter>")
        #expect(names(todo) == ["Item 00016 Beta"])
        todo.app.runScript("/<C-u>beta<Enter>")
        #expect(Set(names(todo)) == ["Item 00016 Beta", "Béta only"])
    }

    @Test("adding an item under a filter clears the filter so the item shows, and the status stops naming it")
    func addUnderFilter() throws {
        let (todo, driver) = try launch(seeded: false)
        todo.app.runScript("aBuy milk<Enter>aCall Anna<Enter>/milk<Enter>")
        #expect(names(todo) == ["Buy milk"])
        todo.app.runScript("aEggs<Enter>")
        #expect(Set(names(todo)) == ["Buy milk", "Call Anna", "Eggs"])
        let text = screen(driver.screenLines)
        #expect(!text.contains("filter: milk"), "\(text)")
        #expect(todo.filterText.isEmpty)
    }

    @Test("s sorts by the selected column, again reverses")
    func sort() throws {
        let (todo, _) = try launch(seeded: false)
        todo.app.runScript("aBanana<Enter>aapple<Enter>aCherry<Enter>")
        todo.app.runScript("<Esc>gs")
        #expect(names(todo) == ["apple", "Banana", "Cherry"])
        todo.app.runScript("s")
        #expect(names(todo) == ["Cherry", "Banana", "apple"])
    }

    @Test("the category panel adds and renames categories; removing one with items asks, then leaves the items without one")
    func categoryPanel() throws {
        let (todo, driver) = try launch()
        var text = screen(todo.app.runScript("c"))
        #expect(text.contains("Categories"))
        #expect(text.contains("Errands") && text.contains("Home") && text.contains("Work"))
        todo.app.runScript("aGarden<Enter>")
        #expect(todo.categories.arrangedObjects.compactMap { $0.string("name") }.contains("Garden"),
                "typing replaces the placeholder name")
        let count = todo.categories.arrangedObjects.count
        todo.app.runScript("a<Esc>")
        #expect(!todo.categories.arrangedObjects.compactMap { $0.string("name") }.contains("New category"),
                "Esc on its first edit takes the new category back, as it does a new item")
        #expect(todo.categories.arrangedObjects.count == count)
        // Home holds the welcome item: deleting it asks first.
        let home = try #require(todo.categories.arrangedObjects.first { $0.string("name") == "Home" })
        todo.categories.setSelectedObjects([home])
        text = screen(todo.app.runScript("d"))
        #expect(text.contains("has 1 item"))
        todo.app.runScript("<Enter>")
        #expect(home.isDeleted)
        let welcome = try #require(todo.items.arrangedObjects.first)
        #expect(welcome.object(ToDoKeys.category) == nil)
        todo.app.runScript("<Esc>")
        #expect(!screen(driver.screenLines).contains("Garden"), "the panel closed")
    }

    @Test("an item coming due opens the alert panel once, rings the bell, and can be marked done there")
    func alerts() throws {
        let clock = Clock()
        let (todo, driver) = try launch(seeded: false, clock: clock, alertInterval: 60)
        todo.app.runScript("aStand-up<Enter>")
        let item = try #require(todo.items.arrangedObjects.first)
        item[ToDoKeys.dueDate] = .date(clock.now.addingTimeInterval(120))
        driver.wait(61)
        let text = screen(todo.app.runScript(""))
        #expect(text.contains("Due in the next 5 minutes"))
        #expect(driver.bellCount == 1)
        #expect(item.date(ToDoKeys.lastAlertDate) == clock.now)
        todo.app.runScript(" ")
        #expect(item.bool(ToDoKeys.completed) == true)
        todo.app.runScript("<Esc>")
        clock.now = clock.now.addingTimeInterval(60)
        driver.wait(60)
        #expect(!screen(todo.app.runScript("")).contains("Due in the next 5 minutes"))
        #expect(driver.bellCount == 1, "an item alerts once")
    }

    @Test("an item that came due while the application was closed alerts at the first check, once; the mark is saved and cannot be undone")
    func overdueAlerts() throws {
        let clock = Clock()
        do {
            let store = try ToDoStore.open(at: url, type: .xml, seeded: false)
            for (name, completed) in [("Pay rent", false), ("Filed already", true)] {
                let item = try store.context.insertObject(forEntityName: ToDoKeys.toDo)
                item[ToDoKeys.name] = .string(name)
                item[ToDoKeys.completed] = .bool(completed)
                item[ToDoKeys.dueDate] = .date(clock.now.addingTimeInterval(-3600))
            }
            try store.context.save()
        }
        let (todo, driver) = try launch(seeded: false, clock: clock, alertInterval: 60)
        driver.wait(61)
        let lines = todo.app.runScript("")
        #expect(screen(lines).contains("Overdue or due in the next 5 minutes"))
        #expect(driver.bellCount == 1)
        #expect(lines.last?.hasSuffix("2 items · saved") == true, "the alert alone leaves nothing unsaved: \(lines.last ?? "")")
        let reopened = try ToDoStore.open(at: url, type: .xml, seeded: false)
        let stored = try reopened.context
            .fetch(FetchRequest(entityName: ToDoKeys.toDo, sortDescriptors: [ObjectSortDescriptor(key: ToDoKeys.name)]))
        #expect(stored.map { $0.date(ToDoKeys.lastAlertDate) } == [nil, clock.now], "only the item not completed alerted")
        let after = todo.app.runScript("<Esc>u")
        #expect(after.last?.contains("Nothing to undo") == true, "the mark is not the user's to undo")
        clock.now = clock.now.addingTimeInterval(600)
        driver.wait(60)
        todo.app.runScript("")
        #expect(driver.bellCount == 1, "an overdue item alerts once")
    }

    @Test("an item that alerted before its due date does not alert again once overdue; a new due date alerts again")
    func alertOncePerDueDate() throws {
        let clock = Clock()
        let (todo, driver) = try launch(seeded: false, clock: clock, alertInterval: 60)
        todo.app.runScript("aStand-up<Enter>")
        let item = try #require(todo.items.arrangedObjects.first)
        item[ToDoKeys.dueDate] = .date(clock.now.addingTimeInterval(120))
        driver.wait(61)
        todo.app.runScript("")
        #expect(driver.bellCount == 1)
        todo.app.runScript("<Esc>")
        #expect(todo.store.unsavedChangeCount == 1, "with the new item unsaved, the mark waits for the next save")
        clock.now = clock.now.addingTimeInterval(600)
        driver.wait(60)
        todo.app.runScript("")
        #expect(driver.bellCount == 1, "overdue now, but it alerted for this due date")
        item[ToDoKeys.dueDate] = .date(clock.now.addingTimeInterval(60))
        driver.wait(60)
        todo.app.runScript("")
        #expect(driver.bellCount == 2)
        #expect(screen(todo.app.runScript("")).contains("Due in the next 5 minutes"))
    }

    @Test("a new due date clears the alert mark, so an item alerts again even for an earlier date already past; undo puts both back")
    func newDueDateAlertsAgain() throws {
        let clock = Clock()
        let (todo, driver) = try launch(seeded: false, clock: clock, alertInterval: 60)
        todo.app.runScript("aPay rent<Enter>")
        let item = try #require(todo.items.arrangedObjects.first)
        #expect(item is ToDoItem)
        item[ToDoKeys.dueDate] = .date(clock.now.addingTimeInterval(-3600))
        todo.context.processPendingChanges()
        driver.wait(61)
        todo.app.runScript("<Esc>")
        #expect(driver.bellCount == 1)
        let firstMark = try #require(item.date(ToDoKeys.lastAlertDate))

        clock.now = clock.now.addingTimeInterval(60)
        item[ToDoKeys.dueDate] = .date(clock.now.addingTimeInterval(-7200))     // earlier, and past
        todo.context.processPendingChanges()
        #expect(item.date(ToDoKeys.lastAlertDate) == nil)
        driver.wait(60)
        todo.app.runScript("<Esc>")
        #expect(driver.bellCount == 2, "the new date alerts")
        let secondMark = try #require(item.date(ToDoKeys.lastAlertDate))
        #expect(secondMark > firstMark)

        item[ToDoKeys.dueDate] = .date(clock.now.addingTimeInterval(-100))
        todo.context.processPendingChanges()
        todo.app.runScript("u")
        #expect(item.date(ToDoKeys.dueDate) == clock.now.addingTimeInterval(-7200))
        #expect(item.date(ToDoKeys.lastAlertDate) == secondMark, "the mark for that date came back with it")
        driver.wait(60)
        todo.app.runScript("")
        #expect(driver.bellCount == 2, "it already alerted for that date")
    }

    @Test("an item coming due while an edit is open alerts after the edit ends; the keys typed stay in the edit")
    func alertWaitsForEdit() throws {
        let clock = Clock()
        let (todo, driver) = try launch(seeded: false, clock: clock, alertInterval: 60)
        todo.app.runScript("aStand-up<Enter>")
        let due = try #require(todo.items.arrangedObjects.first)
        due[ToDoKeys.dueDate] = .date(clock.now.addingTimeInterval(120))
        todo.app.runScript("aShoes")
        driver.wait(61)
        let text = screen(todo.app.runScript(" on sale<Enter>"))
        #expect(!text.contains("Due in the next 5 minutes"))
        #expect(due.bool(ToDoKeys.completed) == false, "Space went to the edit, not to the due item")
        #expect(todo.items.arrangedObjects.contains { $0.string(ToDoKeys.name) == "Shoes on sale" })
        driver.wait(60)
        #expect(screen(todo.app.runScript("")).contains("Due in the next 5 minutes"))
        #expect(driver.bellCount == 1)
    }

    @Test("an item's name cannot be emptied: the message under the cell hides the next row's name whole")
    func emptyNameRefused() throws {
        let (todo, driver) = try launch(seeded: false)
        todo.app.runScript("aFirst<Enter>aSecond item with a long name<Enter>")
        let names = self.names(todo)
        let below = try #require(driver.screenLines.firstIndex { $0.contains(names[1]) })
        todo.app.runScript("g<Enter><C-u><Enter>")
        #expect(todo.table.state.isEditing, "the empty name is refused")
        let line = driver.screenLines[below]
        #expect(line.contains("⚠ name is required"), "\(line)")
        #expect(!line.contains(String(names[1].suffix(8))), "no part of the hidden name shows after the message: \(line)")
        todo.app.runScript("<Esc>")
        #expect(self.names(todo) == names)
    }

    @Test("a name of only spaces is refused for an item and for a category, and the edit stays open to fix it")
    func blankNameRefused() throws {
        let (todo, driver) = try launch(seeded: false)
        todo.app.runScript("a   <Enter>")
        #expect(todo.table.state.isEditing, "the blank name is refused")
        #expect(screen(driver.screenLines).contains("⚠ name cannot be only spaces"))
        todo.app.runScript("<C-u>Real<Enter>")
        #expect(!todo.table.state.isEditing)
        #expect(names(todo) == ["Real"])
        // A category with two items, renamed to spaces: its message under the first row of the
        // panel reaches over the list of its items, whose second row is hidden up to its next column.
        let errands = try todo.context.insertObject(forEntityName: ToDoKeys.categoryEntity)
        errands[ToDoKeys.name] = "Errands"
        for name in ["Post office", "Tailor: collect the blue coat"] {
            let item = try todo.context.insertObject(forEntityName: ToDoKeys.toDo)
            item[ToDoKeys.name] = .string(name)
            try item.setValue(errands, forKey: ToDoKeys.category)
        }
        todo.context.processPendingChanges()
        todo.app.runScript("c")
        #expect(screen(driver.screenLines).contains("Tailor"))
        todo.app.runScript("<Enter><C-u>  <Enter>")
        let message = try #require(driver.screenLines.first { $0.contains("⚠ name cannot be only spaces") })
        let after = message.components(separatedBy: "⚠ name cannot be only spaces")[1]
        #expect(after.prefix { $0 != "│" }.allSatisfy { $0 == " " }, "\(message)")
        #expect(!after.contains("blu"), "\(message)")
        // The help opened over it covers it, as it covers the panel.
        todo.app.runScript("<F1>")
        #expect(screen(driver.screenLines).contains("Keys"))
        #expect(!screen(driver.screenLines).contains("name cannot be only spaces"), "\(screen(driver.screenLines))")
        todo.app.runScript("<Esc>")
        #expect(errands.string(ToDoKeys.name) == "Errands")
    }

    @Test("in the form, an editor's message takes a row of its own: the next field moves down, as for a save's message")
    func formEditorMessage() throws {
        let (todo, driver) = try launch()
        todo.app.runScript("<Tab>j<Enter>2027-02-30")
        let lines = driver.screenLines
        let due = try #require(lines.firstIndex { $0.contains("Due:") })
        #expect(lines[due + 1].contains("⚠ February 2027 has no day 30"), "\(lines[due + 1])")
        #expect(lines[due + 2].contains("Completed: [ ]"), "\(lines[due + 2])")
        todo.app.runScript("<Esc>")
        #expect(driver.screenLines[due + 1].contains("Completed: [ ]"), "the row is given back")
    }

    @Test("while a date is edited, the help lists each key once, as the editor takes it")
    func helpWhileEditing() throws {
        let (todo, driver) = try launch()
        todo.app.runScript("l<Enter>")
        let offered = todo.app.offeredCommands.map(\.name)
        #expect(!offered.contains("app.nextPane") && !offered.contains("app.previousPane"), "Tab and Shift-Tab are the editor's")
        #expect(offered.contains("table.commitAndPrevious"))
        todo.app.runScript("<F1>")
        let lines = driver.screenLines
        let keys = lines.compactMap { line -> String? in
            guard let bar = line.firstIndex(of: "│") else { return nil }
            let key = line[line.index(after: bar)...].prefix(16).trimmingCharacters(in: .whitespaces)
            return key.isEmpty ? nil : key
        }
        #expect(keys.filter { $0 == "Tab" }.count == 1, "\(keys)")
        #expect(lines.contains { $0.contains("Tab") && $0.contains("Store and edit the next cell") })
        #expect(lines.contains { $0.contains("Shift-Tab") && $0.contains("Store and edit the previous cell") })
        #expect(lines.contains { $0.contains("0–9 - / . : T") }, "typing is not a palette command")
    }

    @Test("the item table's sort and column widths come back at the next start")
    func layoutKept() throws {
        let settings = folder.appendingPathComponent("state/termdata/ToDo-view.json")
        do {
            let (todo, _) = try launch(seeded: false, viewSettingsURL: settings)
            todo.app.runScript("aApples<Enter>aZebra<Enter>aMango<Enter>")
            todo.app.runScript("gss")                  // by name, then reversed
            todo.app.runScript("l>>>")                 // the due column wider
            #expect(names(todo) == ["Zebra", "Mango", "Apples"])
            todo.app.runScript("q")
        }
        let (todo, driver) = try launch(seeded: false, viewSettingsURL: settings)
        #expect(names(todo) == ["Zebra", "Mango", "Apples"], "sorted as it was left")
        #expect(screen(driver.screenLines).contains("Item ▼"))
        #expect(todo.table.columns.first { $0.id == ToDoKeys.dueDate }?.width == 22, "16, widened by 2 three times")
        let (other, _) = try launch(seeded: false)
        #expect(other.table.state.sortColumn == nil, "without a settings file the table starts as designed")
        #expect(other.table.columns.first { $0.id == ToDoKeys.dueDate }?.width == 16)
    }

    @Test("a settings file that cannot be read is reported and replaced at the next change; the table starts as designed")
    func layoutUnreadable() throws {
        let settings = folder.appendingPathComponent("ToDo-view.json")
        try Data("{ not json".utf8).write(to: settings)
        let (todo, driver) = try launch(seeded: false, viewSettingsURL: settings)
        #expect(screen(driver.screenLines).contains("Ignored ToDo-view.json, which holds no table layout; the next change replaces it"))
        #expect(todo.table.state.sortColumn == nil)
        todo.app.runScript("s")
        #expect(try ToDoViewSettings.load(from: settings).items?.sortColumn == ToDoKeys.name)
    }

    @Test("q saves and quits")
    func quitSaves() throws {
        let (todo, _) = try launch(seeded: false)
        todo.app.runScript("aKeep me<Enter>q")
        #expect(todo.app.isQuitting)
        #expect(try storedNames() == ["Keep me"])
    }

    @Test("F10 with an edit open commits it first, then saves and quits; q in an edit is just a letter")
    func quitCommitsEdit() throws {
        let (todo, _) = try launch(seeded: false)
        todo.app.runScript("aHalf typed q")
        #expect(!todo.app.isQuitting)
        todo.app.runScript("<F10>")
        #expect(todo.app.isQuitting)
        #expect(try storedNames() == ["Half typed q"])
    }

    @Test("SIGTERM quits the same way: commit, save, quit")
    func terminateSaves() throws {
        let (todo, driver) = try launch(seeded: false)
        todo.app.runScript("aFrom a signal")
        driver.send(.signal(.terminate))
        todo.app.runScript("")
        #expect(todo.app.isQuitting)
        #expect(try storedNames() == ["From a signal"])
    }

    @Test("when the save on quit fails, it asks: Quit anyway or Cancel")
    func quitWhenSaveFails() throws {
        let (todo, _) = try launch(seeded: false)
        todo.app.runScript("aUnsaveable<Enter><C-s>")
        // The store's file can no longer be replaced: a folder now stands in its place.
        try FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        todo.app.runScript(" ")
        let text = screen(todo.app.runScript("q"))
        #expect(text.contains("Could not save changes while quitting. Quit anyway?"))
        #expect(!todo.app.isQuitting)
        todo.app.runScript("<Right><Enter>")   // Cancel
        #expect(!todo.app.isQuitting)
        todo.app.runScript("q<Enter>")          // Quit anyway
        #expect(todo.app.isQuitting)
    }

    /// The welcome item as another window on the same SQLite store sees it, renamed there,
    /// marked done and saved.
    /// The store `launch(sqlite:)` opened, seen by another stack, as another window would.
    func otherStore(sqlite: Bool = true) throws -> ToDoStore {
        try sqlite ? ToDoStore.open(at: folder.appendingPathComponent("ToDo.sqlite"), type: .sqlite, seeded: false)
                   : ToDoStore.open(at: url, type: .xml, seeded: false)
    }

    func changeElsewhere(name: String, sqlite: Bool = true) throws {
        let other = try otherStore(sqlite: sqlite)
        let item = try #require(try other.context.fetch(FetchRequest(entityName: "ToDo")).first)
        item["name"] = .string(name)
        item["completed"] = true
        try other.context.save()
    }

    func storedWelcome(sqlite: Bool = true) throws -> (name: String?, completed: Bool?, doNotAlert: Bool?) {
        let store = try otherStore(sqlite: sqlite)
        let item = try #require(try store.context.fetch(FetchRequest(entityName: "ToDo")).first)
        return (item.string("name"), item.bool("completed"), item.bool("doNotAlert"))
    }

    @Test("a save meeting an item another window saved asks whose values win; Keep mine keeps the other's other fields",
          arguments: [true, false])
    func conflictKeepMine(sqlite: Bool) throws {
        let (todo, _) = try launch(sqlite: sqlite)
        try changeElsewhere(name: "Theirs", sqlite: sqlite)
        let text = screen(todo.app.runScript("<Enter><C-u>Mine<Enter><C-s>"))
        #expect(text.contains("Changed elsewhere"))
        #expect(text.contains("1 object was changed by another save since it was read:"))
        #expect(text.contains("ToDo “Mine”"))
        #expect(text.contains("[ Keep mine ]"), "keeping the user's values is the default")
        todo.app.runScript("<Enter>")
        #expect(screen(todo.app.runScript("")).contains("saved"))
        let stored = try storedWelcome(sqlite: sqlite)
        #expect(stored.name == "Mine")
        #expect(stored.completed == true, "the other window's change to another field stays")
        #expect(!todo.context.hasChanges)
    }

    @Test("an item another process added to the XML store while the app was open survives the app's save")
    func xmlStoreKeepsOthersInsert() throws {
        let (todo, _) = try launch()
        let other = try otherStore(sqlite: false)
        try other.context.insertObject(forEntityName: "ToDo")["name"] = "imported elsewhere"
        try other.context.save()
        todo.app.runScript("aMine<Enter><C-s>")
        #expect(!todo.context.hasChanges)
        #expect(try storedNames().contains("imported elsewhere"))
        #expect(try storedNames().contains("Mine"))
    }

    @Test("Take theirs gives the other window's value where both changed a field, and saves the rest")
    func conflictTakeTheirs() throws {
        let (todo, _) = try launch(sqlite: true)
        try changeElsewhere(name: "Theirs")
        todo.app.runScript("<Enter><C-u>Mine<Enter>")
        try todo.items.selectedObjects[0].setValue(true, forKey: "doNotAlert")
        todo.app.runScript("<C-s>")
        todo.app.runScript("<Right><Enter>")
        let stored = try storedWelcome()
        #expect(stored.name == "Theirs")
        #expect(stored.completed == true)
        #expect(stored.doNotAlert == true, "the field only this window changed is saved")
        #expect(names(todo) == ["Theirs"], "the table shows the other window's name")
    }

    @Test("quitting over a conflict offers to quit without saving, which leaves the other window's save")
    func conflictOnQuit() throws {
        let (todo, _) = try launch(sqlite: true)
        try changeElsewhere(name: "Theirs")
        let text = screen(todo.app.runScript("<Enter><C-u>Mine<Enter>q"))
        #expect(text.contains("Quit without saving"))
        #expect(!todo.app.isQuitting)
        todo.app.runScript("<Right><Right><Right><Enter>")   // Cancel
        #expect(!todo.app.isQuitting)
        todo.app.runScript("q<Right><Right><Enter>")          // Quit without saving
        #expect(todo.app.isQuitting)
        #expect(try storedWelcome().name == "Theirs")
    }

    @Test("Ctrl-C asks what to do with unsaved changes; Discard and quit leaves the store as it was")
    func interrupt() throws {
        let (todo, _) = try launch(seeded: false)
        todo.app.runScript("aScratch<Enter>")
        let text = screen(todo.app.runScript("<C-c>"))
        #expect(text.contains("Save 1 unsaved change before quitting?"))
        #expect(text.contains("[ Save and quit ]"), "saving is the default")
        todo.app.runScript("<Right><Enter>")
        #expect(todo.app.isQuitting)
        #expect(try storedNames().isEmpty)
    }

    @Test("Ctrl-C pressed again while it asks does not stack a second question; Save and quit saves")
    func interruptTwice() throws {
        let (todo, driver) = try launch(seeded: false)
        todo.app.runScript("aScratch<Enter><C-c>")
        // In a terminal Ctrl-C may arrive as SIGINT, which goes past the open dialog.
        for _ in 0..<2 { driver.send(.signal(.interrupt)) }
        todo.app.runScript("")
        todo.app.runScript("<Esc>")
        #expect(!screen(driver.screenLines).contains("before quitting?"), "one Esc closes the only dialog")
        #expect(!todo.app.isQuitting)
        todo.app.runScript("<C-c><Enter>")
        #expect(todo.app.isQuitting)
        #expect(try storedNames() == ["Scratch"])
    }

    @Test("the keys offered are the keys that work: no q or ? while typing, no n/N where / filters")
    func offeredKeys() throws {
        let (todo, driver) = try launch(seeded: false, height: 60)
        todo.app.runScript("a")
        let editing = driver.screenLines.last ?? ""
        #expect(editing.contains("Enter Store"), "\(editing)")
        #expect(!editing.contains("q Quit") && !editing.contains("? Help"), "\(editing)")
        #expect(editing.contains("F9 Menu"))
        #expect(!todo.app.offeredCommands.contains { $0.keys.contains(.character("q")) })
        // The menu still runs what the keys cannot reach while typing.
        #expect(todo.app.liveCommands.contains { $0.name == "todo.undo" })
        todo.app.perform("todo.redo")
        #expect(todo.app.statusBar.message == "Nothing to redo")
        todo.app.runScript("q?<Enter>")
        #expect(names(todo) == ["q?"], "q and ? were typed")
        #expect(todo.app.offeredCommands.contains { $0.name == "app.quit" })
        #expect(!todo.app.offeredCommands.contains { $0.name == "table.searchNext" || $0.name == "table.searchPrevious" })
        // Editing in the form offers the editor's keys, not the form's j/k/e.
        todo.app.runScript("<Tab><Enter>")
        let formEditing = driver.screenLines.last ?? ""
        #expect(formEditing.contains("Enter Store") && !formEditing.contains("Enter Edit"), "\(formEditing)")
        todo.app.runScript("<Esc>")
        // Every line of the help names a way to run its command.
        let help = todo.app.runScript("?")
        let clear = try #require(help.first { $0.contains("Clear the filter") })
        #expect(clear.contains(": then name"), "\(clear)")
        let suspend = try #require(help.first { $0.contains("Suspend to the shell") })
        #expect(suspend.contains("Ctrl-Z"), "\(suspend)")
        #expect(!help.contains { $0.contains("Next match") })
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

    @Test("the due-items predicate looks five minutes ahead, leaves out completed and marked items, and those alerted since their due date")
    func duePredicate() throws {
        let now = Date(timeIntervalSinceReferenceDate: 0)
        let p = try DueItemAlerts().predicate(now: now)
        #expect(p.predicateFormat.contains("dueDate <= CAST(300"))
        #expect(p.predicateFormat.contains("completed == 0"))
        #expect(p.predicateFormat.contains("lastAlertDate == nil OR lastAlertDate < dueDate"))
    }

    @Test("a terminal too small to show a row and the form says so, with the size it needs", arguments: [(19, 3), (39, 30), (100, 11)])
    func tinyTerminal(width: Int, height: Int) throws {
        let (_, driver) = try launch(width: width, height: height)
        #expect(screen(driver.screenLines).contains("Terminal too small"))
        #expect(screen(driver.screenLines).contains("need 40×12"))
        #expect(!screen(driver.screenLines).contains("Welcome!"))
    }

    @Test("keys typed while the terminal is too small do not reach the hidden editor")
    func keysWhileTooSmall() throws {
        let (todo, driver) = try launch(seeded: false)
        todo.app.runScript("aAB")
        driver.resize(to: Size(width: 30, height: 8))
        todo.app.runScript("Qd")
        driver.resize(to: Size(width: 100, height: 30))
        todo.app.runScript("<Enter>")
        #expect(names(todo) == ["AB"])
    }

    @Test("at the smallest size it takes, the list shows an item and the form")
    func smallestTerminal() throws {
        let (_, driver) = try launch(width: 40, height: 12)
        #expect(screen(driver.screenLines).contains("│Welcome!"))
        #expect(screen(driver.screenLines).contains("Item: Welcome!"))
    }
}
