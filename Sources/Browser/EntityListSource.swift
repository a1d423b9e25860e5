import Foundation
import ObjectGraph
import TerminalUI

/// The model's entities with how many objects each has, counted in the store when shown.
final class EntityListSource: TableDataSource {
    let context: ManagedObjectContext
    let names: [String]
    /// Each entity's count once asked for; nil for one that failed (stopped by Esc, say),
    /// shown as `?` and not asked again until `forgetCounts`: a count that never ends (a view
    /// in place of a table) would otherwise be started again at every frame.
    private var counts: [String: Int?] = [:]

    init(context: ManagedObjectContext, names: [String]) {
        self.context = context
        self.names = names
    }

    var numberOfRows: Int { names.count }

    func value(row: Int, column: String) -> CellValue {
        guard row < names.count else { return .empty }
        let name = names[row]
        if column == "entity" { return .text(name) }
        if counts.index(forKey: name) == nil { counts.updateValue(try? context.count(for: FetchRequest(entityName: name)), forKey: name) }
        return (counts[name] ?? nil).map(CellValue.integer) ?? .text("?")
    }

    func sort(by column: String, ascending: Bool) -> Bool { false }

    func forgetCounts() { counts = [:] }
}
