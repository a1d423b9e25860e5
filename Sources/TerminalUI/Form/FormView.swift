import Foundation

/// Labelled fields for text, numbers, dates, checkboxes and choices, one per line, with
/// errors shown under the field they belong to.
///
/// j/k or arrows move between fields, Enter or `e` edits, Space flips a checkbox; while editing,
/// Enter commits, Esc cancels and Tab commits and edits the next field. With a `session`, the
/// stored values are held together: leaving the form commits them all, and Esc drops them all.
///
///     let form = FormView(fields: [
///         FormField("title", label: "Title", get: { .text(task.title) }, set: { task.title = "\($0)" }),
///         FormField("done", label: "Done", editor: .toggle, get: { .bool(task.done) }, set: { ... }),
///     ])
public final class FormView: View {
    /// The fields, top to bottom.
    public var fields: [FormField]
    /// The focused field, the open editor, the errors and the scroll position.
    public var state = FormState()
    /// Where "today" comes from for date editors.
    public var today: () -> Date = { Date() }
    /// Called with the focused field's index on Enter when the field cannot be edited.
    public var onActivate: ((Int) -> Void)?
    /// What holds the stored values until the form is left; `nil` stores each value at once.
    public var session: FormEditSession?

    /// A form showing `fields`, the first one focused.
    public init(fields: [FormField]) {
        self.fields = fields
        super.init()
    }

    /// Always true: a form takes the focus for its keys.
    public override var canFocus: Bool { true }
    /// Whether a field's editor is open, taking typed characters.
    public override var capturesTyping: Bool { state.isEditing }

    /// Puts pasted text into the open field editor as one edit, clearing the field's error;
    /// nil when no text editor is open.
    public override func insertPastedText(_ text: String) -> EventResult? {
        guard state.editor?.insertText(text) == true else { return nil }
        state.errors[fields[state.focusedField].id] = nil
        return .redraw
    }

    var labelWidth: Int { min(20, (fields.map { $0.label.displayWidth }.max() ?? 0)) }

    /// Rows each field takes (one more with an error).
    /// A field with a message, its own or its open editor's, takes a second row for it.
    private func height(of index: Int) -> Int {
        let editing = index == state.focusedField && state.editor?.message != nil
        return state.errors[fields[index].id] == nil && !editing ? 1 : 2
    }

    private func rowOf(_ index: Int) -> Int { (0..<index).reduce(0) { $0 + height(of: $1) } }

    private func scrollToFocus() {
        guard !fields.isEmpty else { return }
        state.focusedField = min(max(0, state.focusedField), fields.count - 1)
        let top = rowOf(state.focusedField)
        let bottom = top + height(of: state.focusedField)
        if top < state.scrollOffset { state.scrollOffset = top }
        if bottom > state.scrollOffset + frame.height { state.scrollOffset = max(0, bottom - frame.height) }
    }

