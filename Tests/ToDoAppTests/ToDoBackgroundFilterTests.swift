import Foundation
import Testing
import ObjectGraph
import TerminalUI
import ToDoApp
import TestSupport

/// Over a SQLite store, a filter is read on a background context: the application answers
/// keys while it runs, Esc stops it, a newer filter replaces it.
@Suite("ToDo filter in the background")
struct ToDoBackgroundFilterTests: ToDoTesting {
    let folder: URL
    let url: URL

    init() throws {
        (folder, url) = try Self.makeFolder()
    }

    /// A filter that takes seconds over 3,000 items of one category (a debug build): each item
    /// looks through every item of its category, 9 million rows, while the tests act in
    /// milliseconds.
    static let slowFilter = "SUBQUERY(category.todos, $t, $t.name CONTAINS 'zzz' AND $t.name != name).@count > 0"

    /// The application on a SQLite store of `count` saved items ("item 0"…) in one category.
    func launchWithItems(_ count: Int) throws -> (ToDoApplication, MemoryDriver) {
        let (todo, driver) = try launch(seeded: false, sqlite: true)
        let context = todo.context
        let list = try context.insertObject(forEntityName: "Category")
        list["name"] = "All"
        for n in 0..<count {
            let item = try context.insertObject(forEntityName: "ToDo")
            item["name"] = .string("item \(n)")
            item["dueDate"] = .date(Date(timeIntervalSinceReferenceDate: Double(n) * 3_600))
            try item.setValue(list, forKey: "category")
        }
        todo.app.runScript("<C-s>")
        #expect(!context.hasChanges)
        return (todo, driver)
    }

    @Test("while a slow filter runs, keys and help answer and the status bar shows it; Esc stops it and the items stay as they were")
    func keysAnswerWhileFiltering() throws {
        let (todo, driver) = try launchWithItems(3_000)
        todo.app.runScript("jjj")
        let selected = try #require(todo.items.selectedObjects.first?.string("name"))
        todo.app.runScript("/\(Self.slowFilter)<Enter>", waitingForWork: false)
        #expect(todo.app.isWorking)
        #expect(driver.screenLines.last?.contains("Filtering…") == true, "\(driver.screenLines.last ?? "")")
        #expect(driver.screenLines.last?.contains("Esc stops") == true)

        #expect(todo.app.liveCommands.contains { $0.name == Application.cancelWorkCommandName && $0.keys == [.escape] })
        // Help opens and closes, and the selection moves, while the filter runs.
        let help = todo.app.runScript("?", waitingForWork: false)
        #expect(help.contains { $0.contains("─ Keys ─") }, "\(help.joined(separator: "\n"))")
        todo.app.runScript("<Esc>j", waitingForWork: false)
        #expect(todo.app.isWorking, "Esc closed the help, not the filter")
        #expect(todo.items.selectedObjects.first?.string("name") != selected)

        todo.app.runScript("<Esc>", waitingForWork: false)
        #expect(!todo.app.isWorking)
        #expect(screen(driver.screenLines).contains("Stopped: Filtering"))
        #expect(todo.items.arrangedCount == 3_000, "the items as they were")
        #expect(todo.filterText.isEmpty)
    }

    @Test("a newer filter stops the one still running and shows its own results")
    func newerFilterWins() throws {
        let (todo, driver) = try launchWithItems(3_000)
        todo.app.runScript("/\(Self.slowFilter)<Enter>", waitingForWork: false)
        #expect(todo.app.isWorking)
        todo.app.runScript("/<C-u>12<Enter>")
        #expect(!todo.app.isWorking)
        #expect(Set(todo.items.arrangedObjects.compactMap { $0.string("name") })
                == Set((0..<3_000).map { "item \($0)" }.filter { $0.contains("12") }))
        #expect(screen(driver.screenLines).contains("filter: 12"))
    }

    @Test("results replace the old ones when ready, and the selected item stays selected where it still shows")
    func selectionKept() throws {
        let (todo, _) = try launchWithItems(400)
        // Sorted by due date: item 250 is far past the first window of a hundred.
        todo.app.runScript("G")
        for _ in 0..<149 { todo.app.runScript("k") }
        #expect(todo.items.selectedObjects.first?.string("name") == "item 250")
        todo.app.runScript("/25<Enter>")
        #expect(todo.items.selectedObjects.first?.string("name") == "item 250", "still selected")
        let index = try #require(todo.items.selectionIndexes.first)
        #expect(todo.items.arrangedObject(at: index)?.string("name") == "item 250")
        #expect(todo.items.arrangedCount == (0..<400).filter { "item \($0)".contains("25") }.count)
        // Under a filter it no longer matches, another item is selected.
        todo.app.runScript("/<C-u>3<Enter>")
        #expect(todo.items.selectionIndexes.count == 1)
        #expect(todo.items.selectedObjects.first?.string("name")?.contains("3") == true)
    }

    @Test("a sort chosen in the table is read in the background too, and the selected item stays selected")
    func sortInBackground() throws {
        let (todo, _) = try launchWithItems(400)
        todo.app.runScript("G")
        for _ in 0..<149 { todo.app.runScript("k") }
        #expect(todo.items.selectedObjects.first?.string("name") == "item 250")
        todo.app.runScript("s")      // by the first column, the name
        let names = (0..<5).compactMap { todo.items.arrangedObject(at: $0)?.string("name") }
        #expect(names == ["item 0", "item 1", "item 10", "item 100", "item 101"], "\(names)")
        #expect(todo.items.sortDescriptors.first?.key == "name")
        #expect(todo.items.selectedObjects.first?.string("name") == "item 250")
        let index = try #require(todo.items.selectionIndexes.first)
        #expect(index == (0..<400).map { "item \($0)" }.sorted().firstIndex(of: "item 250"))
    }
}
