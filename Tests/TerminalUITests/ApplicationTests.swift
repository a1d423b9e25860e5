import Foundation
import Testing
import TestSupport
@testable import TerminalUI

/// A focusable view that records keys and can claim some of them.
final class KeyRecorder: View {
    var seen: [Key] = []
    var claims: Set<Key> = []
    var ownCommands: [Command] = []
    override var canFocus: Bool { true }
    override func handle(_ event: Event) -> EventResult {
        guard case let .key(key) = event else { return .ignored }
        seen.append(key)
        return claims.contains(key) ? .handled : .ignored
    }
    override var commands: [Command] { ownCommands }
    override func draw(in canvas: Canvas) {
        canvas.write(hasFocus ? "[focused]" : "[idle]", x: 0, y: 0)
    }
}

@Suite("Application and responder chain")
struct ApplicationTests {
    func makeApp(size: Size = Size(width: 40, height: 10)) -> (Application, MemoryDriver, Window, KeyRecorder, KeyRecorder) {
        let driver = MemoryDriver(size: size, colorSupport: .monochrome)
        let app = Application(driver: driver)
        let window = Window(title: "Main")
        let left = KeyRecorder(), right = KeyRecorder()
        window.addSubview(left)
        window.addSubview(right)
        window.layout = { _, area in
            left.frame = Rect(x: area.x, y: area.y, width: area.width / 2, height: area.height)
            right.frame = Rect(x: area.x + area.width / 2, y: area.y, width: area.width / 2, height: area.height)
        }
        app.show(window)
        return (app, driver, window, left, right)
    }

    @Test("a key goes to the focused view first, then its commands, then the global key map")
    func chainOrder() {
        let (app, _, _, left, _) = makeApp()
        var ran: [String] = []
        left.claims = [.character("x")]
        left.ownCommands = [Command("left.q", title: "Local q", keys: [.character("q")]) { ran.append("left.q"); return .handled }]
        app.keyMap.add(Command("global.x", title: "Global x", keys: [.character("x")]) { ran.append("global.x"); return .handled })
        app.runScript("xq")
        #expect(left.seen == [.character("x"), .character("q")])
        #expect(ran == ["left.q"])
        #expect(!app.isQuitting)
    }

    @Test("a command runs by name just as by its key, and an unknown name says so")
    func performByName() {
        let harness = TableHarness(rows: RecordingRows(count: 20))
        harness.app.perform("table.bottom")
        #expect(harness.table.state.selectedRow == 19)
        harness.app.perform("table.top")
        harness.run("G")
        #expect(harness.table.state.selectedRow == 19)
        harness.app.perform("no.such")
        #expect(harness.app.statusBar.message == "Not available here: no.such")
        harness.app.perform("app.suspend")
        #expect(harness.driver.suspendCount == 1)
    }

    @Test("a status wider than the screen keeps its end; beside a message it takes half; a message keeps to one line")
    func statusOverflow() {
        let (app, driver, _, _, _) = makeApp()
        app.statusBar.status = "2 FeedbackSubCategory · Settlement › subcategory · filter: payout · 2 unsaved changes"
        app.runScript("")
        let bottom = driver.screenLines.last ?? ""
        #expect(bottom.hasSuffix("… · filter: payout · 2 unsaved changes"), "\(bottom)")
        app.showMessage("Could not save:\n  firstName is required\n  salary must be at least 0", isError: true)
        app.runScript("")
        let withMessage = driver.screenLines.last ?? ""
        #expect(withMessage.hasPrefix(" Could not save: …"), "\(withMessage)")
        #expect(withMessage.hasSuffix("…· 2 unsaved changes"), "\(withMessage)")
        app.statusBar.status = "1 item"
        app.showMessage("Saved:\n\tok", isError: false)
        app.runScript("")
        #expect(driver.screenLines.last == " Saved: · ok                     1 item")
    }

    @Test("a status a little too wide gives up its middle parts first, keeping the count and the changes")
    func statusMiddle() {
        let (app, driver, _, _, _) = makeApp()
        app.statusBar.status = "2 items · filter: milk eggs · 1 unsaved change"
        app.runScript("")
        #expect(driver.screenLines.last?.hasSuffix("2 items · filter: milk eggs · 1 unsaved change") == false)
        #expect(driver.screenLines.last?.hasSuffix("2 items · … · 1 unsaved change") == true, "\(driver.screenLines.last ?? "")")
        app.statusBar.status = "3 Employee · Department “Ops” › employees · filter: ada · saved"
        app.setNeedsDisplay()
        app.runScript("")
        #expect(driver.screenLines.last?.hasSuffix("3 Employee · … · saved") == true, "\(driver.screenLines.last ?? "")")
    }

