import Foundation
import Testing
import TerminalUI
import ToDoApp
import TestSupport

@Test func debugSecondAdd() throws {
    let folder = try Fixtures.temporaryDirectory("todo")
    let store = try ToDoStore.open(at: folder.appendingPathComponent("t.xml"), type: .xml, seeded: false)
    let driver = MemoryDriver(size: Size(width: 80, height: 16))
    let todo = try ToDoApplication(store: store, driver: driver)
    todo.app.runScript("")
    print(todo.app.runScript("aOne<Enter>").joined(separator: "\n"))
    print(todo.app.runScript("a").joined(separator: "\n"))
    print(todo.app.runScript("Two").joined(separator: "\n"))
    print(todo.app.runScript("<Enter>").joined(separator: "\n"))
    print(todo.app.runScript("<C-c>").joined(separator: "\n"))
    print(todo.app.runScript("<Enter>").joined(separator: "\n"))
}
