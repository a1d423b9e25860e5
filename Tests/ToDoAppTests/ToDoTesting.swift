import Foundation
import Testing
import ObjectGraph
import Predicates
import TerminalUI
import ToDoApp
import TestSupport

/// What the ToDo application's suites share: a folder of their own, the application on
/// the memory driver over an XML store there (or a SQLite one beside it), and ways to look
/// at the store as another window would.
protocol ToDoTesting {
    var folder: URL { get }
    /// The XML store's file.
    var url: URL { get }
}

/// A clock the tests move by hand.
///
/// `@unchecked Sendable`: the application's `now` closure must be Sendable, but a test sets
/// the clock and runs the application on its own thread only, between key scripts.
final class Clock: @unchecked Sendable { var now = Date(timeIntervalSinceReferenceDate: 800_000_000) }

extension ToDoTesting {
    static func makeFolder() throws -> (folder: URL, url: URL) {
        let folder = try Fixtures.temporaryDirectory("todo")
        return (folder, folder.appendingPathComponent("ToDo.xml"))
    }

    /// The application on the XML store at `url`, or with `sqlite` on a SQLite store beside it.
    func launch(seeded: Bool = true, sqlite: Bool = false, width: Int = 100, height: Int = 30, clock: Clock = Clock(),
                alertInterval: Double = 60, viewSettingsURL: URL? = nil) throws -> (ToDoApplication, MemoryDriver) {
        let store = sqlite ? try ToDoStore.open(at: folder.appendingPathComponent("ToDo.sqlite"), type: .sqlite, seeded: seeded)
                           : try ToDoStore.open(at: url, type: .xml, seeded: seeded)
        let driver = MemoryDriver(size: Size(width: width, height: height))
        let todo = try ToDoApplication(store: store, driver: driver, alertInterval: alertInterval, now: { clock.now },
                                       viewSettingsURL: viewSettingsURL)
        todo.app.runScript("")
        return (todo, driver)
    }

    func screen(_ lines: [String]) -> String { lines.joined(separator: "\n") }

    func names(_ todo: ToDoApplication) -> [String] {
        todo.items.arrangedObjects.compactMap { $0.string("name") }
    }

    func storedNames() throws -> [String] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        let store = try ToDoStore.open(at: url, type: .xml, seeded: false)
        return try store.context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")]))
            .compactMap { $0.string("name") }
    }

    /// The store `launch(sqlite:)` opened, seen by another stack, as another window would.
    func otherStore(sqlite: Bool = true) throws -> ToDoStore {
        try sqlite ? ToDoStore.open(at: folder.appendingPathComponent("ToDo.sqlite"), type: .sqlite, seeded: false)
                   : ToDoStore.open(at: url, type: .xml, seeded: false)
    }

    /// The welcome item as another window on the same store sees it, renamed there,
    /// marked done and saved.
    func changeElsewhere(name: String, sqlite: Bool = true) throws {
        let other = try otherStore(sqlite: sqlite)
        let item = try #require(try other.context.fetch(FetchRequest(entityName: "ToDo")).first)
        item["name"] = .string(name)
        item["completed"] = true
        try other.context.save()
    }

    func storedWelcome(sqlite: Bool = true) throws -> (name: String?, completed: Bool?, doNotAlert: Bool?) {
        let store = try otherStore(sqlite: sqlite)
        let item = try #require(try store.context.fetch(FetchRequest(entityName: "ToDo")).first)
        return (item.string("name"), item.bool("completed"), item.bool("doNotAlert"))
    }
}
