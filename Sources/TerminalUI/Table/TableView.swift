import Foundation

/// A table over a data source of any size: header with sort indicator, selection, virtual
/// scrolling (only visible rows are read), horizontal scrolling, column resize and hide, and
/// inline editing with editors fitted to each column's type.
///
/// Configuration lives here (`columns`), what changes lives in `state`, and rows come from
/// `dataSource`.
///
///     let table = TableView(columns: [
///         TableColumn("title", title: "Title", width: 30, editor: .text),
///         TableColumn("due", title: "Due", width: 16, format: .date(showsTime: true), editor: .date),
///     ], dataSource: tasks)
public final class TableView: View {
    /// The columns in order, hidden ones included.
    public var columns: [TableColumn]
    /// The selection, scroll positions, sort, search and open editor.
    public var state = TableState()
    /// Where the rows come from; the table reads only the rows it shows.
    public var dataSource: TableDataSource
    /// Called when the selected row changes.
    public var onSelectionChange: ((Int) -> Void)?
    /// Called with the row on Enter when no column of it is editable, or on a double click.
    public var onActivate: ((Int) -> Void)?
    /// Called when an open editor is cancelled (Esc), nothing stored.
    public var onCancelEditing: (() -> Void)?
    /// Called when the user sorts, resizes, hides or shows columns (see `tableLayout`).
    public var onLayoutChange: (() -> Void)?
    /// The widest a column can be made.
    public static let maximumColumnWidth = 200
    /// Where "today" comes from for date editors.
    public var today: () -> Date = { Date() }
    /// Whether a row is marked (for acting on many rows at once); nil when the table has no marks.
    public var isRowMarked: ((Int) -> Bool)?
    /// Whether a column of one cell at the left shows each marked row's mark, `•`. The owner
    /// turns it on while there are marks, so that a table without any keeps its width.
    public var showsMarks = false {
        didSet { if showsMarks != oldValue { scrollToSelection() } }
    }

    /// Rows of header above the data: titles and a rule.
    let headerHeight = 2

    /// A table of `columns` over `dataSource`, with the first shown column selected.
    public init(columns: [TableColumn], dataSource: TableDataSource) {
        self.columns = columns
        self.dataSource = dataSource
        super.init()
        if let first = columns.firstIndex(where: { !$0.isHidden }) { state.selectedColumn = first }
    }

    /// Always true: a table takes the focus for its keys.
    public override var canFocus: Bool { true }
    /// Whether a cell editor is open, taking typed characters.
    public override var capturesTyping: Bool { state.isEditing }

    /// Puts pasted text into the open cell editor as one edit; nil when no text editor is open.
    public override func insertPastedText(_ text: String) -> EventResult? {
        guard state.editor?.insertText(text) == true else { return nil }
        return .redraw
    }

    /// `extraCommands`, then the table's own (moving, sorting, searching, columns, editing)
    /// less the keys those take; while a cell is edited, only the editing commands.
    public override var commands: [Command] {
        // The owner's commands come first, so a key they bind replaces the built-in one.
        guard !state.isEditing, !extraCommands.isEmpty else { return tableCommands }
        let taken = Set(extraCommands.flatMap(\.keys))
        // When `/` does something else (filters), there is no search for n and N to repeat.
        let searches = !taken.contains(.character("/"))
        return extraCommands + tableCommands.compactMap { command in
            if !searches && (command.name == "table.searchNext" || command.name == "table.searchPrevious") { return nil }
            var kept = command
            kept.keys.removeAll { taken.contains($0) }
            // A command whose every key was taken is replaced, not listed without keys.
            return kept.keys.isEmpty && !command.keys.isEmpty ? nil : kept
        }
    }

    /// Commands of the application that owns the table, tried before the table's own: a key
    /// bound here (`/` to filter rather than search, say) replaces the table's binding.
    public var extraCommands: [Command] = []

    /// Keys go to the open cell editor; the wheel scrolls, and a click selects a cell, sorts by
    /// a column's title, or with a double click edits the cell. Other keys are left to `commands`.
    public override func handle(_ event: Event) -> EventResult { handleTableEvent(event) }

