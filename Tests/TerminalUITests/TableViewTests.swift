import Foundation
import Testing
import TestSupport
@testable import TerminalUI

@Suite("Table view")
struct TableViewTests {
    @Test("draws a header, a rule, aligned columns and the status bar")
    func drawsTable() {
        let harness = TableHarness(rows: RecordingRows(count: 3))
        assertScreen(harness.run(""), [
            "┌─ Tasks ──────────────────────────────┐",
            "│   #│Title       │  Price│Done│       │",
            "│────┼────────────┼───────┼────┼───────│",
            "│   1│Task 1      │   0.00│ ✓  │       │",
            "│   2│Task 2      │   1.50│ ·  │       │",
            "│   3│Task 3      │   3.00│ ✓  │       │",
            "│                                      │",
            "│                                      │",
            "└──────────────────────────────────────┘",
        ])
        // The # column has no editor, so Enter is not offered as Edit there; Title has one.
        #expect(harness.driver.screenLines[9].hasPrefix("s Sort"))
        #expect(harness.run("l")[9].hasPrefix("Enter Edit"))
    }

    @Test("pasted text is handled as a burst: the screen is drawn once per burst, not once per character")
    func pasteBurst() {
        let harness = TableHarness(rows: RecordingRows(count: 3))
        harness.run("l<Enter><C-u>")
        let before = harness.driver.drawCount
        let pasted = String(repeating: "ab", count: 300)
        harness.run(pasted + "<Enter>")
        #expect(harness.rows.stored["0.title"] == .text(pasted))
        #expect(harness.driver.drawCount - before <= 4, "\(harness.driver.drawCount - before) frames for 601 keys")
    }

    @Test("a bracketed paste into a cell arrives whole, line breaks as spaces, and one undo takes it back")
    func pasteIntoCell() {
        let harness = TableHarness(rows: RecordingRows(count: 3))
        harness.run("l<Enter><C-u>kept ")
        let pasted = String(repeating: "milk and honey\n", count: 1_200)   // 18,000 characters
        harness.driver.send(.paste(pasted))
        harness.run("")
        harness.run("<C-_><Enter>")
        #expect(harness.rows.stored["0.title"] == .text("kept "), "one undo step for the whole paste")
        harness.run("j<Enter><C-u>")
        harness.driver.send(.paste(pasted))
        harness.run("<Enter>")
        #expect(harness.rows.stored["1.title"] == .text(pasted.replacingOccurrences(of: "\n", with: " ")))
    }

    @Test("a table scrolled sideways starts from its first column again once everything fits")
    func scrollsBack() {
        let harness = TableHarness(rows: RecordingRows(count: 3))
        harness.run("lll")
        harness.driver.resize(to: Size(width: 16, height: 10))
        let narrow = harness.run("")
        #expect(!narrow[1].contains("#"), "scrolled to show Done: \(narrow[1])")
        harness.driver.resize(to: Size(width: 40, height: 10))
        let wide = harness.run("")
        #expect(harness.table.state.firstColumn == 0)
        #expect(wide[1].hasPrefix("│   #│Title"), "\(wide[1])")
        // Widening a column scrolls; narrowing it again scrolls back.
        harness.run(">>>>>>>>>>>>>>>>>>>>")
        #expect(harness.table.state.firstColumn > 0)
        harness.run("<<<<<<<<<<<<<<<<<<<<")
        #expect(harness.table.state.firstColumn == 0)
    }

    @Test("reads only the rows on screen, even among a million")
    func virtualScrolling() {
        let rows = RecordingRows(count: 1_000_000)
        let harness = TableHarness(rows: rows)
        harness.run("")
        #expect(rows.readRows == Set(0..<5))
        rows.readRows = []
        let screen = harness.run("G")
        #expect(rows.readRows == Set(999_995..<1_000_000))
        #expect(screen[7] == "│1000…│Task 1000000│1499998…│ ·  │       │" || screen[7].contains("Task 1000000"))
        #expect(harness.table.state.selectedRow == 999_999)
        rows.readRows = []
        harness.run("g")
        #expect(rows.readRows == Set(0..<5))
    }

