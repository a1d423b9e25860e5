import Foundation
import Testing
import TestSupport
@testable import TerminalUI

/// A record edited by the form in these tests.
final class TaskRecord {
    var title = "Buy milk"
    var priority = 2
    var due = RecordingRows.day(2026, 11, 21, 9, 0)
    var done = false
    var list = "Home"
    let created = RecordingRows.day(2026, 1, 1)
}

@Suite("Form view")
struct FormViewTests {
    func makeForm() -> (Application, MemoryDriver, FormView, TaskRecord) {
        let record = TaskRecord()
        let form = FormView(fields: [
            FormField("title", label: "Title", editor: .text, get: { .text(record.title) }, set: { value in
                guard case let .text(text) = value else { throw EditorError("A title cannot be empty") }
                record.title = text
            }),
            FormField("priority", label: "Priority", editor: .integer, get: { .integer(record.priority) }, set: { value in
                guard case let .integer(n) = value, (1...5).contains(n) else { throw EditorError("Priority goes from 1 to 5") }
                record.priority = n
            }),
            FormField("due", label: "Due", editor: .date, get: { .date(record.due) }, set: { value in
                if case let .date(date) = value { record.due = date }
            }),
            FormField("done", label: "Done", editor: .toggle, get: { .bool(record.done) }, set: { value in
                if case let .bool(flag) = value { record.done = flag }
            }),
            FormField("list", label: "List", editor: .choice(["Home", "Work"]), get: { .text(record.list) }, set: { value in
                if case let .text(text) = value { record.list = text }
            }),
            FormField("created", label: "Created", editor: .readOnly, format: .date(showsTime: false),
                      get: { .date(record.created) }),
        ])
        form.today = { RecordingRows.day(2027, 3, 4, 12, 0) }
        let driver = MemoryDriver(size: Size(width: 40, height: 12), colorSupport: .monochrome)
        let app = Application(driver: driver)
        let window = Window(title: "Task")
        window.addSubview(form)
        window.layout = { _, area in form.frame = area }
        app.show(window)
        return (app, driver, form, record)
    }

    @Test("shows labelled fields with their values, right-aligned labels")
    func layout() {
        let (app, _, _, _) = makeForm()
        assertScreen(app.runScript(""), [
            "┌─ Task ───────────────────────────────┐",
            "│   Title: Buy milk                    │",
            "│Priority: 2                           │",
            "│     Due: 2026-11-21 09:00            │",
            "│    Done: [ ]                         │",
            "│    List: Home ▾                      │",
            "│ Created: 2026-01-01                  │",
        ])
    }

    @Test("Edit is offered on a field that can be edited, not on a read-only one; while editing, the editor's keys are")
    func editHint() {
        let (app, _, form, _) = makeForm()
        app.runScript("")
        #expect(app.offeredCommands.contains { $0.name == "form.edit" && $0.isHint })
        form.state.focusedField = 5      // Created: read-only
        #expect(!app.offeredCommands.contains { $0.name == "form.edit" && $0.isHint })
        form.state.focusedField = 0
        app.runScript("<Enter>")
        #expect(app.offeredCommands.contains { $0.name == "form.commit" })
        #expect(!app.offeredCommands.contains { $0.name == "form.next" }, "j types a j")
    }

    @Test("Enter edits the focused field and Enter stores it")
    func editText() {
        let (app, _, form, record) = makeForm()
        app.runScript("<Enter><C-w>tea<Enter>")
        #expect(record.title == "Buy tea")
        #expect(!form.state.isEditing)
    }

    @Test("a refused value shows its message under the field and keeps the editor open")
    func errorAtField() {
        let (app, _, form, record) = makeForm()
        var screen = app.runScript("j<Enter><C-u>9<Enter>")
        #expect(form.state.isEditing)
        #expect(record.priority == 2)
        #expect(screen[3].contains("⚠ Priority goes from 1 to 5"))
        screen = app.runScript("<Esc>")
        #expect(!form.state.isEditing)
        #expect(!screen.joined().contains("⚠"))
        screen = app.runScript("<Enter><C-u>x<Enter>")
        #expect(screen[3].contains("“x” is not a whole number"))
        app.runScript("<C-u>4<Enter>")
        #expect(record.priority == 4)
    }

    @Test("Tab stores and edits the next field, skipping checkboxes and read-only ones")
    func tabThroughFields() {
        let (app, _, form, record) = makeForm()
        app.runScript("<Enter><C-u>Walk<Tab><C-u>5<Tab>")
        #expect(record.title == "Walk")
        #expect(record.priority == 5)
        #expect(form.state.focusedField == 2)
        #expect(form.state.isEditing)
        app.runScript("t<Enter>")
        #expect(record.due == RecordingRows.day(2027, 3, 4, 9, 0))
    }

    @Test("Space flips a checkbox, a choice popup picks a list, read-only fields refuse edits")
    func checkboxChoiceReadOnly() {
        let (app, driver, _, record) = makeForm()
        var screen = app.runScript("jjj ")
        #expect(record.done)
        #expect(screen[4] == "│    Done: [x]                         │")
        app.runScript("j<Enter>j<Enter>")
        #expect(record.list == "Work")
        screen = app.runScript("j<Enter>")
        #expect(screen[11] == " Created cannot be edited")
        #expect(driver.screenLines[6].contains("2026-01-01"))
    }
}
