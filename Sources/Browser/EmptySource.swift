import TerminalUI

/// The rows of a table before an entity is chosen.
final class EmptySource: TableDataSource {
    var numberOfRows: Int { 0 }
    func value(row: Int, column: String) -> CellValue { .empty }
    func sort(by column: String, ascending: Bool) -> Bool { false }
}
