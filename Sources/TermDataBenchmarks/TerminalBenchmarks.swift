import Foundation
import TerminalUI

/// A million generated rows of five types, computed on demand.
private final class BenchmarkRows: TableDataSource {
    let start = Date(timeIntervalSince1970: 1_790_000_000)
    var numberOfRows: Int { 1_000_000 }

    func value(row: Int, column: String) -> CellValue {
        switch column {
        case "id": return .integer(row + 1)
        case "title": return .text("Task number \(row) — 日本語 text")
        case "price": return .decimal(Double(row % 10_000) / 100)
        case "due": return .date(start.addingTimeInterval(Double(row) * 3_600))
        case "done": return .bool(row % 3 == 0)
        default: return .text("column \(column) row \(row)")
        }
    }
}

private func milliseconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
}

/// Time to draw a full-screen table frame into the memory driver, and to diff it against the previous frame.
func runTerminalBenchmarks() throws {
    for size in [Size(width: 80, height: 24), Size(width: 200, height: 60)] {
        let driver = MemoryDriver(size: size)
        let app = Application(driver: driver)
        let rows = BenchmarkRows()
        let table = TableView(columns: [
            TableColumn("id", title: "#", width: 8),
            TableColumn("title", title: "Title", width: 34, editor: .text),
            TableColumn("price", title: "Price", width: 9, editor: .decimal),
            TableColumn("due", title: "Due", width: 16, format: .date(showsTime: true), editor: .date),
            TableColumn("done", title: "Done", width: 4, editor: .toggle),
            TableColumn("notes", title: "Notes", width: 40),
            TableColumn("extra", title: "Extra", width: 30),
            TableColumn("more", title: "More", width: 30),
        ], dataSource: rows)
        let window = Window(title: "Benchmark")
        window.addSubview(table)
        window.layout = { _, area in table.frame = area }
        app.show(window)
        app.relayout()

        let frames = 300
        var previous = app.render().copy()
        var renderTotal = 0.0, diffTotal = 0.0, changedCells = 0
        for frame in 0..<frames {
            table.select(row: (frame + 1) * table.pageHeight)
            var screen: ScreenBuffer!
            renderTotal += milliseconds { screen = app.render() }
            var changes: [ScreenChange] = []
            diffTotal += milliseconds { changes = screen.changes(since: previous) }
            changedCells += changes.reduce(0) { $0 + $1.cells.count }
            previous = screen.copy()
        }
        let cells = size.width * size.height
        print(String(format: "terminal.render  %3d×%-3d table frame (%5d cells): %7.3f ms/frame", size.width, size.height, cells, renderTotal / Double(frames)))
        print(String(format: "terminal.diff    %3d×%-3d frame vs previous (%5d changed cells avg): %7.3f ms/frame", size.width, size.height, changedCells / frames, diffTotal / Double(frames)))
    }
}

/// Time to take a paste of `characters` characters (words and spaces, as pasted prose)
/// into a table cell being edited and into the prompt line, drawn once after each.
func runPasteBenchmarks() {
    for characters in [1_000, 18_000, 94_000] {
        let text = String(String(repeating: "milk ", count: characters / 5 + 1).prefix(characters))
        let driver = MemoryDriver(size: Size(width: 100, height: 30))
        let app = Application(driver: driver)
        let rows = EditableRows()
        let table = TableView(columns: [TableColumn("title", title: "Title", width: 60, editor: .text)], dataSource: rows)
        let window = Window(title: "Paste")
        window.addSubview(table)
        window.layout = { _, area in table.frame = area }
        app.show(window)
        app.runScript("<Enter>")
        driver.send(.paste(text))
        let cell = milliseconds { app.runScript("") }
        app.runScript("<Esc>")
        app.beginPrompt("Filter: ") { _ in }
        driver.send(.paste(text))
        let prompt = milliseconds { app.runScript("") }
        print(String(format: "terminal.paste   %6d characters: into a cell %8.1f ms, into the prompt %6.1f ms", characters, cell, prompt))
    }
}

/// One row whose title can be edited.
private final class EditableRows: TableDataSource {
    var title = ""
    var numberOfRows: Int { 1 }
    func value(row: Int, column: String) -> CellValue { .text(title) }
    func setValue(_ value: CellValue, row: Int, column: String) throws {
        if case let .text(text) = value { title = text }
    }
}
