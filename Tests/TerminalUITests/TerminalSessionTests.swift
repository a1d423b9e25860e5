import Foundation
import Testing
import TestSupport

/// The gallery binary on a real pseudo-terminal under tmux: its screen, a resize during an edit,
/// quitting by key and by signal, and the terminal settings afterwards.
@Suite("Gallery on a real terminal", .serialized)
struct TerminalSessionTests {
    func gallery() throws -> String {
        guard let binary = TmuxSession.galleryBinary else {
            Issue.record("termdata-gallery was not built next to the tests (run `swift build` first)")
            throw TmuxError("no gallery binary")
        }
        return binary.path
    }

    /// Run the gallery from the shell, recording `stty -g` before and after and the exit status.
    func start(_ session: TmuxSession, rows: Int = 500) throws -> [String] {
        let dir = session.directory.path
        try session.typeLine("stty -g > \(dir)/before; \(try gallery()) \(rows); echo \"EXIT=$?\" > \(dir)/exit; stty -g > \(dir)/after; echo DONE")
        return try session.waitFor { $0.last?.contains("? Help") == true && $0.contains { $0.contains("Buy milk") } }
    }

    func finish(_ session: TmuxSession) throws -> (exit: String?, before: String?, after: String?, screen: [String]) {
        let exit = session.waitForFile("exit")
        let after = session.waitForFile("after")
        let screen = try session.waitFor { $0.contains { $0.hasPrefix("DONE") } }
        return (exit, try? String(contentsOf: session.file("before"), encoding: .utf8), after, screen)
    }

