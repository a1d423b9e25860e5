import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import TerminalUI
import ToDoApp
import Interchange
import TestSupport
import AppShell

@Suite("ToDo filter")
struct ToDoFilterTests: ToDoTesting {
    let folder: URL
    let url: URL

    init() throws {
        (folder, url) = try Self.makeFolder()
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

    @Test("the filter line remembers: ↑ brings back the filters applied to this store, in the next run too; another store has its own")
    func filterHistory() throws {
        let file = folder.appendingPathComponent("state/filters.json")
        do {
            let (todo, _) = try launch()
            todo.filterHistory = FilterHistory(url: file, store: url.path)
            todo.app.runScript("/milk<Enter>")
            todo.app.runScript("/<C-u>completed == NO<Enter>")  // the line starts with the filter there is
            todo.app.runScript("/<C-u>milk<Enter>")             // again: it moves to the end, once
            todo.app.runScript("/<C-u>completed ==<Enter>")     // does not parse: not kept
            todo.app.runScript("<Esc>")
        }
        #expect(FilterHistory(url: file, store: url.path).filters == ["completed == NO", "milk"])
        let (todo, driver) = try launch()
        todo.filterHistory = FilterHistory(url: file, store: url.path)
        var lines = todo.app.runScript("/<C-u><Up>")
        #expect(lines.last == "Filter (words or predicate): milk", "\(lines.last ?? "")")
        lines = todo.app.runScript("<Up>")
        #expect(lines.last == "Filter (words or predicate): completed == NO")
        todo.app.runScript("<Enter>")
        #expect(screen(driver.screenLines).contains("filter: completed == NO"))
        #expect(FilterHistory(url: file, store: "/elsewhere/Other.sqlite").filters.isEmpty)
        #expect(FilterHistory.storeKey(URL(string: "postgres://ada:secret@db.local/todo?sslmode=require")!) == "postgres://ada@db.local/todo")
    }

    @Test("a filter saved by name (@, then s) applies again as /@name, in the next run too; another store has none")
    func savedFilters() throws {
        let file = folder.appendingPathComponent("state/saved-filters.json")
        do {
            let (todo, _) = try launch()
            todo.savedFilters = SavedFilters(url: file, store: url.path)
            todo.app.runScript("/completed == NO<Enter>")
            todo.app.runScript("@sopen<Enter><Esc>")
        }
        let (todo, driver) = try launch()
        todo.savedFilters = SavedFilters(url: file, store: url.path)
        todo.app.runScript("/@open<Enter>")
        #expect(screen(driver.screenLines).contains("filter: completed == NO"))
        todo.app.runScript("@")
        #expect(screen(driver.screenLines).contains("│@open             │completed == NO"), "\(screen(driver.screenLines))")
        todo.app.runScript("s<C-u>two words<Enter>")
        #expect(driver.screenLines.last?.contains("A name is one word: letters, digits, _ and -") == true)
        #expect(SavedFilters(url: file, store: "/elsewhere/Other.sqlite").named(for: "ToDo").isEmpty)
    }

    @Test("Tab on the filter line completes keys, key paths through relationships and the language's words; several are listed")
    func filterCompletion() throws {
        let (todo, _) = try launch()
        var lines = todo.app.runScript("/<C-u>categ<Tab>")
        #expect(lines.last == "Filter (words or predicate): category")
        lines = todo.app.runScript(".na<Tab>")
        #expect(lines.last == "Filter (words or predicate): category.name")
        lines = todo.app.runScript(" begin<Tab>")
        #expect(lines.last == "Filter (words or predicate): category.name BEGINSWITH")
        lines = todo.app.runScript(" 'H' AND co<Tab>")
        #expect(lines.last?.hasPrefix("Filter (words or predicate): category.name BEGINSWITH 'H' AND co") == true)
        #expect(lines.last?.hasSuffix(" completed  CONTAINS") == true, "both candidates listed: \(lines.last ?? "")")
        lines = todo.app.runScript("m<Tab> == NO<Enter>")
        #expect(screen(lines).contains("filter: category.name BEGINSWITH 'H' AND completed == NO"))
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
}