    /// How many data rows fit.
    public var pageHeight: Int { max(1, frame.height - headerHeight) }

    /// The number of rows, as the data source gives it.
    public var rowCount: Int { dataSource.numberOfRows }

    /// `12/10000`, for a status bar.
    public var positionText: String {
        rowCount == 0 ? "0 rows" : "\(state.selectedRow + 1)/\(rowCount)"
    }

    // MARK: Layout of columns

    /// A column as placed on screen: its index, x and shown width.
    struct PlacedColumn {
        let index: Int
        let x: Int
        let width: Int
        /// Whether the column shows all the width it has at this table width (which, for a
        /// compressible column, may be less than its own).
        let isWhole: Bool
    }

    /// The columns that fit in `width`, starting at `state.firstColumn`.
    func placedColumns(width fullWidth: Int) -> [PlacedColumn] {
        let gutter = showsMarks ? 1 : 0
        let width = fullWidth - gutter
        let shown = shownWidths(width: width)
        var result: [PlacedColumn] = []
        var x = 0
        for (index, full) in shown {
            guard x < width else { break }
            let w = min(full, width - x)
            // A sliver of a column says nothing; leave the space blank instead.
            if w < min(3, full), !result.isEmpty { break }
            result.append(PlacedColumn(index: index, x: x + gutter, width: w, isWhole: w == full))
            x += w + 1
        }
        return result
    }

    /// The columns from `state.firstColumn` on, each with the width it is drawn at: its own,
    /// unless they do not all fit in `width`, when the compressible ones give up space,
    /// from the left, down to their compressed width; or unless they leave space over, when
    /// the first column that fills spare width takes it, so that the last column ends at the
    /// table's right edge.
    private func shownWidths(width: Int) -> [(index: Int, width: Int)] {
        var shown = columns.indices.filter { $0 >= state.firstColumn && !columns[$0].isHidden }.map { ($0, columns[$0].width) }
        var excess = shown.reduce(0) { $0 + $1.1 + 1 } - 1 - width
        if excess < 0, let filler = shown.firstIndex(where: { columns[$0.0].fillsSpareWidth }) {
            shown[filler].1 -= excess
            return shown.map { (index: $0.0, width: $0.1) }
        }
        for i in shown.indices where excess > 0 {
            guard let compressed = columns[shown[i].0].compressedWidth else { continue }
            let given = min(excess, max(0, shown[i].1 - compressed))
            shown[i].1 -= given
            excess -= given
        }
        return shown.map { (index: $0.0, width: $0.1) }
    }

    var visibleColumnIndices: [Int] { columns.indices.filter { !columns[$0].isHidden } }

    /// Scroll so that the selected row and column are on screen.
    func scrollToSelection() {
        let count = rowCount
        state.selectedRow = min(max(0, state.selectedRow), max(0, count - 1))
        if state.selectedRow < state.topRow { state.topRow = state.selectedRow }
        if state.selectedRow >= state.topRow + pageHeight { state.topRow = state.selectedRow - pageHeight + 1 }
        state.topRow = max(0, min(state.topRow, max(0, count - pageHeight)))
        if state.selectedColumn < state.firstColumn { state.firstColumn = state.selectedColumn }
        while state.firstColumn < state.selectedColumn {
            let placed = placedColumns(width: frame.width)
            if let column = placed.first(where: { $0.index == state.selectedColumn }), column.isWhole || column.x == 0 {
                break
            }
            guard let next = columns.indices.first(where: { $0 > state.firstColumn && !columns[$0].isHidden }) else { break }
            state.firstColumn = next
        }
        // Scroll back while the columns before still leave the selected one whole: after
        // the window grows or a column narrows, the table starts from its first column again.
        while let previous = columns.indices.last(where: { $0 < state.firstColumn && !columns[$0].isHidden }) {
            let current = state.firstColumn
            state.firstColumn = previous
            let placed = placedColumns(width: frame.width)
            if placed.contains(where: { $0.index == state.selectedColumn && $0.isWhole }) { continue }
            state.firstColumn = current
            break
        }
    }