    /// Sends a signal to the gallery, the one child of the pane's shell.
    func signalApplication(in session: TmuxSession, _ signal: Int32) throws {
        let shell = try session.tmux(["list-panes", "-F", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try TmuxSession.run(["pgrep", "-P", shell]).output.split(separator: "\n").compactMap { pid_t($0) }
        #expect(children.count == 1)
        for child in children { kill(child, signal) }
    }

    @Test("shows the table, menu bar and status bar, follows keys and a resize during an edit, and restores the terminal on q")
    func screenResizeAndQuit() throws {
        let session = try TmuxSession(width: 100, height: 30)
        var screen = try start(session)
        #expect(screen[0].hasPrefix(" File  Table  View  Help"))
        #expect(screen[1].hasPrefix("┌─ Tasks"))
        #expect(screen[2].contains("│     #│Title                       │Category  │ Pri│"))
        #expect(screen[4].contains("│     1│Buy milk                    │Home      │   1│"))
        #expect(screen[29].hasSuffix("1/500  500 rows"))
        #expect(screen.contains { $0.contains("日本語") })

        try session.send("j", "j")
        screen = try session.waitFor { $0[29].contains("3/500") }
        #expect(screen[29].hasSuffix("3/500  500 rows"))

        try session.send("l", "Enter")
        // A flag and a skin-toned emoji are several scalars that each take cells: every
        // scalar reaches the terminal, in the cells the table gave it.
        try session.tmux(["send-keys", "-l", " & tea 🇫🇷👍🏽"])
        screen = try session.waitFor { $0.contains { $0.contains("Fix milk & tea") } }
        #expect(screen[29].hasPrefix("Enter Store  Esc Cancel"))

        try session.resize(width: 60, height: 15)
        // The whole new frame, the edit in it: a capture can land between the border and the cells.
        screen = try session.waitFor {
            $0.count == 15 && $0[1].hasPrefix("┌─ Tasks") && $0[1].hasSuffix("┐") && $0[1].count == 60
                && $0.contains { $0.contains("Fix milk & tea") }
        }
        #expect(screen.count == 15)
        #expect(screen[1].count == 60)
        #expect(screen.contains { $0.contains("Fix milk & tea") })
        try session.send("Enter")
        screen = try session.waitFor { $0[14].contains("3/500") }
        #expect(screen[6].contains("│     3│Fix milk & tea 🇫🇷👍🏽       │"), "\(screen[6])")

        try session.send("q")
        let result = try finish(session)
        #expect(result.exit == "EXIT=0\n")
        #expect(result.before != nil && result.before == result.after)
        #expect(!result.screen.contains { $0.contains("Buy milk") })
    }

    @Test("Ctrl-C quits through the application and leaves the terminal as it was")
    func interrupt() throws {
        let session = try TmuxSession(width: 80, height: 24)
        _ = try start(session)
        try session.send("C-c")
        let result = try finish(session)
        #expect(result.exit == "EXIT=0\n")
        #expect(result.before == result.after)
        #expect(!result.screen.contains { $0.contains("Buy milk") })
    }

    @Test("SIGTERM and SIGHUP reach the application as events; it quits and the terminal is restored")
    func terminate() throws {
        for signal in [SIGTERM, SIGHUP] {
            let session = try TmuxSession(width: 80, height: 24)
            _ = try start(session)
            try signalApplication(in: session, signal)
            let result = try finish(session)
            #expect(result.exit == "EXIT=0\n")
            #expect(result.before != nil && result.before == result.after)
            #expect(!result.screen.contains { $0.contains("Buy milk") })
        }
    }

    @Test("a fatal signal (as from a runtime trap) restores the terminal before the process dies of it")
    func fatalSignal() throws {
        for (signal, status) in [(SIGSEGV, 139), (SIGILL, 132)] {
            let session = try TmuxSession(width: 80, height: 24)
            _ = try start(session)
            try signalApplication(in: session, signal)
            let result = try finish(session)
            #expect(result.exit == "EXIT=\(status)\n")
            #expect(result.before != nil && result.before == result.after)
            #expect(!result.screen.contains { $0.contains("Buy milk") })
        }
    }

    @Test("colours show on a 256-colour terminal and NO_COLOR turns them off")
    func colours() throws {
        let session = try TmuxSession(width: 80, height: 24)
        _ = try start(session)
        let coloured = try session.tmux(["capture-pane", "-p", "-e"])
        #expect(coloured.contains("38;5;") || coloured.contains("48;5;"), "\(coloured.prefix(400).debugDescription)")
        try session.send("q")
        _ = try finish(session)
        try session.typeLine("clear; NO_COLOR=1 \(try gallery()) 500")
        _ = try session.waitFor { $0.last?.contains("? Help") == true }
        let plain = try session.tmux(["capture-pane", "-p", "-e"])
        #expect(!plain.contains("38;5;") && !plain.contains("48;5;"))
        #expect(plain.contains("\u{1B}[7m"))
        try session.send("q")
    }

    @Test("Ctrl-Z gives the terminal back to the shell and fg brings the screen back")
    func suspendAndResume() throws {
        let session = try TmuxSession(width: 80, height: 24)
        let dir = session.directory.path
        try session.typeLine("set -m; stty -g > \(dir)/before")
        try session.typeLine("\(try gallery()) 500")
        var screen = try session.waitFor { $0.last?.contains("? Help") == true }
        #expect(screen.contains { $0.contains("Buy milk") })
        try session.send("C-z")
        screen = try session.waitFor { lines in lines.contains { $0.lowercased().contains("stopped") } }
        #expect(screen.contains { $0.lowercased().contains("stopped") })
        #expect(!screen.contains { $0.contains("Enter Edit") })
        try session.typeLine("stty -g > \(dir)/during")
        #expect(session.waitForFile("during") == session.waitForFile("before"))
        try session.typeLine("fg")
        screen = try session.waitFor { $0.last?.contains("? Help") == true }
        #expect(screen.contains { $0.contains("Buy milk") })
        try session.send("j")
        screen = try session.waitFor { $0[23].contains("2/500") }
        #expect(screen[23].contains("2/500"))
        try session.send("q")
        try session.typeLine("echo \"EXIT=$?\" > \(dir)/exit; stty -g > \(dir)/after; echo DONE")
        let result = try finish(session)
        #expect(result.exit == "EXIT=0\n")
        #expect(result.before == result.after)
    }

    @Test("on a terminal that cannot place the cursor (TERM=dumb) the gallery says so and leaves the terminal as it was")
    func dumbTerminal() throws {
        let session = try TmuxSession(width: 100, height: 30)
        let dir = session.directory.path
        try session.typeLine("stty -g > \(dir)/before; TERM=dumb \(try gallery()) 5 2> \(dir)/err; echo \"EXIT=$?\" > \(dir)/exit; stty -g > \(dir)/after; echo DONE")
        let (exit, before, after, _) = try finish(session)
        #expect(exit == "EXIT=1\n")
        #expect(before == after, "the terminal's modes are back")
        let message = try String(contentsOf: session.file("err"), encoding: .utf8)
        #expect(message.contains("cannot place the cursor; set TERM"), "\(message)")
    }

    @Test("without a terminal the gallery says so on one line and exits non-zero")
    func noTerminal() throws {
        let binary = try gallery()
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm"
        let notTTY = try TmuxSession.run([binary], environment: environment, standardInput: "/dev/null")
        #expect(notTTY.status == 1)
        #expect(notTTY.output == "termdata-gallery: no terminal: standard input is not a terminal\n")
        environment["TERM"] = nil
        let noTerm = try TmuxSession.run([binary], environment: environment)
        #expect(noTerm.status == 1)
        #expect(noTerm.output == "termdata-gallery: no terminal: TERM is not set\n")
    }
}