    @Test("when the key hints do not all fit, the help hint keeps its place at the end")
    func helpHintStays() {
        let hints = [Command("a", title: "Add", keys: [.character("a")]) { .handled },
                     Command("d", title: "Delete", keys: [.character("d")]) { .handled },
                     Command("e", title: "Edit", keys: [.enter]) { .handled },
                     Command(StatusBar.helpCommandName, title: "Help: list keys", keys: [.character("?")], hint: "Help") { .handled }]
        let all = StatusBar.fittedHints(hints, width: 60).map { "\($0.key) \($0.label)" }
        #expect(all == ["a Add", "d Delete", "Enter Edit", "? Help"])
        let narrow = StatusBar.fittedHints(hints, width: 25).map { "\($0.key) \($0.label)" }
        #expect(narrow == ["a Add", "d Delete", "? Help"], "the hints before it give way: \(narrow)")
        #expect(StatusBar.fittedHints(hints, width: 8).map(\.label) == ["Help"])
        #expect(StatusBar.fittedHints(hints, width: 5).isEmpty, "nothing is drawn past the room there is")
    }

    @Test("q quits when nobody takes it")
    func quit() {
        let (app, _, _, left, _) = makeApp()
        app.runScript("q")
        #expect(app.isQuitting)
        #expect(left.seen == [.character("q")])
    }

    @Test("shouldQuit can keep the application running")
    func quitGuard() {
        let (app, _, _, _, _) = makeApp()
        var asked = 0
        app.shouldQuit = { asked += 1; return asked > 1 }
        app.runScript("q")
        #expect(!app.isQuitting)
        app.runScript("q")
        #expect(app.isQuitting)
    }

    @Test("Tab and Shift-Tab move focus between panes")
    func tabFocus() {
        let (app, driver, window, left, right) = makeApp()
        #expect(window.focusedView === left)
        var screen = app.runScript("<Tab>")
        #expect(window.focusedView === right)
        #expect(screen[1] == "│[idle]             [focused]          │")
        screen = app.runScript("<S-Tab>")
        #expect(window.focusedView === left)
        #expect(driver.screenLines[1] == "│[focused]          [idle]             │")
    }

    @Test("a click focuses the view under the mouse")
    func clickFocus() {
        let (app, driver, window, _, right) = makeApp()
        driver.click(x: 25, y: 3)
        app.runScript("")
        #expect(window.focusedView === right)
    }

    @Test("a modal dialog takes every key until a button is pressed")
    func modalDialog() {
        let (app, driver, _, left, _) = makeApp()
        var choice: Int?? = .none
        app.alert(title: "Quit", message: "Discard changes?", buttons: ["Discard", "Keep"]) { choice = .some($0) }
        var screen = app.runScript("q")
        #expect(!app.isQuitting)
        #expect(left.seen.isEmpty)
        assertScreen(screen, [
            "┌─ Main ───────────────────────────────┐",
            "│[idle]             [idle]             │",
            "│      ┌─ Quit ────────────[x]─┐       │",
            "│      │ Discard changes?      │       │",
            "│      │                       │       │",
            "│      │ [ Discard ]    Keep   │       │",
            "│      └───────────────────────┘       │",
        ])
        #expect(screen[9] == "Enter Choose  Esc Cancel")
        screen = app.runScript("<Right><Enter>")
        #expect(choice == .some(1))
        #expect(app.windows.count == 1)
        #expect(!driver.screenLines.joined().contains("Discard"))
    }

    @Test("timers fire on the virtual clock without sleeping, repeating ones again and again")
    func timers() {
        let (app, driver, _, _, _) = makeApp()
        var fired: [Double] = []
        app.schedule(after: 300) { _ in fired.append(driver.clock.now); return .needsRedraw }
        var ticks = 0
        let id = app.schedule(after: 60, repeating: 60) { _ in ticks += 1; return [] }
        driver.wait(299)
        app.runScript("")
        #expect(fired.isEmpty)
        #expect(ticks == 4)
        driver.wait(2)
        app.runScript("")
        #expect(fired == [300])
        app.cancelTimer(id)
        driver.wait(600)
        app.runScript("")
        #expect(ticks == 5)
    }

    @Test("a theme set after the application was made is the one run() keeps; without one, run() picks the terminal's")
    func themeSetLater() throws {
        let colour = MemoryDriver(size: Size(width: 40, height: 10), colorSupport: .palette256)
        let picked = Application(driver: colour)
        picked.theme = .monochrome
        try picked.run()
        #expect(picked.theme == .monochrome, "run() replaced the theme the program set")

        // No theme given: run() follows what the terminal turns out to have when it starts.
        let terminal = MemoryDriver(size: Size(width: 40, height: 10), colorSupport: .palette256)
        let following = Application(driver: terminal)
        #expect(following.theme == .standard)
        terminal.colorSupport = .monochrome
        try following.run()
        #expect(following.theme == .monochrome, "no theme given: the terminal's")
    }

