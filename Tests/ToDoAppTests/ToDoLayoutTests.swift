import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import TerminalUI
import ToDoApp
import Interchange
import TestSupport

@Suite("ToDo layout: kept between runs, small terminals")
struct ToDoLayoutTests: ToDoTesting {
    let folder: URL
    let url: URL

    init() throws {
        (folder, url) = try Self.makeFolder()
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
        #expect(todo.table.columns.first { $0.id == "dueDate" }?.width == 22, "16, widened by 2 three times")
        let (other, _) = try launch(seeded: false)
        #expect(other.table.state.sortColumn == nil, "without a settings file the table starts as designed")
        #expect(other.table.columns.first { $0.id == "dueDate" }?.width == 16)
    }

    @Test("a sort by several columns (S) is kept between runs, its keys in order")
    func severalSortKeysKept() throws {
        let settings = folder.appendingPathComponent("ToDo-view.json")
        do {
            let (todo, _) = try launch(seeded: false, viewSettingsURL: settings)
            todo.app.runScript("aMango<Enter>aApples<Enter>aZebra<Enter>")
            todo.app.runScript("llShhS")                // by done, then by name
            #expect(names(todo) == ["Apples", "Mango", "Zebra"])
            todo.app.runScript("q")
        }
        #expect(try ToDoViewSettings.load(from: settings).items?.sortKeys.map(\.column) == ["completed", "name"])
        let (todo, driver) = try launch(seeded: false, viewSettingsURL: settings)
        #expect(todo.table.state.sortKeys.map(\.column) == ["completed", "name"])
        #expect(names(todo) == ["Apples", "Mango", "Zebra"])
        #expect(screen(driver.screenLines).contains("Item ▲2"))
    }

    @Test("a settings file that cannot be read is reported and replaced at the next change; the table starts as designed")
    func layoutUnreadable() throws {
        let settings = folder.appendingPathComponent("ToDo-view.json")
        try Data("{ not json".utf8).write(to: settings)
        let (todo, driver) = try launch(seeded: false, viewSettingsURL: settings)
        #expect(screen(driver.screenLines).contains("Ignored ToDo-view.json, which holds no table layout; the next change replaces it"))
        #expect(todo.table.state.sortColumn == nil)
        todo.app.runScript("s")
        #expect(try ToDoViewSettings.load(from: settings).items?.sortColumn == "name")
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
