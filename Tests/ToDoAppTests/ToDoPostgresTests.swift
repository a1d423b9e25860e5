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
}
