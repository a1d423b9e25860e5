// Shelf: a terminal app built with the toolkit — a table of books kept in a SQLite store,
// through an array controller, and a form of the selected book beside it.
//
//     swift run --package-path Examples Shelf [STORE.sqlite]
//     swift run --package-path Examples Shelf STORE.sqlite --keys 'j<Tab><Enter>…'
//
// j and k move, Enter (or e) edits the table's cell, Tab goes to the form, s sorts by the
// column, Ctrl-S saves, q quits and saves. With --keys there is no terminal: the keys (in the
// toolkit's script notation) are played on a screen in memory, and the program prints it and
// saves, as a test would.
import Bindings
import Foundation
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TerminalUI
import TerminalUICurses

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("Shelf: \(message)\n".utf8))
    exit(1)
}

/// The books of an array controller as rows of a table: the table asks only for the rows it
/// shows; an edit sets the book's value and leaves it unsaved until Ctrl-S or quitting.
final class BookRows: TableDataSource {
    let books: ArrayController

    init(books: ArrayController) {
        self.books = books
    }

    var numberOfRows: Int { books.arrangedCount }

    func value(row: Int, column: String) -> CellValue {
        guard let book = books.arrangedObject(at: row) else { return .empty }
        switch book[column] {
        case let .string(text): return .text(text)
        case let .int(number): return .integer(number)
        case let .bool(flag): return .bool(flag)
        default: return .empty
        }
    }

    func setValue(_ value: CellValue, row: Int, column: String) throws {
        guard let book = books.arrangedObject(at: row) else { return }
        // setValue throws, naming the attribute, for a value its type cannot hold (a year past
        // Integer 32): the table shows the message at the cell and keeps the editor open.
        switch value {
        case .empty where column == "title": throw EditorError("A book needs a title")
        case .empty: try book.setValue(ObjectValue.null, forKey: column)
        case let .text(text): try book.setValue(ObjectValue.string(text), forKey: column)
        case let .integer(number): try book.setValue(ObjectValue.int(number), forKey: column)
        case let .bool(flag): try book.setValue(ObjectValue.bool(flag), forKey: column)
        case .decimal, .date: throw EditorError("Not a value for \(column)")
        }
    }

    func emphasis(row: Int, column: String) -> CellEmphasis {
        guard let book = books.arrangedObject(at: row), book.changedValues[column] != nil else { return .none }
        return .modified
    }

    /// Sorting is the controller's: the store sorts, in SQL.
    func sort(by column: String, ascending: Bool) -> Bool {
        books.sortDescriptors = [ObjectSortDescriptor(key: column, ascending: ascending)]
        return true
    }
}

// The store: a model built in Swift, a book entity, a few books when the store is new.
var arguments = Array(CommandLine.arguments.dropFirst())
var keys: String?
if let flag = arguments.firstIndex(of: "--keys") {
    guard flag + 1 < arguments.count else { fail("--keys needs the keys to play, as in 'j<Enter>'") }
    keys = arguments[flag + 1]
    arguments.removeSubrange(flag...(flag + 1))
}
let storeURL = URL(fileURLWithPath: arguments.first ?? "Shelf.sqlite")

let context: ManagedObjectContext
do {
    SQLiteStore.register()
    let model = try ManagedObjectModel(entities: [
        EntityDescription(name: "Book", attributes: [
            AttributeDescription(name: "title", type: .string, isOptional: false),
            AttributeDescription(name: "author", type: .string),
            AttributeDescription(name: "year", type: .integer32),
            AttributeDescription(name: "read", type: .boolean, isOptional: false, defaultValue: .bool(false)),
        ]),
    ])
    let container = PersistentContainer(name: "Shelf", model: model,
                                        storeDescriptions: [.init(type: .sqlite, url: storeURL)])
    try container.loadPersistentStores()
    context = container.viewContext
    if try context.count(for: FetchRequest(entityName: "Book")) == 0 {
        for (title, author, year) in [("Kindred", "Octavia E. Butler", 1979), ("The Dispossessed", "Ursula K. Le Guin", 1974),
                                      ("Middlemarch", "George Eliot", 1871), ("Beloved", "Toni Morrison", 1987)] {
            let book = try context.insertObject(forEntityName: "Book")
            book["title"] = .string(title)
            book["author"] = .string(author)
            book["year"] = .int(year)
        }
        try context.save()
    }
} catch {
    fail("\(storeURL.path): \(error)")
}

// The views: a table over the controller, a form over its selection, in one window.
let books: ArrayController
do {
    books = try ArrayController(context: context, entityName: "Book", sortDescriptors: [ObjectSortDescriptor(key: "title")])
} catch {
    fail("\(error)")
}
let rows = BookRows(books: books)

let driver: TerminalDriver
if keys != nil {
    driver = MemoryDriver(size: Size(width: 100, height: 14))
} else {
    do { try CursesDriver.checkTerminal() } catch { fail("\(error)") }
    driver = CursesDriver()
}
let app = Application(driver: driver)

let table = TableView(columns: [
    TableColumn("title", title: "Title", width: 24, editor: .text),
    TableColumn("author", title: "Author", width: 20, editor: .text),
    TableColumn("year", title: "Year", width: 6, editor: .integer),
    TableColumn("read", title: "Read", width: 5, alignment: .center, editor: .toggle),
], dataSource: rows)

@MainActor func field(_ key: String, _ label: String, _ editor: EditorKind) -> FormField {
    FormField(key, label: label, editor: editor,
              get: { rows.value(row: table.state.selectedRow, column: key) },
              set: { try rows.setValue($0, row: table.state.selectedRow, column: key) })
}
let form = FormView(fields: [
    field("title", "Title", .text),
    field("author", "Author", .text),
    field("year", "Year", .integer),
    field("read", "Read", .toggle),
])

let window = Window(title: "Shelf — \(storeURL.lastPathComponent)")
let divider = Divider()
window.addSubview(table)
window.addSubview(divider)
window.addSubview(form)
window.layout = { _, area in
    let formWidth = min(36, area.width / 3)
    table.frame = Rect(x: area.x, y: area.y, width: area.width - formWidth - 2, height: area.height)
    divider.frame = Rect(x: area.maxX - formWidth - 2, y: area.y, width: 1, height: area.height)
    form.frame = Rect(x: area.maxX - formWidth, y: area.y, width: formWidth, height: area.height)
}
window.focus(table)

@MainActor func showStatus() {
    app.statusBar.status = "\(table.positionText)  \(context.hasChanges ? "edited" : "saved")"
}
table.onSelectionChange = { _ in showStatus() }
// Every change to the context (an edit, a save) shows in the status bar.
let observation = context.observe { _ in showStatus() }

@MainActor func save() -> Bool {
    guard table.commitEditing(), form.commitEditing() else { return false }
    do {
        try context.save()
        showStatus()
        return true
    } catch {
        app.alert(title: "Not saved", message: "\(error)")
        return false
    }
}
app.keyMap.add(Command("shelf.save", title: "Save", keys: [.control("s")], hint: "Save") {
    if save() { app.showMessage("Saved to \(storeURL.lastPathComponent)") }
    return .redraw
})
// Quitting saves; a save that fails keeps the program open with the edits.
app.shouldQuit = { save() }

app.show(window)
showStatus()

if let keys {
    let screen = app.runScript(keys)
    print(screen.joined(separator: "\n"))
    guard save() else { fail("the edits could not be saved") }
} else {
    do { try app.run() } catch { fail("\(error)") }
}
