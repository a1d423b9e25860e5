import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import TerminalUI
import ToDoApp
import Interchange
import TestSupport

@Suite("ToDo category panel")
struct ToDoCategoryTests: ToDoTesting {
    let folder: URL
    let url: URL

    init() throws {
        (folder, url) = try Self.makeFolder()
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
        #expect(welcome.object("category") == nil)
        todo.app.runScript("<Esc>")
        #expect(!screen(driver.screenLines).contains("Garden"), "the panel closed")
    }
}
