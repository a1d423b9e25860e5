/// Where a table's rows come from. The table asks only for the rows it shows.
///
///     final class Tasks: TableDataSource {
///         var numberOfRows: Int { titles.count }
///         func value(row: Int, column: String) -> CellValue { .text(titles[row]) }
///     }
public protocol TableDataSource: AnyObject {
    /// How many rows the table has; read at every draw.
    var numberOfRows: Int { get }
    /// The value of one cell; `column` is the column's identifier.
    func value(row: Int, column: String) -> CellValue
    /// How one cell is edited, or nil to use the column's editor.
    func editor(row: Int, column: String) -> EditorKind?
    /// Store an edited value. A thrown error's description is shown at the cell and editing stays open.
    func setValue(_ value: CellValue, row: Int, column: String) throws
    /// Sort by a column; return false when that column cannot be sorted.
    func sort(by column: String, ascending: Bool) -> Bool
    /// Sort by several columns, the first deciding and each next one breaking ties; an empty
    /// list asks for the source's own order. Return false when it cannot sort so. The default
    /// takes a single key to `sort(by:ascending:)` and refuses more.
    func sort(by keys: [TableSortKey]) -> Bool
    /// How a cell stands out; `.none` by default.
    func emphasis(row: Int, column: String) -> CellEmphasis
    /// The next row, after `row` going forward or before it going back, whose text contains
    /// `text` (case-insensitive), or nil. The default reads rows one by one; stores override it.
    func row(matching text: String, from row: Int, forward: Bool, columns: [String]) -> Int?
}

/// Thrown by the default `setValue` of a data source that cannot store values.
public struct ReadOnlyError: Error, CustomStringConvertible {
    /// The error of a value that cannot be changed.
    public init() {}
    /// The message shown at the cell: "This value cannot be changed".
    public var description: String { "This value cannot be changed" }
}

extension TableDataSource {
    /// No editor of the cell's own: the column's editor is used.
    public func editor(row: Int, column: String) -> EditorKind? { nil }
    /// Stores nothing: throws `ReadOnlyError`.
    public func setValue(_ value: CellValue, row: Int, column: String) throws { throw ReadOnlyError() }
    /// Sorts by no column: returns false.
    public func sort(by column: String, ascending: Bool) -> Bool { false }
    /// Takes a single key to `sort(by:ascending:)`; refuses no keys or several.
    public func sort(by keys: [TableSortKey]) -> Bool {
        keys.count == 1 ? sort(by: keys[0].column, ascending: keys[0].ascending) : false
    }
    /// No cell stands out: `.none`.
    public func emphasis(row: Int, column: String) -> CellEmphasis { .none }

    /// Reads the rows one by one after `row` (before it, going back), round the ends and
    /// `row` itself last, and returns the first whose text in one of `columns` contains `text`
    /// (case-insensitive); nil when none does.
    public func row(matching text: String, from row: Int, forward: Bool, columns: [String]) -> Int? {
        let count = numberOfRows
        guard count > 0, !text.isEmpty else { return nil }
        let needle = text.lowercased()
        for step in 1...count {
            let candidate = ((forward ? row + step : row - step) % count + count) % count
            for column in columns {
                if ValueFormat.automatic.string(for: value(row: candidate, column: column)).lowercased().contains(needle) {
                    return candidate
                }
            }
        }
        return nil
    }
}
