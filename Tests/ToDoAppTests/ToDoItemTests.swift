import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import TerminalUI
import ToDoApp
import Interchange
import TestSupport

@Suite("ToDo items: adding, editing, deleting, undo, saving")
struct ToDoItemTests: ToDoTesting {
    let folder: URL
    let url: URL

    init() throws {
        (folder, url) = try Self.makeFolder()
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

    @Test("v shows the selected value whole: a long name on its lines, a due date in UTC and here; Esc closes")
    func valueWhole() throws {
        let (todo, driver) = try launch(seeded: false)
        let long = "Plan the garden: " + String(repeating: "tomatoes, beans and squash ", count: 6)
        todo.app.runScript("a\(long)<Enter>")
        todo.app.runScript("v")
        let text = screen(driver.screenLines)
        #expect(text.contains("Item of Plan the garden"), "\(text)")
        #expect(text.contains("Text, \(long.count) characters"), "\(text)")
        #expect(text.contains("tomatoes, beans and squash tomatoes, beans and squash"), "the name whole, wrapped: \(text)")
        todo.app.runScript("<Esc>")
        #expect(!screen(driver.screenLines).contains("Text, \(long.count) characters"))
        todo.app.runScript("lv")
        #expect(screen(driver.screenLines).contains("nil: no value"), "no due date is nil, not empty text")
    }

    @Test("the menus show each item's keys as the key map binds them, and follow a rebinding")
    func menusShowKeys() throws {
        let (todo, _) = try launch()
        var lines = todo.app.runScript("<F9>")
        #expect(lines[2].hasPrefix("│ Save      Ctrl-S, F2 │"), "\(lines[2])")
        #expect(lines[3].hasPrefix("│ Changes…           P │"), "\(lines[3])")
        #expect(lines[4].hasPrefix("│ Import…              │"), "\(lines[4])")
        #expect(lines[6].hasPrefix("│ Quit       q, Ctrl-Q │"), "\(lines[6])")
        lines = todo.app.runScript("<Right>")
        #expect(lines.contains { $0.contains("│ Add item                  a, Ins │") })
        #expect(lines.contains { $0.contains("│ Undo                           u │") })
        todo.app.runScript("<Esc>")
        todo.app.keyMap.rebind("todo.save", to: [.control("w")])
        lines = todo.app.runScript("<F9>")
        #expect(lines[2].hasPrefix("│ Save         Ctrl-W │"), "\(lines[2])")
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
        #expect(todo.items.selectedObjects.first?.string("name") == "mmm middle")
        #expect(todo.table.state.selectedRow == 1)
    }

    @Test("P lists the pending changes of the items, r reverts one and Esc closes the panel; what is left saves")
    func pendingChanges() throws {
        let (todo, driver) = try launch(seeded: false)
        todo.app.runScript("aEggs<Enter>aMilk<Enter><C-s>")
        todo.app.runScript("g<Enter><C-u>Brown eggs<Enter>")
        todo.app.runScript("aBread<Enter>")
        let panel = screen(todo.app.runScript("P"))
        #expect(panel.contains("1 added · 1 changed field"), "\(panel)")
        #expect(panel.contains("│+ added  │ToDo “Bread”            │              │                             │name: Bread"), "\(panel)")
        #expect(panel.contains("│~ changed│ToDo “Brown eggs”       │name          │Eggs                         │Brown eggs"), "\(panel)")
        todo.app.runScript("jr")
        #expect(Set(names(todo)) == ["Eggs", "Milk", "Bread"])
        #expect(driver.screenLines.last?.contains("Reverted name of") == true, "\(driver.screenLines.last ?? "")")
        todo.app.runScript("<Esc><C-s>")
        #expect(!todo.context.hasChanges)
        #expect(!screen(driver.screenLines).contains("Pending changes"))
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
        #expect(!todo.context.insertedObjects.contains { $0.string("name") == "" })
        todo.app.runScript("aSecond<Enter>")
        todo.app.runScript("<Enter><C-u>Other<Esc>")
        #expect(Set(names(todo)) == ["Keep", "Second"], "an item with a stored name stays")
        // Nothing of the cancelled add is left to undo: undo goes back through Second.
        todo.app.runScript("uu")
        #expect(names(todo) == ["Keep"])
    }

    @Test("m and * mark items; d deletes the marked after saying what goes with them; = sets a column on them; u undoes each at once")
    func marks() throws {
        let (todo, driver) = try launch(seeded: false)
        todo.app.runScript("aOne<Enter>aTwo<Enter>aThree<Enter>")
        todo.app.runScript("gmm")
        #expect(screen(driver.screenLines).contains("3 items · 2 marked"))
        todo.app.runScript("U*ll")
        let marked = screen(driver.screenLines)
        #expect(marked.contains("3 items · 3 marked"), "\(marked)")
        todo.app.runScript(" =")                            // Done on the selected item, then on every marked one
        #expect(try todo.context.fetch(FetchRequest(entityName: "ToDo")).allSatisfy { $0.bool("completed") == true })
        todo.app.runScript("u")
        #expect(try todo.context.fetch(FetchRequest(entityName: "ToDo")).filter { $0.bool("completed") == true }.count == 1,
                "one undo takes back the = on all of them")
        let panel = screen(todo.app.runScript("d"))
        #expect(panel.contains("Delete 3 marked?") && panel.contains("Deletes 3 ToDo."), "\(panel)")
        todo.app.runScript("<Enter>")
        #expect(names(todo).isEmpty)
        todo.app.runScript("u")
        #expect(Set(names(todo)) == ["One", "Two", "Three"])
    }

    @Test("d deletes, u undoes, Ctrl-R redoes")
    func deleteUndoRedo() throws {
        let (todo, _) = try launch(seeded: false)
        todo.app.runScript("aOne<Enter>aTwo<Enter>")
        #expect(Set(names(todo)) == ["One", "Two"])
        todo.app.runScript("d")
        #expect(names(todo).count == 2, "d asks first")
        todo.app.runScript("<Enter>")
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
        #expect(todo.items.selectedObjects.first?.bool("completed") == true)
        todo.app.runScript("<C-s>")
        #expect(screen(driver.screenLines).contains("saved"))
        #expect(try storedNames() == ["Task"])
        todo.app.runScript(" ")
        #expect(todo.items.selectedObjects.first?.bool("completed") == false)
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
        #expect(todo.items.selectedObjects.first?.string("name") == "Second")
        #expect(todo.items.selectedObjects.first?.bool("completed") == true)
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
        let errands = try todo.context.insertObject(forEntityName: ToDoCategory.entityName)
        errands["name"] = "Errands"
        for name in ["Post office", "Tailor: collect the blue coat"] {
            let item = try todo.context.insertObject(forEntityName: ToDoItem.entityName)
            item["name"] = .string(name)
            try item.setValue(errands, forKey: "category")
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
        #expect(errands.string("name") == "Errands")
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
}
