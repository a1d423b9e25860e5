/// What changes while a table is used: selection, scroll positions, sort, search and the
/// open editor.
public struct TableState {
    public var selectedRow = 0
    /// Index into the table's columns (hidden ones included).
    public var selectedColumn = 0
    /// The first row shown.
    public var topRow = 0
    /// The first column shown, as an index into the table's columns.
    public var firstColumn = 0
    public var sortColumn: String?
    public var sortAscending = true
    public var searchText: String?
    /// The editor open on the selected cell, if any.
    public var editor: CellEditor?

    public init() {}

    public var isEditing: Bool { editor != nil }
}
