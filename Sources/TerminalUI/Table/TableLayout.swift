/// What the user made of a table's look: the sort, and each column's width and whether it
/// is hidden. It is `Codable`, so that an application can keep it between runs, as a Cocoa
/// table keeps its autosaved columns.
///
/// ```swift
/// let saved = try JSONEncoder().encode(table.tableLayout)
/// table.apply(try JSONDecoder().decode(TableLayout.self, from: saved))
/// ```
public struct TableLayout: Codable, Equatable, Sendable {
    /// One column's kept width and visibility.
    public struct Column: Codable, Equatable, Sendable {
        /// The column's width in cells.
        public var width: Int
        /// Whether the column is hidden.
        public var hidden: Bool

        /// A column `width` cells wide, hidden or shown.
        public init(width: Int, hidden: Bool) {
            self.width = width
            self.hidden = hidden
        }
    }

    /// The sort the user chose, first key first.
    public var sortKeys: [TableSortKey]
    /// By column identifier.
    public var columns: [String: Column]

    /// The column deciding the order, if the user chose one.
    public var sortColumn: String? { sortKeys.first?.column }
    /// Whether the deciding column sorts ascending; true when there is no sort.
    public var sortAscending: Bool { sortKeys.first?.ascending ?? true }

    /// A layout sorted by one column, or unsorted when `sortColumn` is nil.
    public init(sortColumn: String? = nil, sortAscending: Bool = true, columns: [String: Column] = [:]) {
        self.init(sortKeys: sortColumn.map { [TableSortKey($0, ascending: sortAscending)] } ?? [], columns: columns)
    }

    /// A layout sorted by `sortKeys`, first key first, with the given columns' settings.
    public init(sortKeys: [TableSortKey], columns: [String: Column] = [:]) {
        self.sortKeys = sortKeys
        self.columns = columns
    }

    // Kept as before for a single key (`sortColumn`, `sortAscending`), so that files written
    // by earlier versions read, and earlier versions read these; further keys follow apart.
    private enum CodingKeys: String, CodingKey { case sortColumn, sortAscending, thenSortBy, columns }

    /// Reads a layout: the deciding sort key from `sortColumn` and `sortAscending`, further
    /// keys from `thenSortBy`, and the columns' settings.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var keys: [TableSortKey] = []
        if let column = try container.decodeIfPresent(String.self, forKey: .sortColumn) {
            keys.append(TableSortKey(column, ascending: try container.decodeIfPresent(Bool.self, forKey: .sortAscending) ?? true))
            keys += try container.decodeIfPresent([TableSortKey].self, forKey: .thenSortBy) ?? []
        }
        self.init(sortKeys: keys, columns: try container.decodeIfPresent([String: Column].self, forKey: .columns) ?? [:])
    }

    /// Writes the layout: the deciding sort key as `sortColumn` and `sortAscending`, further
    /// keys as `thenSortBy`, and the columns' settings.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(sortColumn, forKey: .sortColumn)
        try container.encode(sortAscending, forKey: .sortAscending)
        if sortKeys.count > 1 { try container.encode(Array(sortKeys.dropFirst()), forKey: .thenSortBy) }
        try container.encode(columns, forKey: .columns)
    }
}

extension TableView {
    /// The table's current layout.
    public var tableLayout: TableLayout {
        TableLayout(sortKeys: state.sortKeys,
                    columns: Dictionary(uniqueKeysWithValues: columns.map { ($0.id, .init(width: $0.width, hidden: $0.isHidden)) }))
    }

    /// Applies a layout kept from an earlier run. Columns it does not name keep their
    /// settings and names it has that the table lacks are ignored; widths are kept within
    /// what resizing allows; at least one column stays shown; the sort is applied when its
    /// columns exist and are sortable (keys on columns gone are dropped) and the data source
    /// accepts it.
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
        let keys = layout.sortKeys.filter { key in columns.contains { $0.id == key.column && $0.isSortable } }
        if !keys.isEmpty, dataSource.sort(by: keys) { state.sortKeys = keys }
    }
}