    @Test("j, k, PgDn and the arrows move the selection and scroll with it")
    func movement() {
        let harness = TableHarness(rows: RecordingRows(count: 50))
        harness.run("jjj")
        #expect(harness.table.state.selectedRow == 3)
        harness.run("k<Down><Down>")
        #expect(harness.table.state.selectedRow == 4)
        let screen = harness.run("<PgDn>")
        #expect(harness.table.state.selectedRow == 9)
        #expect(harness.table.state.topRow == 5)
        #expect(screen[3].contains("Task 6"))
        #expect(screen[7].contains("Task 10"))
        harness.run("<Home>")
        #expect(harness.table.state.selectedRow == 0)
        #expect(harness.app.statusBar.status.isEmpty)
        #expect(harness.table.positionText == "1/50")
    }

    @Test("columns that do not fit scroll into view as the selection moves right")
    func horizontalScrolling() {
        let columns = (1...8).map { TableColumn("c\($0)", title: "Col\($0)", width: 8) }
        let harness = TableHarness(rows: RecordingRows(count: 2), columns: columns, size: Size(width: 30, height: 6))
        var screen = harness.run("")
        #expect(screen[1] == "│Col1    │Col2    │Col3    │ │")
        screen = harness.run("lllll")
        #expect(harness.table.state.selectedColumn == 5)
        #expect(screen[1] == "│Col4    │Col5    │Col6    │ │")
        screen = harness.run("hhhhh")
        #expect(screen[1] == "│Col1    │Col2    │Col3    │ │")
    }

    @Test("a compressible column gives up its width, down to its compressed width, so the columns after it stay in view")
    func compressedColumn() {
        let columns = [TableColumn("title", title: "Title", width: 20, compressedWidth: 8),
                       TableColumn("list", title: "List", width: 6), TableColumn("id", title: "#", width: 4)]
        let harness = TableHarness(rows: RecordingRows(count: 2), columns: columns, size: Size(width: 27, height: 6))
        var screen = harness.run("")
        #expect(screen[1] == "│Title        │List  │   #│", "narrowed just enough: \(screen[1])")
        #expect(screen[3].hasPrefix("│Task 1       │Home  │   1│"), "\(screen[3])")
        harness.driver.resize(to: Size(width: 40, height: 6))
        screen = harness.run("")
        #expect(screen[1].hasPrefix("│Title               │List  │   #│"), "its own width once there is room: \(screen[1])")
        harness.driver.resize(to: Size(width: 20, height: 6))
        screen = harness.run("")
        #expect(screen[1].hasPrefix("│Title   │List  │") && !screen[1].contains("#"), "no narrower than its compressed width: \(screen[1])")
        screen = harness.run("ll")
        #expect(harness.table.state.selectedColumn == 2)
        #expect(screen[1].contains("#"), "the last column scrolls into view: \(screen[1])")
    }

    @Test("a column that fills spare width takes what the others leave, so the last column ends at the edge")
    func fillingColumn() {
        let columns = [TableColumn("title", title: "Title", width: 10, compressedWidth: 6, fillsSpareWidth: true),
                       TableColumn("list", title: "List", width: 6), TableColumn("id", title: "#", width: 4)]
        let harness = TableHarness(rows: RecordingRows(count: 2), columns: columns, size: Size(width: 40, height: 6))
        var screen = harness.run("")
        #expect(screen[1] == "│Title                     │List  │   #│", "no blank column after the last: \(screen[1])")
        #expect(screen[3] == "│Task 1                    │Home  │   1│", "\(screen[3])")
        harness.driver.resize(to: Size(width: 20, height: 6))
        screen = harness.run("")
        #expect(screen[1] == "│Title │List  │   #│", "narrower than the columns, it still gives up its width: \(screen[1])")
        harness.driver.resize(to: Size(width: 40, height: 6))
        screen = harness.run("l-")
        #expect(screen[1] == "│Title                            │   #│", "a hidden column's width goes to it too: \(screen[1])")
    }

    @Test("columns can be widened, narrowed, hidden and shown again")
    func columnResizeAndHide() {
        let harness = TableHarness(rows: RecordingRows(count: 1))
        var screen = harness.run("l>>")
        #expect(screen[1] == "│   #│Title           │  Price│Done│   │")
        screen = harness.run("<<<")
        #expect(screen[1] == "│   #│Title     │  Price│Done│         │")
        screen = harness.run("-")
        #expect(screen[1] == "│   #│  Price│Done│                    │")
        #expect(harness.table.state.selectedColumn == 2)
        screen = harness.run("+")
        #expect(screen[1] == "│   #│Title     │  Price│Done│         │")
    }

