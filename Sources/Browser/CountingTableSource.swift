import Foundation
import ObjectGraph
import TerminalBindings
import TerminalUI

/// An entity's objects with their to-many relationships counted in the store: a column
/// `name.@count` would otherwise load every member of every row shown (a category of
/// 333,333 items), so it is counted with `count(ofRelationship:of:)` and kept until the
/// context changes.
final class CountingTableSource: TableDataSource {
    let base: ArrayControllerTableSource
    let context: ManagedObjectContext
    /// By ID: the rows' objects come and go (a window holds IDs), and a new object may take
    /// a released one's address.
    private struct Key: Hashable { let object: ManagedObjectID; let relationship: String }
    /// Counts asked for; nil for one that failed, shown as `?` and not asked again until
    /// `forgetCounts` (see `EntityListSource`).
    private var counts: [Key: Int?] = [:]

    init(base: ArrayControllerTableSource, context: ManagedObjectContext) {
        self.base = base
        self.context = context
    }

    var numberOfRows: Int { base.numberOfRows }

    func value(row: Int, column: String) -> CellValue {
        guard column.hasSuffix(".@count"), let object = base.controller.arrangedObject(at: row) else {
            return base.value(row: row, column: column)
        }
        return count(of: String(column.dropLast(".@count".count)), in: object)
    }

    func count(of relationship: String, in object: ManagedObject) -> CellValue {
        guard object.isValid else { return .empty }
        let key = Key(object: object.objectID, relationship: relationship)
        if let known = counts[key] { return known.map(CellValue.integer) ?? .text("?") }
        let n = try? context.count(ofRelationship: relationship, of: object)
        counts.updateValue(n, forKey: key)
        return n.map(CellValue.integer) ?? .text("?")
    }

    func forgetCounts() { counts = [:] }

    func emphasis(row: Int, column: String) -> CellEmphasis { base.emphasis(row: row, column: column) }
    func editor(row: Int, column: String) -> EditorKind? { base.editor(row: row, column: column) }
    func setValue(_ value: CellValue, row: Int, column: String) throws { try base.setValue(value, row: row, column: column) }
    func sort(by column: String, ascending: Bool) -> Bool { base.sort(by: column, ascending: ascending) }
    func sort(by keys: [TableSortKey]) -> Bool { base.sort(by: keys) }
}
