import Foundation
@testable import TerminalUI

/// A data source of generated rows that records which rows were read.
final class RecordingRows: TableDataSource {
    var count: Int
    var readRows = Set<Int>()
    var stored: [String: CellValue] = [:]
    var sortRequests: [(String, Bool)] = []
    /// Every sort asked for with several keys, as "column ascending" texts.
    var sortKeyRequests: [[String]] = []
    var titles: [String]?

    init(count: Int, titles: [String]? = nil) {
        self.count = count
        self.titles = titles
    }

    var numberOfRows: Int { count }

    func value(row: Int, column: String) -> CellValue {
        precondition(row >= 0 && row < count, "row \(row) out of 0..<\(count)")
        readRows.insert(row)
        if let value = stored["\(row).\(column)"] { return value }
        switch column {
        case "id": return .integer(row + 1)
        case "title": return .text(titles?[row] ?? "Task \(row + 1)")
        case "price": return .decimal(Double(row) * 1.5)
        case "done": return .bool(row % 2 == 0)
        case "due": return .date(Self.day(2026, 11, 21 + row % 5, 9, 30))
        case "list": return .text(["Home", "Work", "Shop"][row % 3])
        default: return .empty
        }
    }

    func setValue(_ value: CellValue, row: Int, column: String) throws {
        if column == "title", value == .empty { throw EditorError("A title cannot be empty") }
        stored["\(row).\(column)"] = value
    }

    func emphasis(row: Int, column: String) -> CellEmphasis {
        if stored["\(row).\(column)"] != nil { return .modified }
        return column == "done" && row == 2 ? .dimmed : .none
    }

    func sort(by column: String, ascending: Bool) -> Bool {
        sortRequests.append((column, ascending))
        return column != "title"
    }

    func sort(by keys: [TableSortKey]) -> Bool {
        if keys.count == 1 { return sort(by: keys[0].column, ascending: keys[0].ascending) }
        sortKeyRequests.append(keys.map { "\($0.column) \($0.ascending)" })
        return !keys.contains { $0.column == "title" }
    }

    static func day(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
    }
}

/// An application on a memory driver with one window holding a table.
struct TableHarness {
    let driver: MemoryDriver
    let app: Application
    let table: TableView
    let rows: RecordingRows

    init(rows: RecordingRows, columns: [TableColumn]? = nil, size: Size = Size(width: 40, height: 10)) {
        self.rows = rows
        driver = MemoryDriver(size: size, colorSupport: .monochrome)
        app = Application(driver: driver)
        app.showsStatusBar = true
        table = TableView(columns: columns ?? [
            TableColumn("id", title: "#", width: 4),
            TableColumn("title", title: "Title", width: 12, editor: .text),
            TableColumn("price", title: "Price", width: 7, editor: .decimal),
            TableColumn("done", title: "Done", width: 4, alignment: .center, editor: .toggle),
        ], dataSource: rows)
        let window = Window(title: "Tasks")
        window.addSubview(table)
        let table = self.table
        window.layout = { _, area in table.frame = area }
        app.show(window)
    }

    @discardableResult
    func run(_ script: String) -> [String] { app.runScript(script) }
}
