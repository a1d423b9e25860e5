import AppShell
import Foundation
import ObjectGraph
import Predicates
import Testing
import TerminalUI
import TestSupport
import ToDoApp

@Suite("ToDo follows other programs' saves")
struct ToDoLiveRefreshTests: ToDoTesting {
    let folder: URL
    let url: URL

    init() throws {
        (folder, url) = try Self.makeFolder()
    }

    /// Waits (up to ten seconds) for the store's watch to see the other save, and merges it
    /// as the application's timer would.
    private func mergeWhenNoticed(_ todo: ToDoApplication) throws -> [String] {
        let live = try #require(todo.live)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if case .needsRedraw = live.mergeIfChanged() { return todo.app.runScript("") }
            Thread.sleep(forTimeInterval: 0.02)
        }
        Issue.record("no remote change was noticed")
        return todo.app.runScript("")
    }

    @Test("items another program adds, renames and deletes show in place, the selection kept")
    func rowsFollowOtherSaves() throws {
        let (todo, _) = try launch(sqlite: true)
        #expect(todo.live?.isFollowing == true)
        let selected = todo.items.selectedObjects.map(\.objectID)
        let other = try otherStore()
        other.context.transactionAuthor = "phone"
        let zebra = try other.context.insertObject(forEntityName: "ToDo")
        zebra["name"] = "Zebra crossing"
        try other.context.save()
        var text = screen(try mergeWhenNoticed(todo))
        #expect(text.contains("Zebra crossing"))
        #expect(text.contains("Updated by phone: 1 added"))
        #expect(text.contains("2 items · saved"))
        #expect(todo.items.selectedObjects.map(\.objectID) == selected)

        zebra["name"] = "Zebra renamed"
        try other.context.save()
        text = screen(try mergeWhenNoticed(todo))
        #expect(text.contains("Zebra renamed"))
        #expect(!text.contains("Zebra crossing"))

        other.context.delete(zebra)
        try other.context.save()
        text = screen(try mergeWhenNoticed(todo))
        #expect(!text.contains("Zebra"))
        #expect(text.contains("Updated by phone: 1 removed"))
        #expect(text.contains("1 item · saved"), "the count follows")
        #expect(todo.items.selectedObjects.map(\.objectID) == selected)
    }

    @Test("an item being edited that another program changed is marked; its save names the field both changed and keeps the rest")
    func editedItemIsMarked() throws {
        let (todo, _) = try launch(sqlite: true)
        todo.app.runScript("<Enter><C-u>Mine<Enter>")
        let other = try otherStore()
        other.context.transactionAuthor = "phone"
        let item = try #require(try other.context.fetch(FetchRequest(entityName: "ToDo")).first)
        item["name"] = "Theirs"
        item["completed"] = true
        try other.context.save()

        let text = screen(try mergeWhenNoticed(todo))
        #expect(names(todo) == ["Mine"], "the user's unsaved name stays")
        #expect(text.contains("Changed by phone too; saving will ask"))
        #expect(text.contains("Changed by phone to “Theirs” too: saving asks whose value wins"))
        #expect(text.contains("Changed by phone to “[x]”: saving takes it"))

        let dialog = screen(todo.app.runScript("<C-s>"))
        #expect(dialog.contains("name changed on both sides"))
        todo.app.runScript("<Enter>")   // Keep mine
        let stored = try storedWelcome()
        #expect(stored.name == "Mine")
        #expect(stored.completed == true, "the other program's change to another field stays")
    }

    @Test("an edit the form holds is marked too, and leaving the form keeps it over the other program's value")
    func heldFormEditIsMarked() throws {
        let (todo, _) = try launch(sqlite: true)
        todo.app.runScript("<Tab><Enter><C-u>Mine<Enter>")   // held in the form's own context
        #expect(!todo.context.hasChanges)
        let other = try otherStore()
        other.context.transactionAuthor = "phone"
        let item = try #require(try other.context.fetch(FetchRequest(entityName: "ToDo")).first)
        item["name"] = "Theirs"
        try other.context.save()

        let text = screen(try mergeWhenNoticed(todo))
        #expect(text.contains("Changed by phone to “Theirs” too: saving asks whose value wins"))
        #expect(text.contains("Item: Mine"))
        todo.app.runScript("<Tab>")   // leaving the form commits its edit
        #expect(names(todo) == ["Mine"])
    }

    @Test("an XML store keeps no history: nothing is followed, and the app works as before")
    func xmlStoreIsNotFollowed() throws {
        let (todo, _) = try launch()
        #expect(todo.live?.isFollowing == false)
    }
}
