extension TableView {
    /// The editor of a cell; `.readOnly` outside the table (an empty row or no columns).
    func editorKind(row: Int, column: Int) -> EditorKind {
        guard columns.indices.contains(column), row >= 0, row < rowCount else { return .readOnly }
        let spec = columns[column]
        return dataSource.editor(row: row, column: spec.id) ?? spec.editor
    }

    /// Open the editor on the selected cell (a yes/no cell flips at once).
    @discardableResult
    public func beginEditing() -> EventResult {
        let row = state.selectedRow, column = state.selectedColumn
        guard row < rowCount, columns.indices.contains(column) else { return .handled }
        let spec = columns[column]
        let kind = editorKind(row: row, column: column)
        let value = dataSource.value(row: row, column: spec.id)
        switch kind {
        case .readOnly:
            if let onActivate {
                onActivate(row)
                return .redraw
            }
            window?.application?.showMessage("\(spec.title) cannot be edited", isError: true)
            return .redraw
        case .toggle:
            var flag = false
            if case let .bool(current) = value { flag = current }
            store(.bool(!flag), row: row, column: column)
            return .redraw
        default:
            var editor = CellEditor(kind: kind, value: value, format: spec.format)
            editor.today = today
            state.editor = editor
            return .redraw
        }
    }

    /// Close the editor without storing.
    public func cancelEditing() {
        guard state.editor != nil else { return }
        state.editor = nil
        onCancelEditing?()
    }

    /// Store the editor's value; returns false (and keeps the editor open with the message)
    /// when the value is not valid or the data source refuses it.
    @discardableResult
    public func commitEditing() -> Bool {
        guard var editor = state.editor else { return true }
        do {
            let value = try editor.currentValue()
            try dataSource.setValue(value, row: state.selectedRow, column: columns[state.selectedColumn].id)
            state.editor = nil
            return true
        } catch {
            editor.error = "\(error)"
            state.editor = editor
            return false
        }
    }

    @discardableResult
    private func store(_ value: CellValue, row: Int, column: Int) -> Bool {
        do {
            try dataSource.setValue(value, row: row, column: columns[column].id)
            return true
        } catch {
            window?.application?.showMessage("\(error)", isError: true)
            return false
        }
    }

    func handleEditingKey(_ key: Key) -> EventResult {
        // Function keys belong to the application (F10 quits, F1 helps) even during an edit,
        // as do Ctrl-S (save, which commits the edit first) and Ctrl-Q.
        if CellEditor.belongsToApplication(key) { return .ignored }
        // Changed where it is kept: a copy taken out and put back would copy the text at every
        // key (the copy and the original share it), which made a long paste quadratic.
        guard state.editor != nil else { return .ignored }
        let outcome = state.editor!.handle(key)
        switch outcome {
        case .editing:
            return .redraw
        case .cancel:
            cancelEditing()
        case .commit:
            commitEditing()
        case let .commitAndMove(_, forward):
            guard commitEditing() else { return .redraw }
            moveToNextEditableCell(forward: forward)
        }
        return .redraw
    }

    /// Select the next editable cell in reading order and open its editor.
    private func moveToNextEditableCell(forward: Bool) {
        let visible = visibleColumnIndices
        guard let position = visible.firstIndex(of: state.selectedColumn) else { return }
        var row = state.selectedRow, index = position
        for _ in 0..<(visible.count * 2) {
            index += forward ? 1 : -1
            if index >= visible.count { index = 0; row += 1 }
            if index < 0 { index = visible.count - 1; row -= 1 }
            guard row >= 0, row < rowCount else { return }
            let kind = editorKind(row: row, column: visible[index])
            if kind != .readOnly && kind != .toggle {
                select(row: row)
                state.selectedColumn = visible[index]
                scrollToSelection()
                beginEditing()
                return
            }
        }
    }
}
