import TerminalUI

/// The categories and how many sample rows fall in each, for the floating panel.
final class CategoryCounts: TableDataSource {
    let rows: Int

    init(rows: Int) { self.rows = rows }

    var numberOfRows: Int { SampleRows.categories.count }

    func value(row: Int, column: String) -> CellValue {
        let count = SampleRows.categories.count
        switch column {
        case "name": return .text(SampleRows.categories[row])
        default: return .integer(rows / count + (row < rows % count ? 1 : 0))
        }
    }
}
