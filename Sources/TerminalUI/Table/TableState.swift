/// What changes while a table is used: selection, scroll positions, sort, search and the
/// open editor.
public struct TableState {
    /// The index of the selected row among the data source's rows.
    public var selectedRow = 0
    /// Index into the table's columns (hidden ones included).
    public var selectedColumn = 0
    /// The first row shown.
    public var topRow = 0
    /// The first column shown, as an index into the table's columns.
    public var firstColumn = 0
    /// The sort, first key first; empty when the rows are in the data source's own order.
    public var sortKeys: [TableSortKey] = []
    /// The text of the last search, which `n` and `N` look for again; nil before any search.
    public var searchText: String?
    /// The editor open on the selected cell, if any.
    public var editor: CellEditor?

    /// A state with the first row and column selected, nothing scrolled or sorted, no search and no editor.
    public init() {}

    /// Whether an editor is open on the selected cell.
    public var isEditing: Bool { editor != nil }

    /// The column deciding the order, if the rows are sorted.
    public var sortColumn: String? { sortKeys.first?.column }
    /// The direction of the deciding column.
    public var sortAscending: Bool { sortKeys.first?.ascending ?? true }
}
