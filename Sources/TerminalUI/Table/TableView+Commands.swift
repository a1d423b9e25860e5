extension TableView {
    /// Move the selection to a row, clamped, and scroll it into view.
    public func select(row: Int) {
        let old = state.selectedRow
        state.selectedRow = min(max(0, row), max(0, rowCount - 1))
        scrollToSelection()
        if old != state.selectedRow { onSelectionChange?(state.selectedRow) }
    }

    /// Move the selection to a column (index into `columns`), skipping hidden ones.
    public func select(column: Int) {
        let visible = visibleColumnIndices
        guard !visible.isEmpty else { return }
        let target = visible.min { abs($0 - column) < abs($1 - column) } ?? visible[0]
        state.selectedColumn = target
        scrollToSelection()
    }

    func moveColumn(by step: Int) {
        let visible = visibleColumnIndices
        guard let current = visible.firstIndex(of: state.selectedColumn) else {
            if let first = visible.first { select(column: first) }
            return
        }
        let next = min(max(0, current + step), visible.count - 1)
        state.selectedColumn = visible[next]
        scrollToSelection()
    }

    /// Sort by the selected column alone; a second time reverses the order.
    public func sortBySelectedColumn(ascending: Bool? = nil) -> Bool {
        let column = columns[state.selectedColumn]
        guard column.isSortable else { return false }
        let isAlone = state.sortKeys.count == 1 && state.sortColumn == column.id
        let newAscending = ascending ?? (isAlone ? !state.sortAscending : true)
        return sort(by: [TableSortKey(column.id, ascending: newAscending)])
    }

    /// Add the selected column to the sort, after the keys there are (ties among them are
    /// then ordered by it); a second time it turns descending, a third time it leaves.
    public func cycleSelectedColumnInSort() -> Bool {
        let column = columns[state.selectedColumn]
        guard column.isSortable else { return false }
        return sort(by: state.sortKeys.cycling(column.id))
    }

    /// Sort by these keys, when the data source can; the header shows them in order.
    @discardableResult
    public func sort(by keys: [TableSortKey]) -> Bool {
        guard dataSource.sort(by: keys) else { return false }
        state.sortKeys = keys
        onLayoutChange?()
        return true
    }

    /// Find the next row containing `text`, from the selection; returns whether one was found.
    @discardableResult
    public func search(_ text: String, forward: Bool = true, includeCurrent: Bool = false) -> Bool {
        state.searchText = text
        let ids = visibleColumnIndices.map { columns[$0].id }
        let start = includeCurrent ? state.selectedRow + (forward ? -1 : 1) : state.selectedRow
        guard let row = dataSource.row(matching: text, from: start, forward: forward, columns: ids) else { return false }
        select(row: row)
        return true
    }

    /// Widen (positive) or narrow (negative) the selected column.
    public func resizeSelectedColumn(by amount: Int) {
        let column = columns[state.selectedColumn]
        columns[state.selectedColumn].width = max(column.minWidth, min(Self.maximumColumnWidth, column.width + amount))
        onLayoutChange?()
    }

    /// Hide the selected column; the last visible one stays.
    public func hideSelectedColumn() -> Bool {
        let visible = visibleColumnIndices
        guard visible.count > 1, let position = visible.firstIndex(of: state.selectedColumn) else { return false }
        let neighbour = position + 1 < visible.count ? visible[position + 1] : visible[position - 1]
        columns[state.selectedColumn].isHidden = true
        state.selectedColumn = neighbour
        if state.firstColumn > neighbour || columns[state.firstColumn].isHidden { state.firstColumn = min(neighbour, state.firstColumn) }
        scrollToSelection()
        onLayoutChange?()
        return true
    }

    /// Show every hidden column again.
    public func showAllColumns() {
        for i in columns.indices { columns[i].isHidden = false }
        onLayoutChange?()
    }

    private func message(_ text: String, error: Bool = true) {
        window?.application?.showMessage(text, isError: error)
    }

    /// While a cell is edited the editor takes every key; these describe it for the help and hints.
    private var editingCommands: [Command] {
        [
            Command("table.commit", title: "Store the edited value", keys: [.enter], hint: "Store") { [weak self] in
                self?.commitEditing()
                return .redraw
            },
            Command("table.cancel", title: "Cancel editing", keys: [.escape], hint: "Cancel") { [weak self] in
                self?.cancelEditing()
                return .redraw
            },
        ] + (state.editor?.ownCommands { [weak self] key in self?.handleEditingKey(key) ?? .ignored } ?? []) + [
            Command("table.commitAndNext", title: "Store and edit the next cell", keys: [.tab], hint: "Next") { [weak self] in
                self?.handleEditingKey(.tab) ?? .ignored
            },
            Command("table.commitAndPrevious", title: "Store and edit the previous cell", keys: [.backTab]) { [weak self] in
                self?.handleEditingKey(.backTab) ?? .ignored
            },
        ]
    }

    var tableCommands: [Command] {
        if state.isEditing { return editingCommands }
        let page = pageHeight
        func move(_ name: String, _ title: String, _ keys: [Key], hint: String? = nil, _ body: @escaping (TableView) -> Void) -> Command {
            Command(name, title: title, keys: keys, hint: hint) { [weak self] in
                guard let self else { return .ignored }
                body(self)
                return .redraw
            }
        }
        return [
            move("table.down", "Next row", [.character("j"), .down]) { $0.select(row: $0.state.selectedRow + 1) },
            move("table.up", "Previous row", [.character("k"), .up]) { $0.select(row: $0.state.selectedRow - 1) },
            move("table.left", "Column left", [.character("h"), .left]) { $0.moveColumn(by: -1) },
            move("table.right", "Column right", [.character("l"), .right]) { $0.moveColumn(by: 1) },
            move("table.top", "First row", [.character("g"), .home]) { $0.select(row: 0) },
            move("table.bottom", "Last row", [.character("G"), .end]) { $0.select(row: $0.rowCount - 1) },
            move("table.pageDown", "Page down", [.pageDown, .control("f")]) { $0.select(row: $0.state.selectedRow + page) },
            move("table.pageUp", "Page up", [.pageUp, .control("b")]) { $0.select(row: $0.state.selectedRow - page) },
            Command("table.edit", title: "Edit cell", keys: [.enter, .character("e")],
                    hint: editorKind(row: state.selectedRow, column: state.selectedColumn) == .readOnly ? nil : "Edit") { [weak self] in
                self?.beginEditing() ?? .ignored
            },
            Command("table.toggle", title: "Toggle a yes/no cell", keys: [.character(" ")]) { [weak self] in
                guard let self, self.editorKind(row: self.state.selectedRow, column: self.state.selectedColumn) == .toggle else {
                    return .ignored
                }
                return self.beginEditing()
            },
            Command("table.sort", title: "Sort by column (again: reverse)", keys: [.character("s"), .function(6)], hint: "Sort") { [weak self] in
                guard let self else { return .ignored }
                if !self.sortBySelectedColumn() { self.message("Cannot sort by \(self.columns[self.state.selectedColumn].title)") }
                return .redraw
            },
            Command("table.sortThenBy", title: "Then by column (again: reverse, drop)",
                    keys: [.character("S")]) { [weak self] in
                guard let self else { return .ignored }
                if !self.cycleSelectedColumnInSort() {
                    self.message("Cannot sort by \(self.columns[self.state.selectedColumn].title) after the others")
                }
                return .redraw
            },
            Command("table.sortAscending", title: "Sort ascending", keys: [.character("[")]) { [weak self] in
                guard let self else { return .ignored }
                if !self.sortBySelectedColumn(ascending: true) { self.message("Cannot sort by this column") }
                return .redraw
            },
            Command("table.sortDescending", title: "Sort descending", keys: [.character("]")]) { [weak self] in
                guard let self else { return .ignored }
                if !self.sortBySelectedColumn(ascending: false) { self.message("Cannot sort by this column") }
                return .redraw
            },
            Command("table.search", title: "Search", keys: [.character("/")], hint: "Search") { [weak self] in
                guard let self, let app = self.window?.application else { return .ignored }
                app.beginPrompt("/", text: "") { [weak self] text in
                    guard let self, !text.isEmpty else { return }
                    if !self.search(text, includeCurrent: true) { self.message("Not found: \(text)") }
                }
                return .redraw
            },
            Command("table.searchNext", title: "Next match", keys: [.character("n")]) { [weak self] in
                guard let self else { return .ignored }
                guard let text = self.state.searchText else { self.message("No search yet: press /"); return .redraw }
                if !self.search(text, forward: true) { self.message("Not found: \(text)") }
                return .redraw
            },
            Command("table.searchPrevious", title: "Previous match", keys: [.character("N")]) { [weak self] in
                guard let self else { return .ignored }
                guard let text = self.state.searchText else { self.message("No search yet: press /"); return .redraw }
                if !self.search(text, forward: false) { self.message("Not found: \(text)") }
                return .redraw
            },
            move("table.widen", "Widen column", [.character(">")]) { $0.resizeSelectedColumn(by: 2) },
            move("table.narrow", "Narrow column", [.character("<")]) { $0.resizeSelectedColumn(by: -2) },
            Command("table.hideColumn", title: "Hide column", keys: [.character("-")]) { [weak self] in
                guard let self else { return .ignored }
                if !self.hideSelectedColumn() { self.message("The last column cannot be hidden") }
                return .redraw
            },
            move("table.showColumns", "Show all columns", [.character("+")]) { $0.showAllColumns() },
        ]
    }

    func handleTableEvent(_ event: Event) -> EventResult {
        switch event {
        case let .key(key) where state.isEditing:
            return handleEditingKey(key)
        case let .mouse(mouse):
            return handleMouse(mouse)
        default:
            return .ignored
        }
    }

    private func handleMouse(_ mouse: MouseEvent) -> EventResult {
        switch mouse.kind {
        case .wheelDown:
            state.topRow = min(max(0, rowCount - pageHeight), state.topRow + 3)
            if state.selectedRow < state.topRow { select(row: state.topRow) }
            return .redraw
        case .wheelUp:
            state.topRow = max(0, state.topRow - 3)
            if state.selectedRow >= state.topRow + pageHeight { select(row: state.topRow + pageHeight - 1) }
            return .redraw
        case .click, .press, .doubleClick:
            if state.isEditing { _ = commitEditing() }
            guard let column = placedColumns(width: frame.width).first(where: {
                mouse.position.x >= $0.x && mouse.position.x <= $0.x + $0.width
            }) else { return .handled }
            state.selectedColumn = column.index
            if mouse.position.y == 0 {
                if !sortBySelectedColumn() { message("Cannot sort by \(columns[column.index].title)") }
                return .redraw
            }
            let row = state.topRow + mouse.position.y - headerHeight
            guard mouse.position.y >= headerHeight, row < rowCount else { return .redraw }
            select(row: row)
            if mouse.kind == .doubleClick { return beginEditing() }
            return .redraw
        case .release:
            return .ignored
        }
    }
}
