import Foundation

/// A value shown in a table cell or form field; the toolkit's small vocabulary of types.
///
///     dataSource.value(row: 0, column: "title")   // .text("Buy milk")
public enum CellValue: Hashable, Sendable {
    case empty
    case text(String)
    case integer(Int)
    case decimal(Double)
    case date(Date)
    case bool(Bool)

    /// Whether the value reads as a number (and aligns right by default).
    public var isNumeric: Bool {
        switch self {
        case .integer, .decimal: return true
        default: return false
        }
    }
}