    @Test("s sorts by the selected column, again reverses, and the header shows the direction")
    func sorting() {
        let harness = TableHarness(rows: RecordingRows(count: 3))
        var screen = harness.run("lls")
        #expect(harness.rows.sortRequests.map { "\($0.0) \($0.1)" } == ["price true"])
        #expect(screen[1] == "│   #│Title       │Price ▲│Done│       │")
        screen = harness.run("s")
        #expect(screen[1] == "│   #│Title       │Price ▼│Done│       │")
        screen = harness.run("hs")
        #expect(screen[1] == "│   #│Title       │Price ▼│Done│       │")
        #expect(screen[9] == " Cannot sort by Title")
        screen = harness.run("lls")
        #expect(screen[1] == "│   #│Title       │  Price│D… ▲│       │", "a narrow column's title gives way to the arrow")
    }

    @Test("S adds the column to the sort after the others, again reverses it, a third time drops it; the header numbers the keys")
    func severalSortKeys() {
        let harness = TableHarness(rows: RecordingRows(count: 3), columns: [
            TableColumn("id", title: "#", width: 4),
            TableColumn("title", title: "Title", width: 8),
            TableColumn("price", title: "Price", width: 9),
            TableColumn("done", title: "Done", width: 8),
        ])
        var screen = harness.run("llS")
        #expect(harness.rows.sortRequests.map { "\($0.0) \($0.1)" } == ["price true"], "the first key alone")
        #expect(screen[1] == "│   #│Title   │  Price ▲│Done    │     │")
        screen = harness.run("lS")
        #expect(harness.rows.sortKeyRequests.last == ["price true", "done true"])
        #expect(screen[1] == "│   #│Title   │ Price ▲1│Done ▲2 │     │")
        screen = harness.run("S")
        #expect(harness.rows.sortKeyRequests.last == ["price true", "done false"])
        #expect(screen[1] == "│   #│Title   │ Price ▲1│Done ▼2 │     │")
        screen = harness.run("hhhS")
        #expect(harness.rows.sortKeyRequests.last == ["price true", "done false", "id true"])
        #expect(screen[1] == "│# ▲3│Title   │ Price ▲1│Done ▼2 │     │")
        screen = harness.run("lS")
        #expect(screen[9] == " Cannot sort by Title after the others", "the data source refuses it")
        #expect(harness.table.state.sortKeys.map(\.column) == ["price", "done", "id"])
        screen = harness.run("llS")
        #expect(harness.table.state.sortKeys == [TableSortKey("price"), TableSortKey("id")], "a third S drops done")
        #expect(screen[1] == "│# ▲2│Title   │ Price ▲1│Done    │     │")
        screen = harness.run("s")
        #expect(harness.table.state.sortKeys == [TableSortKey("done")], "s sorts by the column alone")
        #expect(screen[1] == "│   #│Title   │    Price│Done ▲  │     │")
    }

    @Test("a layout keeps several sort keys, and reads the single key that earlier files hold")
    func layoutWithSeveralSortKeys() throws {
        let first = TableHarness(rows: RecordingRows(count: 3))
        first.run("llSlSS")
        let layout = try JSONDecoder().decode(TableLayout.self, from: JSONEncoder().encode(first.table.tableLayout))
        #expect(layout.sortKeys == [TableSortKey("price"), TableSortKey("done", ascending: false)])
        let second = TableHarness(rows: RecordingRows(count: 3))
        second.table.apply(layout)
        #expect(second.rows.sortKeyRequests == [["price true", "done false"]])
        #expect(second.table.state.sortKeys == layout.sortKeys)

        let earlier = #"{"sortColumn":"price","sortAscending":false,"columns":{"title":{"width":9,"hidden":false}}}"#
        let old = try JSONDecoder().decode(TableLayout.self, from: Data(earlier.utf8))
        #expect(old.sortKeys == [TableSortKey("price", ascending: false)])
        #expect(old.columns["title"]?.width == 9)
        let written = String(decoding: try JSONEncoder().encode(old), as: UTF8.self)
        #expect(written.contains(#""sortColumn":"price""#) && !written.contains("thenSortBy"), "\(written)")
    }

