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

    /// The app on a SQLite store whose "Work" category holds `count` saved items.
    private func launchWithLargeCategory(_ count: Int) throws -> (ToDoApplication, MemoryDriver) {
        do {
            let setup = try otherStore(sqlite: true)
            let work = try #require(try setup.context.fetch(FetchRequest(entityName: "Category", predicate: try ObjectPredicate(format: "name == 'Work'"))).first)
            for i in 0..<count {
                let item = try setup.context.insertObject(forEntityName: "ToDo")
                item["name"] = .string("Work item \(i)")
                item["category"] = .object(work)
            }
            try setup.context.save()
        }
        return try launch(sqlite: true)
    }

    @Test("deleting a category of more items than the context changes at once runs in the background and is saved, the keys answering")
    func largeCategoryInBackground() throws {
        // The seeded store first, then the items.
        _ = try launch(sqlite: true)
        let count = 1_500
        let (todo, driver) = try launchWithLargeCategory(count)
        // An unsaved edit elsewhere, which the delete leaves unsaved.
        let welcome = try #require(todo.items.arrangedObjects.first { $0.string("name")?.hasPrefix("Welcome") == true })
        welcome["name"] = "Welcome, renamed"
        todo.endEvent()
        todo.app.runScript("c")
        let work = try #require(todo.categories.arrangedObjects.first { $0.string("name") == "Work" })
        todo.categories.setSelectedObjects([work])
        var text = screen(todo.app.runScript("d"))
        #expect(text.contains("“Work” has 1,500 items"), "\(text)")
        #expect(text.contains("saved at once"), "the question says it cannot be undone: \(text)")
        todo.app.runScript("<Enter>", waitingForWork: false)
        #expect(todo.app.isWorking, "the delete runs off the loop")
        #expect(screen(driver.screenLines).contains("Deleting “Work”"))
        #expect(todo.app.waitForWork(timeout: 120))
        text = screen(todo.app.runScript(""))
        #expect(text.contains("Deleted “Work” and saved: its 1,500 items have no category now"), "\(text)")
        #expect(!work.isValid || work.isDeleted, "the category left the context")
        #expect(!todo.categories.arrangedObjects.contains { $0.string("name") == "Work" })
        #expect(todo.context.updatedObjects == [welcome], "only the user's own edit is unsaved")
        let stored = try otherStore(sqlite: true).context
        #expect(try stored.count(for: FetchRequest(entityName: "Category", predicate: try ObjectPredicate(format: "name == 'Work'"))) == 0)
        #expect(try stored.count(for: FetchRequest(entityName: "ToDo", predicate: try ObjectPredicate(format: "category == nil"))) == count)
        #expect(try stored.count(for: FetchRequest(entityName: "ToDo", predicate: try ObjectPredicate(format: "name == 'Welcome, renamed'"))) == 0)
    }

    @Test("on a SQLite store the panel reads a category's items in the background as the selection moves; on XML, here", arguments: [true, false])
    func panelFollowsSelection(sqlite: Bool) throws {
        _ = try launch(sqlite: sqlite)
        let (todo, driver) = sqlite ? try launchWithLargeCategory(300) : try launch()
        #expect((todo.categoryItems.readsOwnersElsewhere != nil) == sqlite)
        todo.app.runScript("c")
        let names = todo.categories.arrangedObjects.compactMap { $0.string("name") }
        #expect(names == ["Errands", "Home", "Work"])
        todo.app.runScript("jj")
        #expect(todo.categories.selectedObjects.first?.string("name") == "Work")
        #expect(todo.categoryItems.arrangedCount == (sqlite ? 300 : 0), "\(screen(driver.screenLines))")
        todo.app.runScript("k")
        #expect(todo.categoryItems.arrangedCount == 1)
        #expect(screen(driver.screenLines).contains("│Welcome!"), "Home's one item shows: \(screen(driver.screenLines))")
    }

    @Test("a large category that an unsaved item points at is deleted in the context, as one step to undo")
    func largeCategoryWithUnsavedItem() throws {
        _ = try launch(sqlite: true)
        let (todo, _) = try launchWithLargeCategory(1_500)
        let work = try #require(todo.categories.arrangedObjects.first { $0.string("name") == "Work" })
        let welcome = try #require(todo.items.arrangedObjects.first { $0.string("name")?.hasPrefix("Welcome") == true })
        welcome["category"] = .object(work)
        todo.endEvent()
        todo.app.runScript("c")
        todo.categories.setSelectedObjects([work])
        let text = screen(todo.app.runScript("d"))
        #expect(!text.contains("saved at once"), "\(text)")
        todo.app.runScript("<Enter>", waitingForWork: false)
        #expect(!todo.app.isWorking)
        #expect(work.isDeleted && welcome.object("category") == nil)
        todo.app.runScript("u")
        #expect(!work.isDeleted, "u takes it back")
    }
}