    /// Draws each visible field's label and value (the focused one highlighted, changed ones
    /// marked), errors under their fields, and the open editor.
    public override func draw(in canvas: Canvas) {
        let theme = canvas.theme
        canvas.fill(canvas.bounds, style: theme.normal)
        scrollToFocus()
        let valueX = labelWidth + 2
        let valueWidth = max(1, canvas.size.width - valueX)
        var y = -state.scrollOffset
        var editorRect: Rect?
        for (index, field) in fields.enumerated() {
            defer { y += height(of: index) }
            guard y + height(of: index) > 0, y < canvas.size.height else { continue }
            let focused = index == state.focusedField
            let labelStyle = focused && hasFocus ? theme.header : theme.normal
            canvas.write(field.label, x: 0, y: y, width: labelWidth, alignment: .right, style: labelStyle)
            canvas.write(":", x: labelWidth, y: y, style: theme.dimmed)
            let value = field.get()
            var text = field.format.string(for: value)
            var isNil = false
            if case .empty = value, let nilText = field.nilText { text = nilText; isNil = true }
            if case .choice = field.editor { text += " ▾" }
            let style: Style
            if field.editor == .readOnly || (isNil && !(focused && hasFocus)) { style = theme.dimmed }
            else if focused && hasFocus { style = theme.selection }
            else if focused { style = theme.inactiveSelection }
            else if field.isChanged?() == true { style = theme.modified }
            else { style = theme.normal }
            let shown = focused ? max(text.displayWidth, 1) : text.displayWidth
            canvas.write(text, x: valueX, y: y, width: min(valueWidth, max(shown, focused ? 12 : 0)), style: style)
            if focused, state.isEditing { editorRect = Rect(x: valueX, y: y, width: min(valueWidth, max(24, text.displayWidth + 2)), height: 1) }
            if let error = state.errors[field.id], !(focused && state.isEditing) {
                canvas.write("⚠ " + error, x: valueX, y: y + 1, style: theme.error, maxWidth: valueWidth)
            }
        }
        if var editor = state.editor, let rect = editorRect {
            if editor.error == nil, let message = state.errors[fields[state.focusedField].id] { editor.error = message }
            editor.draw(in: canvas, at: rect)
            state.editor = editor
        }
    }

    /// Moving between fields, editing and flipping checkboxes, and dropping the session's
    /// edits; while a field is edited, storing or cancelling the edit and the editor's own keys.
    public override var commands: [Command] {
        // While a field is edited the editor takes every key; these describe it.
        if state.isEditing {
            return [
                Command("form.commit", title: "Store the edited value", keys: [.enter], hint: "Store") { [weak self] in
                    self?.commitEditing()
                    return .redraw
                },
                Command("form.cancel", title: "Cancel editing", keys: [.escape], hint: "Cancel") { [weak self] in
                    self?.handle(.key(.escape)) ?? .ignored
                },
            ] + (state.editor?.ownCommands { [weak self] key in self?.handle(.key(key)) ?? .ignored } ?? [])
        }
        let held = session?.hasEdits == true ? [
            Command("form.discard", title: "Drop the form's edits", keys: [.escape], hint: "Drop edits") { [weak self] in
                self?.discardSession() ?? .ignored
            },
        ] : []
        return held + [
            Command("form.next", title: "Next field", keys: [.character("j"), .down]) { [weak self] in
                self?.moveFocus(by: 1) ?? .ignored
            },
            Command("form.previous", title: "Previous field", keys: [.character("k"), .up]) { [weak self] in
                self?.moveFocus(by: -1) ?? .ignored
            },
            Command("form.first", title: "First field", keys: [.character("g"), .home]) { [weak self] in
                self?.moveFocus(by: -(self?.fields.count ?? 0)) ?? .ignored
            },
            Command("form.last", title: "Last field", keys: [.character("G"), .end]) { [weak self] in
                self?.moveFocus(by: self?.fields.count ?? 0) ?? .ignored
            },
            Command("form.edit", title: "Edit field", keys: [.enter, .character("e")],
                    hint: fields.indices.contains(state.focusedField) && fields[state.focusedField].editor != .readOnly ? "Edit" : nil) { [weak self] in
                self?.beginEditing() ?? .ignored
            },
            Command("form.toggle", title: "Flip a checkbox", keys: [.character(" ")]) { [weak self] in
                guard let self, self.fields.indices.contains(self.state.focusedField),
                      self.fields[self.state.focusedField].editor == .toggle else { return .ignored }
                return self.beginEditing()
            },
        ]
    }

    private func moveFocus(by step: Int) -> EventResult {
        guard !fields.isEmpty else { return .handled }
        state.focusedField = min(max(0, state.focusedField + step), fields.count - 1)
        scrollToFocus()
        return .redraw
    }

