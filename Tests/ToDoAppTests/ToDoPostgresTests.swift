import AppShell
import Foundation
import Testing
import ObjectGraph
import Predicates
import TerminalUI
import ToDoApp
import TestSupport

/// The ToDo application on a store kept on a real PostgreSQL server.
@Suite("The ToDo application on a PostgreSQL store")
struct ToDoPostgresTests {
    @Test("a new store on the server is seeded once; an item added and saved in one client is there for the next")
    func sharedList() throws {
        let url = try PostgresServer.shared().storeURL()
        let first = try ToDoStore.open(at: url, type: .postgres)
        #expect(first.isNew)
        let driver = MemoryDriver(size: Size(width: 100, height: 30))
        let todo = try ToDoApplication(store: first, driver: driver)
        todo.app.runScript("")
        #expect(driver.screenLines.joined(separator: "\n").contains("Welcome!"))
        todo.app.runScript("aWater the ferns<Enter><C-s>")
        #expect(!first.context.hasChanges, "saved")

        let second = try ToDoStore.open(at: url, type: .postgres)
        #expect(!second.isNew, "opened, not made: no second welcome item")
        let names = try second.context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")]))
            .compactMap { $0.string("name") }
        #expect(names.count == 2 && names.contains("Water the ferns"), "\(names)")
        #expect(try second.context.count(for: FetchRequest(entityName: "Category")) == 3)
    }

    @Test("another client's save shows in the open application within a second: added, renamed, removed")
    func liveRefresh() throws {
        let url = try PostgresServer.shared().storeURL()
        let mine = try ToDoStore.open(at: url, type: .postgres)
        let todo = try ToDoApplication(store: mine, driver: MemoryDriver(size: Size(width: 100, height: 30)))
        todo.app.runScript("")
        let live = try #require(todo.live)
        #expect(live.isFollowing)
        func merged() -> String {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if case .needsRedraw = live.mergeIfChanged() { return todo.app.runScript("").joined(separator: "\n") }
                Thread.sleep(forTimeInterval: 0.02)
            }
            Issue.record("no remote change was noticed")
            return todo.app.runScript("").joined(separator: "\n")
        }
        let other = try ToDoStore.open(at: url, type: .postgres)
        other.context.transactionAuthor = "laptop"
        let bike = try other.context.insertObject(forEntityName: "ToDo")
        bike["name"] = "Fix the bike"
        let started = Date()
        try other.context.save()
        var text = merged()
        #expect(Date().timeIntervalSince(started) < 1, "within a second")
        #expect(text.contains("Fix the bike") && text.contains("Updated by laptop: 1 added"), "\(text)")
        bike["name"] = "Fix the red bike"
        try other.context.save()
        text = merged()
        #expect(text.contains("Fix the red bike") && !text.contains("Fix the bike"))
        other.context.delete(bike)
        try other.context.save()
        text = merged()
        #expect(!text.contains("red bike") && text.contains("Updated by laptop: 1 removed"))
    }
}