    @Test("Enter edits a cell in place, Enter stores the value")
    func editAndCommit() {
        let harness = TableHarness(rows: RecordingRows(count: 3))
        var screen = harness.run("jl<Enter>")
        #expect(harness.table.state.isEditing)
        #expect(screen[4].hasPrefix("│   2│Task 2"))
        #expect(harness.driver.screen?.cursor == Point(x: 12, y: 4))
        screen = harness.run("<C-u>Milk 日本<Enter>")
        #expect(!harness.table.state.isEditing)
        #expect(harness.rows.stored["1.title"] == .text("Milk 日本"))
        #expect(screen[4] == "│   2│Milk 日本   │   1.50│ ·  │       │")
    }

    @Test("a layout taken from one table and applied to a new one restores sort, widths and hidden columns; bad parts are ignored")
    func layoutRoundTrip() throws {
        let first = TableHarness(rows: RecordingRows(count: 3))
        var changes = 0
        first.table.onLayoutChange = { changes += 1 }
        _ = first.run("lls>>l-")                        // sort by price, widen it, hide "done"
        #expect(changes == 4, "a sort, two resizes, a hide")
        let data = try JSONEncoder().encode(first.table.tableLayout)
        let layout = try JSONDecoder().decode(TableLayout.self, from: data)

        let second = TableHarness(rows: RecordingRows(count: 3))
        second.table.apply(layout)
        #expect(second.rows.sortRequests.map { "\($0.0) \($0.1)" } == ["price true"])
        #expect(second.table.tableLayout == first.table.tableLayout)
        #expect(second.run("")[1] == first.run("")[1], "the same header: \(second.run("")[1])")

        var odd = layout
        odd.columns["price"]?.width = 10_000
        odd.columns["nosuch"] = .init(width: 9, hidden: false)
        odd.sortKeys = [TableSortKey("title")]          // the data source refuses it
        for key in odd.columns.keys { odd.columns[key]?.hidden = true }
        let third = TableHarness(rows: RecordingRows(count: 3))
        third.table.apply(odd)
        #expect(third.table.columns.first { $0.id == "price" }?.width == TableView.maximumColumnWidth)
        #expect(third.table.state.sortColumn == nil)
        #expect(third.table.visibleColumnIndices == [0], "one column stays shown")
    }

    @Test("Esc cancels an edit and leaves the value as it was")
    func editAndCancel() {
        let harness = TableHarness(rows: RecordingRows(count: 3))
        let screen = harness.run("l<Enter>xyz<Esc>")
        #expect(!harness.table.state.isEditing)
        #expect(harness.rows.stored.isEmpty)
        #expect(screen[3] == "│   1│Task 1      │   0.00│ ✓  │       │")
    }

    @Test("a refused value keeps the editor open and shows the message at the cell")
    func errorAtCell() {
        let harness = TableHarness(rows: RecordingRows(count: 3))
        var screen = harness.run("l<Enter><C-u><Enter>")
        #expect(harness.table.state.isEditing)
        #expect(screen[4].contains("⚠ A title cannot be empty"))
        screen = harness.run("l<Tab>")
        #expect(harness.table.state.isEditing)
        screen = harness.run("<C-u>abc<Enter>")
        #expect(screen[4].contains("⚠ “abc” is not a number"))
        screen = harness.run("<C-u>2,750<Enter>")
        #expect(screen[4].contains("⚠ “2,750” could be read two ways"), "a thousands comma is not taken for a decimal one")
        screen = harness.run("<C-u>2,5<Enter>")
        #expect(!harness.table.state.isEditing)
        #expect(harness.rows.stored["0.price"] == .decimal(2.5))
        #expect(harness.rows.stored["0.title"] == .text("l"))
    }

    @Test("Tab stores and moves on to the next editable cell, wrapping to the next row")
    func tabMovesOn() {
        let harness = TableHarness(rows: RecordingRows(count: 3))
        harness.run("l<Enter><C-u>First<Tab>")
        #expect(harness.rows.stored["0.title"] == .text("First"))
        #expect(harness.table.state.selectedColumn == 2)
        #expect(harness.table.state.isEditing)
        harness.run("<C-u>9<Tab>")
        #expect(harness.rows.stored["0.price"] == .decimal(9))
        #expect(harness.table.state.selectedRow == 1)
        #expect(harness.table.state.selectedColumn == 1)
        #expect(harness.table.state.isEditing)
    }