    /// Open the editor on the focused field (a checkbox flips at once).
    @discardableResult
    public func beginEditing() -> EventResult {
        guard fields.indices.contains(state.focusedField) else { return .handled }
        let field = fields[state.focusedField]
        switch field.editor {
        case .readOnly:
            if let onActivate {
                onActivate(state.focusedField)
            } else {
                window?.application?.showMessage("\(field.label) cannot be edited", isError: true)
            }
        case .toggle:
            var flag = false
            if case let .bool(current) = field.get() { flag = current }
            store(.bool(!flag), in: field)
        default:
            var editor = CellEditor(kind: field.editor, value: field.get(), format: field.format)
            editor.today = today
            state.editor = editor
        }
        return .redraw
    }

    @discardableResult
    private func store(_ value: CellValue, in field: FormField) -> Bool {
        do {
            try field.set(value)
            state.errors[field.id] = nil
            return true
        } catch {
            state.errors[field.id] = "\(error)"
            return false
        }
    }

    /// Hands on the edits the session holds; false (with the error in the status bar) when
    /// they could not be, and the session keeps them.
    @discardableResult
    public func commitSession() -> Bool {
        guard let session, session.hasEdits else { return true }
        do {
            try session.commitEdits()
            return true
        } catch {
            window?.application?.showMessage("Could not keep the form's edits: \(error)", isError: true)
            return false
        }
    }

    /// Drops every edit the session holds: the fields show the values as they were.
    public func discardSession() -> EventResult {
        guard let session, session.hasEdits else { return .ignored }
        session.discardEdits()
        state.errors = [:]
        window?.application?.showMessage("Dropped the form's edits")
        return .redraw
    }

    /// Stores the open editor's value and hands on the session's edits.
    public override func focusDidLeave() {
        if state.isEditing { commitEditing() }
        commitSession()
    }

    /// Store the open editor's value; false keeps it open with the error under the field.
    @discardableResult
    public func commitEditing() -> Bool {
        guard let editor = state.editor else { return true }
        let field = fields[state.focusedField]
        do {
            let value = try editor.currentValue()
            guard store(value, in: field) else { return false }
            state.editor = nil
            return true
        } catch {
            state.errors[field.id] = "\(error)"
            return false
        }
    }

    /// Keys go to the open editor (the application's own keys excepted), which stores its value,
    /// cancels, or stores and moves to the next editable field; a click focuses a field, and a
    /// double click (or a click on a checkbox) edits it.
    public override func handle(_ event: Event) -> EventResult {
        switch event {
        case let .key(key) where state.isEditing:
            // Function keys, Ctrl-S and Ctrl-Q belong to the application even during an edit.
            if CellEditor.belongsToApplication(key) { return .ignored }
            // Changed in place: a copy taken out and put back copies the text at every key.
            guard state.editor != nil else { return .ignored }
            let outcome = state.editor!.handle(key)
            switch outcome {
            case .editing:
                if state.editor?.error == nil { state.errors[fields[state.focusedField].id] = nil }
            case .cancel:
                state.editor = nil
                state.errors[fields[state.focusedField].id] = nil
            case .commit:
                commitEditing()
            case let .commitAndMove(_, forward):
                guard commitEditing() else { return .redraw }
                var next = state.focusedField
                repeat { next += forward ? 1 : -1 } while fields.indices.contains(next)
                    && (fields[next].editor == .readOnly || fields[next].editor == .toggle)
                if fields.indices.contains(next) {
                    state.focusedField = next
                    beginEditing()
                }
            }
            return .redraw
        case let .mouse(mouse) where mouse.kind == .click || mouse.kind == .press || mouse.kind == .doubleClick:
            if state.isEditing { commitEditing() }
            var y = -state.scrollOffset
            for index in fields.indices {
                if mouse.position.y >= y && mouse.position.y < y + height(of: index) {
                    state.focusedField = index
                    if mouse.kind == .doubleClick || fields[index].editor == .toggle && mouse.position.x >= labelWidth + 2 {
                        beginEditing()
                    }
                    return .redraw
                }
                y += height(of: index)
            }
            return .handled
        default:
            return .ignored
        }
    }
}
