import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import TerminalUI
import ToDoApp
import Interchange
import TestSupport

@Suite("ToDo saves that meet another window's")
struct ToDoConflictTests: ToDoTesting {
    let folder: URL
    let url: URL

    init() throws {
        (folder, url) = try Self.makeFolder()
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
}
