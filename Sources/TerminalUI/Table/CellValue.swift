import Foundation

/// A value shown in a table cell or form field; the toolkit's small vocabulary of types.
///
///     dataSource.value(row: 0, column: "title")   // .text("Buy milk")
public enum CellValue: Hashable, Sendable {
    /// No value; shown as the column's or field's `nilText`, if it has one.
    case empty
    /// A string.
    case text(String)
    /// A whole number; aligned right by default.
    case integer(Int)
    /// A number with a fraction; aligned right, and shown with two places by default.
    case decimal(Double)
    /// A point in time; shown as `2026-11-21 14:05` by default.
    case date(Date)
    /// Yes or no; shown as `✓` or `·` by default.
    case bool(Bool)

    /// Whether the value reads as a number (and aligns right by default).
    public var isNumeric: Bool {
        switch self {
        case .integer, .decimal: return true
        default: return false
        }
    }
}