    @Test("Enter on a yes/no cell flips it; Space does too")
    func toggle() {
        let harness = TableHarness(rows: RecordingRows(count: 3))
        harness.run("lll<Enter>")
        #expect(harness.rows.stored["0.done"] == .bool(false))
        harness.run("j ")
        #expect(harness.rows.stored["1.done"] == .bool(true))
        #expect(!harness.table.state.isEditing)
    }

    @Test("a read-only cell says it cannot be edited")
    func readOnly() {
        let harness = TableHarness(rows: RecordingRows(count: 3))
        let screen = harness.run("e")
        #expect(!harness.table.state.isEditing)
        #expect(screen[9] == " # cannot be edited")
    }

    /// A table of one date column ("due"), 64×10, over `rows`.
    func dateHarness(_ rows: RecordingRows) -> TableHarness {
        TableHarness(rows: rows, columns: [
            TableColumn("due", title: "Due", width: 16, format: .date(showsTime: true), editor: .date),
        ], size: Size(width: 64, height: 10))
    }

    @Test("the date editor changes one part at a time and t goes to today")
    func dateEditor() {
        let rows = RecordingRows(count: 2)
        let harness = TableHarness(rows: rows, columns: [
            TableColumn("due", title: "Due", width: 16, format: .date(showsTime: true), editor: .date),
        ])
        harness.table.today = { RecordingRows.day(2030, 1, 2, 8, 0) }
        var screen = harness.run("<Enter>")
        #expect(screen[3] == "│2026-11-21 09:30│                     │", "the editor keeps to its cell")
        screen = harness.run("<Up><Up><Left>k<Right><Right>j")
        #expect(screen[3] == "│2026-12-23 08:30│                     │")
        harness.run("<Enter>")
        #expect(rows.stored["0.due"] == .date(RecordingRows.day(2026, 12, 23, 8, 30)))
        harness.run("<Enter>t<Enter>")
        #expect(rows.stored["0.due"] == .date(RecordingRows.day(2030, 1, 2, 8, 30)))
    }

    @Test("the date editor clears with Backspace, takes typed digits part by part, and keeps the chosen day across short months")
    func dateEditorClearTypeAndMonths() {
        let rows = RecordingRows(count: 2)
        let harness = dateHarness(rows)
        var screen = harness.run("<Enter><Backspace>")
        #expect(screen[3].hasPrefix("│(no date)"), "\(screen[3])")
        #expect(screen[9].contains("Backspace Clear  t Today"), "the hints name the date keys: \(screen[9])")
        harness.run("<Enter>")
        #expect(rows.stored["0.due"] == .empty, "a cleared date stores no value")
        // Typed: year, month, day, hour, minute, each moving on to the next part.
        harness.run("j<Enter><Left><Left>202512241815<Enter>")
        #expect(rows.stored["1.due"] == .date(RecordingRows.day(2025, 12, 24, 18, 15)))
        // 31 October, then month by month: the 31st comes back after November's 30th.
        harness.run("<Enter><Left><Left>2025103109<Left><Left><Left>")
        screen = harness.run("<Up>")
        #expect(screen[4].hasPrefix("│2025-11-30"), "\(screen[4])")
        screen = harness.run("<Up><Up><Up>")
        #expect(screen[4].hasPrefix("│2026-02-28"), "\(screen[4])")
        screen = harness.run("<Up>")
        #expect(screen[4].hasPrefix("│2026-03-31"), "\(screen[4])")
    }

