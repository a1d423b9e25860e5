import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import TerminalUI
import ToDoApp
import Interchange
import TestSupport

@Suite("ToDo due-item alerts")
struct ToDoAlertTests: ToDoTesting {
    let folder: URL
    let url: URL

    init() throws {
        (folder, url) = try Self.makeFolder()
    }

    @Test("an item coming due opens the alert panel once, rings the bell, and can be marked done there")
    func alerts() throws {
        let clock = Clock()
        let (todo, driver) = try launch(seeded: false, clock: clock, alertInterval: 60)
        todo.app.runScript("aStand-up<Enter>")
        let item = try #require(todo.items.arrangedObjects.first)
        item["dueDate"] = .date(clock.now.addingTimeInterval(120))
        driver.wait(61)
        let text = screen(todo.app.runScript(""))
        #expect(text.contains("Due in the next 5 minutes"))
        #expect(driver.bellCount == 1)
        #expect(item.date("lastAlertDate") == clock.now)
        todo.app.runScript(" ")
        #expect(item.bool("completed") == true)
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
                let item = try store.context.insertObject(forEntityName: ToDoItem.entityName)
                item["name"] = .string(name)
                item["completed"] = .bool(completed)
                item["dueDate"] = .date(clock.now.addingTimeInterval(-3600))
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
            .fetch(FetchRequest(entityName: ToDoItem.entityName, sortDescriptors: [ObjectSortDescriptor(key: "name")]))
        #expect(stored.map { $0.date("lastAlertDate") } == [nil, clock.now], "only the item not completed alerted")
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
        item["dueDate"] = .date(clock.now.addingTimeInterval(120))
        driver.wait(61)
        todo.app.runScript("")
        #expect(driver.bellCount == 1)
        todo.app.runScript("<Esc>")
        #expect(todo.store.unsavedChangeCount == 1, "with the new item unsaved, the mark waits for the next save")
        clock.now = clock.now.addingTimeInterval(600)
        driver.wait(60)
        todo.app.runScript("")
        #expect(driver.bellCount == 1, "overdue now, but it alerted for this due date")
        item["dueDate"] = .date(clock.now.addingTimeInterval(60))
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
        item["dueDate"] = .date(clock.now.addingTimeInterval(-3600))
        todo.context.processPendingChanges()
        driver.wait(61)
        todo.app.runScript("<Esc>")
        #expect(driver.bellCount == 1)
        let firstMark = try #require(item.date("lastAlertDate"))

        clock.now = clock.now.addingTimeInterval(60)
        item["dueDate"] = .date(clock.now.addingTimeInterval(-7200))     // earlier, and past
        todo.context.processPendingChanges()
        #expect(item.date("lastAlertDate") == nil)
        driver.wait(60)
        todo.app.runScript("<Esc>")
        #expect(driver.bellCount == 2, "the new date alerts")
        let secondMark = try #require(item.date("lastAlertDate"))
        #expect(secondMark > firstMark)

        item["dueDate"] = .date(clock.now.addingTimeInterval(-100))
        todo.context.processPendingChanges()
        todo.app.runScript("u")
        #expect(item.date("dueDate") == clock.now.addingTimeInterval(-7200))
        #expect(item.date("lastAlertDate") == secondMark, "the mark for that date came back with it")
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
        due["dueDate"] = .date(clock.now.addingTimeInterval(120))
        todo.app.runScript("aShoes")
        driver.wait(61)
        let text = screen(todo.app.runScript(" on sale<Enter>"))
        #expect(!text.contains("Due in the next 5 minutes"))
        #expect(due.bool("completed") == false, "Space went to the edit, not to the due item")
        #expect(todo.items.arrangedObjects.contains { $0.string("name") == "Shoes on sale" })
        driver.wait(60)
        #expect(screen(todo.app.runScript("")).contains("Due in the next 5 minutes"))
        #expect(driver.bellCount == 1)
    }

    @Test("the due-items predicate looks five minutes ahead, leaves out completed and marked items, and those alerted since their due date")
    func duePredicate() throws {
        let now = Date(timeIntervalSinceReferenceDate: 0)
        let p = try DueItemAlerts().predicate(now: now)
        #expect(p.predicateFormat.contains("dueDate <= CAST(300"))
        #expect(p.predicateFormat.contains("completed == 0"))
        #expect(p.predicateFormat.contains("lastAlertDate == nil OR lastAlertDate < dueDate"))
    }
}
