import Foundation
import Testing
import ObjectGraph
import TerminalUI
import ToDoApp
import TestSupport

/// The detail form holds its edits in a child context: leaving the form commits them to the
/// application's context as one step, Esc drops them all.
@Suite("ToDo form: edits held until the form is left")
struct ToDoFormTests: ToDoTesting {
    let folder: URL
    let url: URL

    init() throws {
        (folder, url) = try Self.makeFolder()
    }

    /// The table's row for the selected item.
    func tableRow(_ driver: MemoryDriver, containing text: String) -> String? {
        driver.screenLines.first { $0.contains(text) && !$0.contains("Item:") }
    }

    @Test("edits in the form stay out of the table until the form is left; then they arrive together, as one undo step")
    func leavingCommits() throws {
        let (todo, driver) = try launch(seeded: false)
        todo.app.runScript("aMilk<Enter><C-s>")
        // Into the form: rename, then flip Completed (two fields down).
        todo.app.runScript("<Tab><Enter><C-u>Oat milk<Enter>jj ")
        let editing = screen(driver.screenLines)
        #expect(editing.contains("Item: Oat milk"), "the form shows its edit")
        #expect(tableRow(driver, containing: "Milk") != nil && tableRow(driver, containing: "Oat milk") == nil,
                "the table still shows the item as it was\n\(editing)")
        #expect(!todo.context.hasChanges, "the application's context has none of it yet")
        #expect(editing.contains("Esc Drop edits"), "\(driver.screenLines.last ?? "")")

        todo.app.runScript("<Tab>")
        #expect(names(todo) == ["Oat milk"])
        let item = try #require(todo.items.arrangedObjects.first)
        #expect(item.bool("completed") == true)
        #expect(todo.context.updatedObjects == [item])
        todo.app.runScript("u")
        #expect(names(todo) == ["Milk"], "one undo takes back the whole form's edit")
        #expect(item.bool("completed") == false)
    }

    @Test("Esc in the form drops every edit it holds; the item is as it was")
    func escapeDrops() throws {
        let (todo, driver) = try launch(seeded: false)
        todo.app.runScript("aMilk<Enter><C-s>")
        todo.app.runScript("<Tab><Enter><C-u>Oat milk<Enter>jj ")
        todo.app.runScript("<Esc>")
        let text = screen(driver.screenLines)
        #expect(text.contains("Item: Milk"), "\(text)")
        #expect(text.contains("Dropped the form's edits"))
        #expect(!todo.context.hasChanges)
        #expect(todo.items.arrangedObjects.first?.bool("completed") == false)
        // Leaving the form afterwards brings nothing.
        todo.app.runScript("<Tab>")
        #expect(names(todo) == ["Milk"])
        #expect(!todo.context.hasChanges)
    }

    @Test("Ctrl-S and quitting save what the form holds")
    func savingTakesHeldEdits() throws {
        let (todo, _) = try launch(seeded: false)
        todo.app.runScript("aMilk<Enter><C-s>")
        todo.app.runScript("<Tab><Enter><C-u>Oat milk<Enter><C-s>")
        #expect(try storedNames() == ["Oat milk"])
        todo.app.runScript("<Enter><C-u>Soy milk<Enter>")
        todo.app.runScript("q")
        #expect(try storedNames() == ["Soy milk"], "quitting saves the form's held edit")
    }

    @Test("choosing a category in the form sets it on the item when the form is left")
    func categoryChoice() throws {
        let (todo, _) = try launch(seeded: true)
        let item = try #require(todo.items.arrangedObjects.first)
        todo.app.runScript("<Tab>jjjj<Enter>")
        #expect(todo.form.state.isEditing)
        todo.app.runScript("W<Enter>")
        #expect(item.object("category")?.string("name") != "Work", "held in the form")
        todo.app.runScript("<Tab>")
        #expect(item.object("category")?.string("name") == "Work")
        #expect(item.object("category")?.objects("todos").contains(item) == true, "the inverse follows")
    }
}