    @Test("a timer's ID is never given to a later timer: cancelling one that has fired stops nothing else")
    func timerIDsAreNotReused() {
        let (app, driver, _, _, _) = makeApp()
        let once = app.schedule(after: 1) { _ in [] }
        driver.wait(2)
        app.runScript("")
        var ticks = 0
        let later = app.schedule(after: 1, repeating: 1) { _ in ticks += 1; return [] }
        #expect(later != once)
        app.cancelTimer(once)
        driver.wait(3.5)
        app.runScript("")
        #expect(ticks == 3, "the repeating timer kept running after the old one was cancelled")
    }

    @Test("a signal quits by default, or does what the application decides")
    func signals() {
        let (app, driver, _, _, _) = makeApp()
        var saved = false
        app.onSignal = { signal in
            if signal == .terminate { saved = true; return .quit }
            app.showMessage("Press q to quit")
            return .needsRedraw
        }
        driver.send(.signal(.interrupt))
        let screen = app.runScript("")
        #expect(!app.isQuitting)
        #expect(screen[9] == " Press q to quit")
        driver.send(.signal(.terminate))
        app.runScript("")
        #expect(saved)
        #expect(app.isQuitting)

        let (plain, plainDriver, _, _, _) = makeApp()
        plainDriver.send(.signal(.hangup))
        plain.runScript("")
        #expect(plain.isQuitting)
    }

    @Test("a resize lays the windows out again")
    func resize() {
        let (app, driver, window, _, right) = makeApp()
        driver.resize(to: Size(width: 30, height: 6))
        let screen = app.runScript("")
        #expect(window.frame == Rect(x: 0, y: 0, width: 30, height: 5))
        #expect(right.frame.x == 15)
        #expect(screen.count == 6)
        #expect(screen[0] == "┌─ Main ─────────────────────┐")
    }

    @Test("a screen too small for the layout says so and recovers when it grows")
    func tooSmall() {
        let (app, driver, _, _, _) = makeApp()
        app.minimumSize = Size(width: 30, height: 8)
        driver.resize(to: Size(width: 24, height: 4))
        var screen = app.runScript("")
        #expect(screen.contains { $0.contains("Terminal too small") })
        #expect(screen.contains { $0.contains("24×4, need 30×8") })
        #expect(screen.contains { $0.contains("Ctrl-Q quits") }, "the one way out is named")
        driver.resize(to: Size(width: 1, height: 1))
        screen = app.runScript("jjk")
        #expect(screen == ["T"])
        driver.resize(to: Size(width: 40, height: 10))
        screen = app.runScript("")
        #expect(screen[0].hasPrefix("┌─ Main"))
    }

    @Test("input ending stops the loop instead of spinning")
    func inputClosed() {
        let (app, driver, _, _, _) = makeApp()
        app.runLoop { false }
        #expect(app.isQuitting)
        #expect(driver.isIdle)
    }

    @Test("Ctrl-L draws every cell again")
    func redraw() {
        let (app, driver, _, _, _) = makeApp()
        app.runScript("")
        app.runScript("<Tab>")
        #expect(driver.lastChangedCells < 40)
        app.runScript("<C-l>")
        #expect(driver.lastChangedCells == 400)
    }
}

@Suite("Work in the background")
struct BackgroundWorkTests {
    @Test("Esc stops work that can stop, dropping its result; work past stopping runs on and its result arrives")
    func stoppingAndFinishing() throws {
        let driver = MemoryDriver(size: Size(width: 60, height: 10))
        let app = Application(driver: driver)
        app.show(Window(title: "Main"))
        app.runScript("")
        let release = DispatchSemaphore(value: 0)
        var received: [String] = []
        let saving = app.beginWork("Saving", canStop: { false }, start: { (progress: WorkProgress, finish: @escaping @Sendable (String) -> Void) in
            progress.reportFinishing("writing")
            DispatchQueue.global().async {
                release.wait()
                finish("saved")
            }
        }, done: { received.append($0) })
        let reading = app.beginWork("Reading", start: { (finish: @escaping @Sendable (String) -> Void) in
            DispatchQueue.global().async {
                release.wait()
                finish("read")
            }
        }, done: { received.append($0) })
        let screen = app.runScript("<Esc>", waitingForWork: false).joined(separator: "\n")
        #expect(screen.contains("Saving cannot stop now; it ends soon"), "\(screen)")
        #expect(app.isRunning(saving) && !app.isRunning(reading))
        let status = app.workActivity ?? ""
        #expect(status.contains("Saving… writing") && !status.contains("Esc stops"), "no Esc offered: \(status)")
        release.signal()
        release.signal()
        #expect(app.waitForWork())
        #expect(received == ["saved"], "the stopped reading's result is dropped")
    }
}
