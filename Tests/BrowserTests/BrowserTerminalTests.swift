import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

/// `termdata browse` on a pseudo-terminal under tmux, with a script standing in for the
/// user's editor.
@Suite("Browser on a real terminal", .serialized)
struct BrowserTerminalTests {
    @Test("E gives the terminal to $EDITOR and takes it back: the note's new lines are saved with Ctrl-S")
    func editsInEditor() throws {
        let termdata = try #require(TmuxSession.binary(named: "termdata"), "termdata was not built next to the tests")
        SQLiteStore.register()
        let session = try TmuxSession(width: 100, height: 30)
        let dir = session.directory
        let store = dir.appendingPathComponent("Company.sqlite")
        do {
            let stack = try TestStack(model: try ModelFixtures.companyModel(), type: .sqlite, url: store)
            let note = try stack.context.insertObject(forEntityName: "Note")
            note["text"] = "Buy washers"
            try stack.context.save()
        }
        let editor = dir.appendingPathComponent("editor.sh")
        // The editor draws on the terminal it was given, as a real one would, then writes the file.
        try Data("#!/bin/sh\nprintf 'EDITING %s\\n' \"$1\"\nsleep 0.3\nprintf 'Buy washers\\nand a new tap\\n' > \"$1\"\n".utf8)
            .write(to: editor)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor.path)
        try session.typeLine("EDITOR=\(editor.path) \(termdata.path) browse --store \(store.path) --model \(ModelFixtures.company.path)"
                             + "; echo \"EXIT=$?\" > \(dir.path)/exit")
        _ = try session.waitFor { $0.last?.contains("0 Badge") == true }
        try session.send("j", "j", "j", "Enter")
        _ = try session.waitFor { $0.last?.contains("1 Note") == true }
        try session.send("E")
        _ = try session.waitFor { $0.contains { $0.hasPrefix("EDITING ") && $0.hasSuffix("/text.txt") } }
        var screen = try session.waitFor { $0.last?.contains("text changed in the editor") == true }
        #expect(screen.contains { $0.contains("Buy washers␊and a new tap") }, "the cell shows the line break: \(screen.joined(separator: "\n"))")
        #expect(!screen.contains { $0.hasPrefix("EDITING") }, "the browser drew its whole screen again")
        try session.send("C-s")
        screen = try session.waitFor { $0.last?.contains("1 Note · saved") == true }
        try session.send("q")
        #expect(session.waitForFile("exit") == "EXIT=0\n")

        let reader = try TestStack(model: try ModelFixtures.companyModel(), type: .sqlite, url: store)
        let notes = try reader.context.fetch(FetchRequest(entityName: "Note"))
        #expect(notes.map { $0["text"] } == [.string("Buy washers\nand a new tap")])
    }

    @Test("y copies the cell through OSC 52: tmux, which takes the sequence with set-clipboard on, holds the value decoded")
    func copiesThroughTheTerminal() throws {
        let termdata = try #require(TmuxSession.binary(named: "termdata"), "termdata was not built next to the tests")
        SQLiteStore.register()
        let session = try TmuxSession(width: 100, height: 30)
        try session.tmux(["set-option", "-g", "set-clipboard", "on"])
        let store = session.directory.appendingPathComponent("Company.sqlite")
        do {
            let stack = try TestStack(model: try ModelFixtures.companyModel(), type: .sqlite, url: store)
            try stack.context.insertObject(forEntityName: "Note")["text"] = "Café au lait, 2×"
            try stack.context.save()
        }
        try session.typeLine("\(termdata.path) browse --store \(store.path) --model \(ModelFixtures.company.path)")
        _ = try session.waitFor { $0.last?.contains("0 Badge") == true }
        try session.send("j", "j", "j", "Enter")
        _ = try session.waitFor { $0.last?.contains("1 Note") == true }
        try session.send("y")
        _ = try session.waitFor { $0.last?.contains("Copied text: Café au lait, 2× (16 characters)") == true }
        #expect(try session.tmux(["show-buffer"]) == "Café au lait, 2×", "the value, base 64 in the sequence, decoded by tmux")
        try session.send("I")
        _ = try session.waitFor { $0.last?.contains("Copied the object's URI") == true }
        #expect(try session.tmux(["show-buffer"]).hasPrefix("x-coredata://"))
        try session.send("q")
    }
}
