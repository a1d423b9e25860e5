import Foundation
import ObjectGraph
import TerminalUI

/// The model's entities with how many objects each has, counted in the store when shown.
final class EntityListSource: TableDataSource {
    let context: ManagedObjectContext
    let names: [String]
    private var counts: [String: Int] = [:]

    init(context: ManagedObjectContext, names: [String]) {
        self.context = context
        self.names = names
    }

    var numberOfRows: Int { names.count }

    func value(row: Int, column: String) -> CellValue {
        guard row < names.count else { return .empty }
        let name = names[row]
        if column == "entity" { return .text(name) }
        if counts[name] == nil { counts[name] = try? context.count(for: FetchRequest(entityName: name)) }
        return counts[name].map(CellValue.integer) ?? .text("?")
    }

    func sort(by column: String, ascending: Bool) -> Bool { false }

    func forgetCounts() { counts = [:] }
}