    // MARK: Drawing

    /// Draws the header with the sort marks, the visible rows with the selection, marks and
    /// emphasis, "No rows" for an empty table, and the open cell editor.
    public override func draw(in canvas: Canvas) {
        let theme = canvas.theme
        let width = canvas.size.width
        canvas.fill(canvas.bounds, style: theme.normal)
        if frame.size != .zero { scrollToSelection() }
        let placed = placedColumns(width: width)

        let count = rowCount
        for column in placed {
            let spec = columns[column.index]
            var title = spec.title
            if let rank = state.sortKeys.firstIndex(where: { $0.column == spec.id }) {
                // The arrow always shows, with the key's place when there are several: a
                // title too long for both gives way.
                let mark = (state.sortKeys[rank].ascending ? " ▲" : " ▼") + (state.sortKeys.count > 1 ? "\(rank + 1)" : "")
                title = title.truncated(toWidth: max(1, column.width - mark.count)) + mark
            }
            // Titles of number columns sit over the numbers, on the right.
            let alignment = spec.alignment
                ?? (state.topRow < count ? spec.alignment(for: dataSource.value(row: state.topRow, column: spec.id)) : .left)
            canvas.write(title, x: column.x, y: 0, width: column.width, alignment: alignment, style: theme.header)
            canvas.put("│", x: column.x + column.width, y: 0, style: theme.border)
        }
        if canvas.size.height > 1 {
            canvas.horizontalLine(x: 0, y: 1, width: width, style: theme.border)
            for column in placed { canvas.put("┼", x: column.x + column.width, y: 1, style: theme.border) }
        }

        if count == 0 {
            canvas.write("No rows", x: max(0, (width - 7) / 2), y: min(headerHeight, canvas.size.height - 1), style: theme.dimmed)
        }
        let focused = hasFocus
        let lastRow = min(count, state.topRow + max(0, canvas.size.height - headerHeight))
        if state.topRow < lastRow {
            for row in state.topRow..<lastRow {
                let y = headerHeight + row - state.topRow
                let selected = row == state.selectedRow
                let rowStyle = selected ? (focused ? theme.selection : theme.inactiveSelection) : theme.normal
                if selected { canvas.fill(Rect(x: 0, y: y, width: width, height: 1), style: rowStyle) }
                let marked = isRowMarked?(row) == true
                if showsMarks, marked { canvas.put("•", x: 0, y: y, style: selected ? rowStyle : theme.marked) }
                for column in placed {
                    let spec = columns[column.index]
                    let value = dataSource.value(row: row, column: spec.id)
                    var style = selected && focused && column.index == state.selectedColumn ? theme.selectedCell : rowStyle
                    if !selected {
                        switch dataSource.emphasis(row: row, column: spec.id) {
                        case .none: if marked { style = theme.marked }
                        case .modified: style = theme.modified
                        case .dimmed: style = theme.dimmed
                        case .warning: style = theme.warning
                        }
                    }
                    if case .empty = value, let nilText = spec.nilText {
                        canvas.write(nilText, x: column.x, y: y, width: column.width, alignment: .left,
                                     style: selected ? style : theme.dimmed)
                    } else {
                        canvas.write(spec.format.string(for: value), x: column.x, y: y, width: column.width,
                                     alignment: spec.alignment(for: value), style: style)
                    }
                    canvas.put("│", x: column.x + column.width, y: y, style: selected ? rowStyle : theme.border)
                }
            }
        }
        if var editor = state.editor,
           let column = placed.first(where: { $0.index == state.selectedColumn }) {
            let y = headerHeight + state.selectedRow - state.topRow
            let editWidth = max(column.width, min(width - column.x, editor.preferredWidth))
            editor.draw(in: canvas, at: Rect(x: column.x, y: y, width: editWidth, height: 1))
            state.editor = editor
        }
    }
}
