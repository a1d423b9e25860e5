/// What the user made of a table's look: the sort, and each column's width and whether it
/// is hidden. It is `Codable`, so that an application can keep it between runs, as a Cocoa
/// table keeps its autosaved columns.
///
/// ```swift
/// let saved = try JSONEncoder().encode(table.tableLayout)
/// table.apply(try JSONDecoder().decode(TableLayout.self, from: saved))
/// ```
public struct TableLayout: Codable, Equatable, Sendable {
    public struct Column: Codable, Equatable, Sendable {
        public var width: Int
        public var hidden: Bool

        public init(width: Int, hidden: Bool) {
            self.width = width
            self.hidden = hidden
        }
    }

    /// The column the rows are sorted by, if the user chose one.
    public var sortColumn: String?
    public var sortAscending: Bool
    /// By column identifier.
    public var columns: [String: Column]

    public init(sortColumn: String? = nil, sortAscending: Bool = true, columns: [String: Column] = [:]) {
        self.sortColumn = sortColumn
        self.sortAscending = sortAscending
        self.columns = columns
    }
}

extension TableView {
    /// The table's current layout.
    public var tableLayout: TableLayout {
        TableLayout(sortColumn: state.sortColumn, sortAscending: state.sortAscending,
                    columns: Dictionary(uniqueKeysWithValues: columns.map { ($0.id, .init(width: $0.width, hidden: $0.isHidden)) }))
    }

    /// Applies a layout kept from an earlier run. Columns it does not name keep their
    /// settings and names it has that the table lacks are ignored; widths are kept within
    /// what resizing allows; at least one column stays shown; the sort is applied when the
    /// column exists, is sortable, and the data source accepts it.
    public func apply(_ layout: TableLayout) {
        for i in columns.indices {
            guard let saved = layout.columns[columns[i].id] else { continue }
            columns[i].width = max(columns[i].minWidth, min(Self.maximumColumnWidth, saved.width))
            columns[i].isHidden = saved.hidden
        }
        if !columns.isEmpty, columns.allSatisfy(\.isHidden) { columns[0].isHidden = false }
        if columns.indices.contains(state.selectedColumn), columns[state.selectedColumn].isHidden,
           let first = visibleColumnIndices.first {
            state.selectedColumn = first
        }
        state.firstColumn = min(state.firstColumn, visibleColumnIndices.first ?? 0)
        if let key = layout.sortColumn, columns.contains(where: { $0.id == key && $0.isSortable }),
           dataSource.sort(by: key, ascending: layout.sortAscending) {
            state.sortColumn = key
            state.sortAscending = layout.sortAscending
        }
    }
}
