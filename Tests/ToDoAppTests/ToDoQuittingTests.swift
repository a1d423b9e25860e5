import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import TerminalUI
import ToDoApp
import Interchange
import TestSupport

@Suite("ToDo quitting")
struct ToDoQuittingTests: ToDoTesting {
    let folder: URL
    let url: URL

    init() throws {
        (folder, url) = try Self.makeFolder()
    }

    @Test("input that ends (the terminal gone before its hangup signal) saves and quits, as a hangup does")
    func inputClosedSaves() throws {
        let (todo, _) = try launch(seeded: false)
        todo.app.runScript("aKeep me<Enter>")
        todo.app.handle(.inputClosed)
        #expect(todo.app.isQuitting)
        #expect(try storedNames() == ["Keep me"])
    }

    @Test("q saves and quits")
    func quitSaves() throws {
        let (todo, _) = try launch(seeded: false)
        todo.app.runScript("aKeep me<Enter>q")
        #expect(todo.app.isQuitting)
        #expect(try storedNames() == ["Keep me"])
    }

    @Test("F10 with an edit open commits it first, then saves and quits; q in an edit is just a letter")
    func quitCommitsEdit() throws {
        let (todo, _) = try launch(seeded: false)
        todo.app.runScript("aHalf typed q")
        #expect(!todo.app.isQuitting)
        todo.app.runScript("<F10>")
        #expect(todo.app.isQuitting)
        #expect(try storedNames() == ["Half typed q"])
    }

    @Test("SIGTERM quits the same way: commit, save, quit")
    func terminateSaves() throws {
        let (todo, driver) = try launch(seeded: false)
        todo.app.runScript("aFrom a signal")
        driver.send(.signal(.terminate))
        todo.app.runScript("")
        #expect(todo.app.isQuitting)
        #expect(try storedNames() == ["From a signal"])
    }

    @Test("when the save on quit fails, it asks: Quit anyway or Cancel")
    func quitWhenSaveFails() throws {
        let (todo, _) = try launch(seeded: false)
        todo.app.runScript("aUnsaveable<Enter><C-s>")
        // The store's file can no longer be replaced: a folder now stands in its place.
        try FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        todo.app.runScript(" ")
        let text = screen(todo.app.runScript("q"))
        #expect(text.contains("Could not save changes while quitting. Quit anyway?"))
        #expect(!todo.app.isQuitting)
        todo.app.runScript("<Right><Enter>")   // Cancel
        #expect(!todo.app.isQuitting)
        todo.app.runScript("q<Enter>")          // Quit anyway
        #expect(todo.app.isQuitting)
    }

    @Test("Ctrl-C asks what to do with unsaved changes; Discard and quit leaves the store as it was")
    func interrupt() throws {
        let (todo, _) = try launch(seeded: false)
        todo.app.runScript("aScratch<Enter>")
        let text = screen(todo.app.runScript("<C-c>"))
        #expect(text.contains("Save 1 unsaved change before quitting?"))
        #expect(text.contains("[ Save and quit ]"), "saving is the default")
        todo.app.runScript("<Right><Enter>")
        #expect(todo.app.isQuitting)
        #expect(try storedNames().isEmpty)
    }

    @Test("Ctrl-C pressed again while it asks does not stack a second question; Save and quit saves")
    func interruptTwice() throws {
        let (todo, driver) = try launch(seeded: false)
        todo.app.runScript("aScratch<Enter><C-c>")
        // In a terminal Ctrl-C may arrive as SIGINT, which goes past the open dialog.
        for _ in 0..<2 { driver.send(.signal(.interrupt)) }
        todo.app.runScript("")
        todo.app.runScript("<Esc>")
        #expect(!screen(driver.screenLines).contains("before quitting?"), "one Esc closes the only dialog")
        #expect(!todo.app.isQuitting)
        todo.app.runScript("<C-c><Enter>")
        #expect(todo.app.isQuitting)
        #expect(try storedNames() == ["Scratch"])
    }
}
