import Foundation
import TerminalUI

/// Generated rows for the gallery: a table of made-up tasks, computed per row on demand.
final class SampleRows: TableDataSource {
    static let categories = ["Home", "Work", "Errands", "Garden", "Reading", "日本語", "Health"]
    private static let verbs = ["Buy", "Call", "Fix", "Plan", "Write", "Read", "Clean", "Book", "Pay", "Sort"]
    private static let things = ["milk", "the plumber", "bike brakes", "a trip to Kyoto", "the report",
                                 "「吾輩は猫である」", "the garage", "dentist 🦷", "rent", "old photos"]

    private(set) var count: Int
    private var order: [Int]?
    private var edits: [Int: [String: CellValue]] = [:]
    private let start = Date(timeIntervalSince1970: 1_790_000_000)

    init(count: Int) {
        self.count = count
    }

    var numberOfRows: Int { count }

    private func base(_ row: Int) -> Int { order?[row] ?? row }

    func value(row: Int, column: String) -> CellValue {
        let id = base(row)
        if let edited = edits[id]?[column] { return edited }
        switch column {
        case "id": return .integer(id + 1)
        case "title": return .text("\(Self.verbs[id % 10]) \(Self.things[(id / 10) % 10])")
        case "category": return .text(Self.categories[id % Self.categories.count])
        case "priority": return .integer((id * 7) % 5 + 1)
        case "estimate": return .decimal(Double((id * 37) % 900) / 10)
        case "due": return .date(start.addingTimeInterval(Double(id) * 5_400))
        case "done": return .bool(id % 3 == 0)
        case "notes": return id % 4 == 0 ? .empty : .text("note \(id) — remember to check twice")
        default: return .empty
        }
    }

    func setValue(_ value: CellValue, row: Int, column: String) throws {
        if column == "title", case .empty = value { throw EditorError("A title cannot be empty") }
        if column == "priority", case let .integer(n) = value, !(1...5).contains(n) {
            throw EditorError("Priority goes from 1 to 5, not \(n)")
        }
        edits[base(row), default: [:]][column] = value
    }

    func emphasis(row: Int, column: String) -> CellEmphasis {
        edits[base(row)]?[column] != nil ? .modified : .none
    }

    func sort(by column: String, ascending: Bool) -> Bool {
        guard column != "notes" else { return false }
        let keys = (0..<count).map { ValueFormat.automatic.string(for: valueForBase($0, column)) }
        var indices = Array(0..<count)
        indices.sort { a, b in
            let (x, y) = (valueForBase(a, column), valueForBase(b, column))
            let less: Bool
            switch (x, y) {
            case let (.integer(l), .integer(r)): less = l < r
            case let (.decimal(l), .decimal(r)): less = l < r
            case let (.date(l), .date(r)): less = l < r
            default: less = keys[a] < keys[b]
            }
            return ascending ? less : !less && keys[a] != keys[b]
        }
        order = indices
        return true
    }

    private func valueForBase(_ id: Int, _ column: String) -> CellValue {
        let saved = order
        order = nil
        defer { order = saved }
        return value(row: id, column: column)
    }
}
