import Foundation
import TerminalUI
import TerminalUICurses

// A showcase of the terminal toolkit: a table of generated rows with an editing form beside it,
// a menu bar, a status bar and a floating panel. `termdata-gallery [ROWS]`.

let rowCount = CommandLine.arguments.dropFirst().compactMap { Int($0) }.first ?? 10_000

do {
    try CursesDriver.checkTerminal()
} catch {
    FileHandle.standardError.write(Data("termdata-gallery: \(error)\n".utf8))
    exit(1)
}

let rows = SampleRows(count: rowCount)
let driver = CursesDriver()
let app = Application(driver: driver)

let table = TableView(columns: [
    TableColumn("id", title: "#", width: 6),
    TableColumn("title", title: "Title", width: 28, editor: .text),
    TableColumn("category", title: "Category", width: 10, editor: .choice(SampleRows.categories)),
    TableColumn("priority", title: "Pri", width: 4, editor: .integer),
    TableColumn("estimate", title: "Hours", width: 7, format: .decimal(places: 1), editor: .decimal),
    TableColumn("due", title: "Due", width: 16, format: .date(showsTime: true), editor: .date),
    TableColumn("done", title: "Done", width: 4, alignment: .center, editor: .toggle),
    TableColumn("notes", title: "Notes", width: 36, editor: .text),
], dataSource: rows)

@MainActor func field(_ id: String, _ label: String, _ editor: EditorKind, format: ValueFormat? = nil) -> FormField {
    FormField(id, label: label, editor: editor, format: format,
              get: { rows.value(row: table.state.selectedRow, column: id) },
              set: { try rows.setValue($0, row: table.state.selectedRow, column: id) })
}

let form = FormView(fields: [
    field("id", "Number", .readOnly),
    field("title", "Title", .text),
    field("category", "Category", .choice(SampleRows.categories)),
    field("priority", "Priority", .integer),
    field("estimate", "Hours", .decimal, format: .decimal(places: 1)),
    field("due", "Due", .date, format: .date(showsTime: true)),
    field("done", "Done", .toggle),
    field("notes", "Notes", .text),
])

let main = Window(title: "Tasks")
main.addSubview(table)
main.addSubview(form)
let divider = Divider()
main.addSubview(divider)
main.layout = { _, area in
    if area.width >= 90 {
        let formWidth = min(40, area.width / 3)
        table.frame = Rect(x: area.x, y: area.y, width: area.width - formWidth - 2, height: area.height)
        divider.frame = Rect(x: area.maxX - formWidth - 2, y: area.y, width: 1, height: area.height)
        form.frame = Rect(x: area.maxX - formWidth, y: area.y, width: formWidth, height: area.height)
        form.isHidden = false
        divider.isHidden = false
    } else {
        table.frame = area
        form.isHidden = true
        divider.isHidden = true
    }
}
main.focus(table)

@MainActor func updateStatus() {
    app.statusBar.status = "\(table.positionText)  \(rows.count) rows"
    main.title = "Tasks — \(table.columns[table.state.selectedColumn].title)"
}
table.onSelectionChange = { _ in updateStatus() }

let panel = Window(title: "Categories", floating: true)
let categories = TableView(columns: [
    TableColumn("name", title: "Category", width: 12),
    TableColumn("count", title: "Rows", width: 6),
], dataSource: CategoryCounts(rows: rowCount))
panel.addSubview(categories)
panel.placement = { area in
    Rect(x: max(area.x, area.maxX - 30), y: area.y + 2, width: min(area.width, 26), height: min(area.height - 2, 12))
}
panel.layout = { _, area in categories.frame = area }

app.keyMap.add(Command("gallery.panel", title: "Show or hide the categories panel", keys: [.character("c"), .function(7)], hint: "Panel") {
    if app.windows.contains(where: { $0 === panel }) { app.close(panel) } else { app.show(panel) }
    return .redraw
})
app.keyMap.add(Command("gallery.save", title: "Save", keys: [.control("s")], hint: "Save") {
    app.showMessage("Saved (the gallery keeps edits in memory)")
    return .redraw
})
app.keyMap.add(Command("gallery.about", title: "About the gallery") {
    app.alert(title: "About", message: "TermData terminal toolkit gallery: \(rowCount) generated rows.")
    return .redraw
})

app.menuBar = MenuBar([
    Menu("File", items: [MenuItem("Save        Ctrl-S", command: "gallery.save"), MenuItem("Quit        q", command: "app.quit")]),
    Menu("Table", items: [
        MenuItem("Edit cell       e", command: "table.edit"),
        MenuItem("Sort by column  s", command: "table.sort"),
        MenuItem("Search          /", command: "table.search"),
        MenuItem("Hide column     -", command: "table.hideColumn"),
        MenuItem("Show columns    +", command: "table.showColumns"),
    ]),
    Menu("View", items: [
        MenuItem("Categories panel  c", command: "gallery.panel"),
        MenuItem("Command palette   :", command: "app.palette"),
        MenuItem("Redraw       Ctrl-L", command: "app.redraw"),
    ]),
    Menu("Help", items: [MenuItem("Keys   ?", command: "app.help"), MenuItem("About", command: "gallery.about")]),
])

app.shouldQuit = {
    table.commitEditing()
    return true
}

app.show(main)
updateStatus()
app.schedule(after: 1, repeating: 1) { _ in
    updateStatus()
    return .needsRedraw
}

do {
    try app.run()
} catch {
    FileHandle.standardError.write(Data("termdata-gallery: \(error)\n".utf8))
    exit(1)
}