    @Test("a whole date typed from any part is read whole; the time stays when left out; an impossible part is refused with its reason")
    func dateEditorWholeDate() {
        let rows = RecordingRows(count: 1)
        let harness = dateHarness(rows)
        // The editor opens on the day part of the row's date, 2026-11-21 09:30.
        var screen = harness.run("<Enter>2026-11-21 19:00")
        #expect(screen[3].hasPrefix("│2026-11-21 19:00"), "\(screen[3])")
        harness.run("<Enter>")
        #expect(rows.stored["0.due"] == .date(RecordingRows.day(2026, 11, 21, 19, 0)))
        harness.run("<Enter>2027/3/7<Enter>")
        #expect(rows.stored["0.due"] == .date(RecordingRows.day(2027, 3, 7, 19, 0)), "the time is kept")
        screen = harness.run("<Enter>2027-02-30<Enter>")
        #expect(harness.table.state.isEditing, "30 February is refused")
        #expect(screen[4].contains("⚠ February 2027 has no day 30"), "\(screen[4])")
        screen = harness.run("<Esc><Enter>2028-13-05")
        #expect(screen[4].contains("⚠ there is no month 13"), "named as it is typed: \(screen[4])")
        #expect(screen[3].hasPrefix("│2027-03-07 19:00"), "none of it is taken: \(screen[3])")
        // Typing more and taking it back brings the message back with the date.
        screen = harness.run("<Right>1<Backspace>")
        #expect(screen[4].contains("⚠ there is no month 13"), "\(screen[4])")
        screen = harness.run("<Esc><Enter>2027-13")
        // Picking another part does not take the refusal back.
        screen = harness.run("<Left><Enter>")
        #expect(harness.table.state.isEditing)
        #expect(screen[4].contains("⚠ there is no month 13"), "\(screen[4])")
        harness.run("<Esc>")
        #expect(rows.stored["0.due"] == .date(RecordingRows.day(2027, 3, 7, 19, 0)), "a refused date stores nothing")
        harness.run("<Enter>2026-12-24T18:05<Enter>")
        #expect(rows.stored["0.due"] == .date(RecordingRows.day(2026, 12, 24, 18, 5)), "ISO 8601's T")
        harness.run("<Enter>7:45<Enter>")
        #expect(rows.stored["0.due"] == .date(RecordingRows.day(2026, 12, 24, 7, 45)), "a time alone")
        screen = harness.run("<Enter>12-24")
        #expect(screen[4].contains("⚠ “12-24” is not a date"), "\(screen[4])")
        harness.run("<Esc>")
        // Letters after a date are part of what is typed, not keys (t would be today).
        screen = harness.run("<Enter>2026-12-24 18:00 extra")
        #expect(screen[4].contains("⚠ “2026-12-24 18:00 extra” is not a date"), "\(screen[4])")
        screen = harness.run("<Enter>")
        #expect(harness.table.state.isEditing, "refused, not saved as today: \(screen[3])")
        harness.run("<Esc>")
        #expect(rows.stored["0.due"] == .date(RecordingRows.day(2026, 12, 24, 7, 45)), "nothing of it was stored")
        harness.run("<Enter>18:30t<Backspace><Enter>")
        #expect(rows.stored["0.due"] == .date(RecordingRows.day(2026, 12, 24, 18, 30)), "Backspace takes the letter back")
    }

    @Test("in the date editor one digit is the part's value, Backspace takes back the last key typed, and - steps outside typing")
    func dateEditorPartialTyping() {
        let rows = RecordingRows(count: 1)
        let harness = dateHarness(rows)
        // 2026-11-21 09:30, the day picked.
        harness.run("<Enter>3<Enter>")
        #expect(rows.stored["0.due"] == .date(RecordingRows.day(2026, 11, 3, 9, 30)))
        harness.run("<Enter>3<Right>")
        var screen = harness.run("<Up>")
        #expect(screen[3].hasPrefix("│2026-11-03 10:30"), "the digit was the day's, then the hour steps: \(screen[3])")
        harness.run("<Esc>")
        screen = harness.run("<Enter>27<Backspace><Backspace>4<Enter>")
        #expect(rows.stored["0.due"] == .date(RecordingRows.day(2026, 11, 4, 9, 30)), "Backspace took back 7 and 2")
        screen = harness.run("<Enter>5<Backspace><Backspace>")
        #expect(screen[3].hasPrefix("│(no date)"), "with nothing typed, Backspace clears: \(screen[3])")
        harness.run("<Esc><Enter>-<Enter>")
        #expect(rows.stored["0.due"] == .date(RecordingRows.day(2026, 11, 3, 9, 30)))
        // Four digits from the day could still be a year; they are refused only once they cannot.
        screen = harness.run("<Enter>2026")
        #expect(!screen[4].contains("⚠"), "\(screen[4])")
        screen = harness.run("<Enter>")
        #expect(screen[4].contains("⚠ there is no hour 26"), "a day and an hour: \(screen[4])")
        harness.run("<Esc>")
        // A two-digit year is this century's.
        harness.run("<Enter><Left><Left>27<Enter>")
        #expect(rows.stored["0.due"] == .date(RecordingRows.day(2027, 11, 3, 9, 30)))
    }

    @Test("a choice cell opens a popup list; j/k pick and Enter stores")
    func choicePopup() {
        let rows = RecordingRows(count: 4)
        let harness = TableHarness(rows: rows, columns: [
            TableColumn("list", title: "List", width: 8, editor: .choice(["Home", "Work", "Shop"])),
        ], size: Size(width: 30, height: 12))
        let screen = harness.run("j<Enter>j")
        assertScreen(screen, [
            "┌─ Tasks ────────────────────┐",
            "│List    │                   │",
            "│────────┼───────────────────│",
            "│Home    │                   │",
            "│Shop ▾  │                   │",
            "│┌──────────────────┐        │",
            "││ Home             │        │",
            "││ Work             │        │",
            "││ Shop             │        │",
            "│└──────────────────┘        │",
            "└────────────────────────────┘",
        ])
        harness.run("<Enter>")
        #expect(rows.stored["1.list"] == .text("Shop"))
    }

    @Test("/ searches from the selection, n and N find the next and previous match")
    func search() {
        let rows = RecordingRows(count: 6, titles: ["apple", "pear", "apple pie", "plum", "Apple juice", "fig"])
        let harness = TableHarness(rows: rows)
        var screen = harness.run("/app")
        #expect(screen[9] == "/app")
        harness.run("<Enter>")
        #expect(harness.table.state.selectedRow == 0)
        harness.run("n")
        #expect(harness.table.state.selectedRow == 2)
        harness.run("n")
        #expect(harness.table.state.selectedRow == 4)
        harness.run("N")
        #expect(harness.table.state.selectedRow == 2)
        screen = harness.run("/kiwi<Enter>")
        #expect(screen[9] == " Not found: kiwi")
        #expect(harness.table.state.selectedRow == 2)
    }

    @Test("clicking a row selects it, a header click sorts, the wheel scrolls")
    func mouse() {
        let rows = RecordingRows(count: 40)
        let harness = TableHarness(rows: rows)
        harness.driver.click(x: 8, y: 5)
        harness.run("")
        #expect(harness.table.state.selectedRow == 2)
        #expect(harness.table.state.selectedColumn == 1)
        harness.driver.click(x: 20, y: 1)
        harness.run("")
        #expect(rows.sortRequests.first?.0 == "price")
        harness.driver.send(.mouse(MouseEvent(.wheelDown, at: Point(x: 5, y: 5))))
        harness.run("")
        #expect(harness.table.state.topRow == 3)
        #expect(harness.table.state.selectedRow == 3)
    }

    @Test("an empty table says so")
    func empty() {
        let harness = TableHarness(rows: RecordingRows(count: 0))
        let screen = harness.run("jjG<Enter>")
        #expect(screen[3] == "│               No rows                │")
    }
}

@Suite("Table keys rebound by the owner")
struct TableExtraCommandTests {
    final class Rows: TableDataSource {
        var numberOfRows: Int { 3 }
        func value(row: Int, column: String) -> CellValue { .text("row \(row)") }
    }

    @Test("an owner's command takes the key from the table's own, which leaves the list when it has no key left")
    func rebinding() {
        let table = TableView(columns: [TableColumn("a", title: "A")], dataSource: Rows())
        var filtered = 0
        table.extraCommands = [Command("owner.filter", title: "Filter", keys: [.character("/")]) { filtered += 1; return .handled }]
        let slash = table.commands.filter { $0.keys.contains(.character("/")) }
        #expect(slash.map(\.name) == ["owner.filter"])
        #expect(!table.commands.contains { $0.name == "table.search" }, "search lost its only key")
        #expect(!table.commands.contains { $0.name == "table.searchNext" || $0.name == "table.searchPrevious" },
                "with / taken there is no search for n and N to repeat")
        _ = slash[0].action()
        #expect(filtered == 1)
    }
}
