import Foundation
import Testing
import ObjectGraph
import Predicates
import TerminalUI
import Browser
import TestSupport
import AppShell

/// Marks (`m`, `*`, `~`, `U`), a value set on every marked row (`=`), and deletes that show
/// what goes with them first.
extension BrowserTests {
    func people(_ browser: BrowserApplication) throws -> Int {
        try browser.context.count(for: FetchRequest(entityName: "Person"))
    }

    @Test("m marks rows (a • beside each, the count in the status bar); d shows what the delete takes, Enter deletes, u brings them back")
    func marksAndDelete() throws {
        let (browser, driver) = try launch(entity: "Person")
        var screen = browser.app.runScript("jmm")
        #expect(browser.marks.count == 2)
        #expect(!screen[4].contains("│•") && screen[5].contains("│•") && screen[6].contains("│•"), "\(screen[4...6])")
        #expect(screen.last?.contains("20 Person · 2 marked · saved") == true, "\(screen.last ?? "")")
        assertScreen(browser.app.runScript("d"), snapshot: "browser-delete-marked", target: "BrowserTests")
        #expect(try people(browser) == 20, "nothing is deleted before the answer")
        browser.app.runScript("<Enter>")
        #expect(try people(browser) == 18)
        #expect(browser.marks.isEmpty, "the marks of deleted objects go with them")
        #expect(driver.screenLines.last?.contains("Deleted 2 objects — u undoes") == true, "\(driver.screenLines.last ?? "")")
        browser.app.runScript("u")
        #expect(try people(browser) == 20)

        // Esc (or Cancel) deletes nothing.
        browser.app.runScript("d<Esc>")
        #expect(try people(browser) == 20)
    }

    @Test("* marks every row the filter shows, ~ inverts the marks among them, U clears them")
    func markAllInvertClear() throws {
        let (browser, driver) = try launch()
        browser.app.runScript("/maker == \"FIAT\"<Enter>")       // filtered in the background: * once it shows
        browser.app.runScript("*")
        #expect(browser.marks.count == 103)
        browser.app.runScript("/<C-u><Enter>")
        browser.app.runScript("~")
        #expect(browser.marks.count == 22, "125 cars, the 103 FIATs unmarked and the others marked")
        #expect(driver.screenLines.last?.contains("22 marked") == true)
        browser.app.runScript("U")
        #expect(browser.marks.isEmpty)
        #expect(driver.screenLines.last?.contains("marked") == false)
        #expect(!browser.objectTable.showsMarks, "without marks the table has no column for them")
    }

    @Test("= sets the selected row's value of the column on every marked row, one step to undo")
    func setOnMarked() throws {
        let (browser, driver) = try launch()
        let maker = try #require(browser.objectTable.columns.firstIndex { $0.id == "maker" })
        browser.objectTable.select(column: maker)
        browser.app.runScript("mmm")
        let marked = browser.marks.objects(in: browser.context)
        let before = marked.map { $0.string("maker") }
        browser.app.runScript("G=")                                // the last car's maker
        let value = browser.objects?.arrangedObject(at: 124)?.string("maker")
        #expect(marked.allSatisfy { $0.string("maker") == value }, "\(marked.map { $0.string("maker") })")
        #expect(driver.screenLines.last?.contains("Set maker to \(value ?? "") on 3 marked — u undoes") == true, "\(driver.screenLines.last ?? "")")
        assertScreen(browser.app.runScript("g"), snapshot: "browser-bulk-set", target: "BrowserTests")
        browser.app.runScript("u")
        #expect(marked.map { $0.string("maker") } == before)
    }
}

extension BrowserTests {
    @Test("y copies the cell's value, Y the row as JSON with its URI, I the URI, and the status bar says what")
    func copies() throws {
        let (browser, driver) = try launch()
        let maker = try #require(browser.objectTable.columns.firstIndex { $0.id == "maker" })
        browser.objectTable.select(column: maker)
        let car = try #require(browser.objects?.selectedObjects.first)
        browser.app.runScript("y")
        #expect(driver.clipboard.last == car.string("maker"))
        #expect(driver.screenLines.last?.contains("Copied maker: \(car.string("maker") ?? "")") == true, "\(driver.screenLines.last ?? "")")
        browser.app.runScript("Y")
        let json = try #require(try JSONSerialization.jsonObject(with: Data((driver.clipboard.last ?? "").utf8)) as? [String: Any])
        #expect(json["@id"] as? String == car.objectID.uriRepresentation.absoluteString)
        #expect(json["maker"] as? String == car.string("maker"))
        browser.app.runScript("I")
        #expect(driver.clipboard.last == car.objectID.uriRepresentation.absoluteString)
        #expect(MemoryDriver.clipboardSequence("Café") == "\u{1B}]52;c;Q2Fmw6k=\u{07}", "OSC 52, the UTF-8 bytes in base 64")
    }
}

extension BrowserTests {
    @Test("beside OSC 52, a copy goes to the clipboard program of a display that runs (xclip here), and to none without a display")
    func localClipboard() throws {
        let folder = try Fixtures.temporaryDirectory("clipboard")
        let received = folder.appendingPathComponent("received.txt")
        let xclip = folder.appendingPathComponent("xclip")
        try Data("#!/bin/sh\n[ \"$1 $2\" = \"-selection clipboard\" ] && cat > '\(received.path)'\n".utf8).write(to: xclip)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: xclip.path)

        #expect(LocalClipboard.program(environment: ["PATH": folder.path]) == nil, "no display, no program")
        #expect(LocalClipboard.program(environment: ["PATH": folder.path, "WAYLAND_DISPLAY": "wayland-0"]) == nil, "no wl-copy here")
        let display = ["PATH": folder.path, "DISPLAY": ":0"]
        #expect(LocalClipboard.program(environment: display) == [xclip.path, "-selection", "clipboard"])
        LocalClipboard.copy("Café au lait", environment: display)
        let deadline = Date().addingTimeInterval(10)
        while (try? String(contentsOf: received, encoding: .utf8)) != "Café au lait", Date() < deadline { usleep(20_000) }
        #expect(try String(contentsOf: received, encoding: .utf8) == "Café au lait")
    }
}

extension BrowserTests {
    @Test("changed cells stand out; P lists what Ctrl-S will save, r reverts one change (u undoes it), Ctrl-S saves the rest")
    func pendingChanges() throws {
        let (browser, driver) = try launch(entity: "Person")
        let first = try #require(browser.objects?.arrangedObject(at: 0))
        let saved = first.string("firstName")
        browser.app.runScript("<Enter><C-u>Zed<Enter>")
        let row = try #require(browser.objects?.arrangedIndex(of: first))
        browser.objectTable.select(row: row == 0 ? 1 : 0)      // off the row: its selection would hide the mark
        let lines = browser.app.runScript("")
        let screen = try #require(driver.screen)
        func style(of name: String) throws -> Style {
            let y = try #require(lines.firstIndex { $0.contains("│\(name) ") })
            let x = Array(lines[y]).firstIndex(of: Character(String(name.prefix(1))))!
            return screen[x, y].style
        }
        #expect(try style(of: "Zed") == browser.app.theme.modified, "the changed name")
        #expect(try style(of: "Mark") != browser.app.theme.modified, "an unchanged name")
        browser.objectTable.select(row: 0)

        let doomed = try #require(browser.objects?.arrangedObject(at: 1)?.string("firstName"))
        browser.app.runScript("jd")
        browser.app.runScript("<Enter>")                          // the third person deleted, after the panel
        browser.app.runScript("aYan<Enter>")
        #expect(try people(browser) == 20, "one added, one deleted")
        assertScreen(browser.app.runScript("P"), snapshot: "browser-pending-changes", target: "BrowserTests")

        // The first line is the new person, then the changed name: reverted, the name is as saved.
        browser.app.runScript("jr")
        #expect(first.string("firstName") == saved)
        #expect(driver.screenLines.last?.contains("Reverted firstName of Person “\(saved ?? "")” — u undoes") == true, "\(driver.screenLines.last ?? "")")
        #expect(driver.screenLines.contains { $0.contains("1 added · 1 changed field · 1 deleted ·") }, "the car that lost its owner is left")
        browser.app.runScript("u")
        #expect(first.string("firstName") == "Zed", "undo takes the revert back")
        // The new person (no last name: the save would refuse it) reverted: gone.
        browser.app.runScript("gr")
        #expect(try people(browser) == 19)
        browser.app.runScript("<C-s>")
        #expect(!browser.context.hasChanges)
        #expect(driver.screenLines.contains { $0.contains("Nothing to save") }, "the panel follows the save")
        let stored = try storedFirstNames()
        #expect(stored.contains("Zed") && !stored.contains("Yan") && !stored.contains(doomed) && stored.count == 19)
    }
}

extension BrowserTests {
    @Test("X writes the rows shown — the filter's, in the sort's order, the visible columns — to CSV; with marks, the marks to JSON")
    func exportsTheView() throws {
        let (browser, driver) = try launch()
        let folder = try Fixtures.temporaryDirectory("export-view")
        browser.app.runScript("/maker == \"FIAT\"<Enter>")
        let plate = try #require(browser.objectTable.columns.firstIndex { $0.id == "numberPlate" })
        browser.objectTable.select(column: plate)
        browser.app.runScript("s")                                   // by number plate
        browser.app.runScript("X")
        #expect(driver.screenLines.last?.contains("Export the 103 Car shown to (.csv or .json): Car.csv") == true, "\(driver.screenLines.last ?? "")")
        let csv = folder.appendingPathComponent("fiat.csv")
        browser.app.runScript("<C-u>\(csv.path)<Enter>")
        #expect(driver.screenLines.last?.contains("Exported 103 rows to \(csv.path)") == true, "\(driver.screenLines.last ?? "")")
        let lines = try String(contentsOf: csv, encoding: .utf8).split(separator: "\n").map(String.init)
        let visible = browser.objectTable.columns.filter { !$0.isHidden }.map(\.id)
        #expect(lines.first == (["@id"] + visible).joined(separator: ","))
        #expect(lines.count == 104)
        let shown = try (0..<103).map { try #require(browser.objects?.arrangedObject(at: $0)) }
        #expect(lines.dropFirst().map { String($0.prefix { $0 != "," }) } == shown.map { $0.objectID.uriRepresentation.absoluteString },
                "the rows in the view's order")

        // The marks, to JSON: only they, as objects with the same keys.
        browser.app.runScript("mmm")
        let marked = shown.filter { browser.marks.contains($0.objectID) }.map { $0.objectID.uriRepresentation.absoluteString }
        #expect(marked.count == 3)
        let json = folder.appendingPathComponent("marked.json")
        browser.app.runScript("X<C-u>\(json.path)<Enter>")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [[String: Any]])
        #expect(rows.map { $0["@id"] as? String } == marked, "the marks, in the view's order")
        #expect(rows.first?["maker"] as? String == "FIAT")
        #expect(Set(rows.first?.keys ?? [:].keys) == Set(["@id"] + visible))
    }

    @Test("with unsaved changes the export writes the rows as shown, changes included; a folder that does not exist exports nothing and says why")
    func exportsUnsavedRows() throws {
        let (browser, driver) = try launch(entity: "Person")
        let folder = try Fixtures.temporaryDirectory("export-view")
        browser.app.runScript("<Enter><C-u>Zed<Enter>")
        let csv = folder.appendingPathComponent("people.csv")
        browser.app.runScript("X<C-u>\(csv.path)<Enter>")
        let text = try String(contentsOf: csv, encoding: .utf8)
        #expect(text.contains(",Zed,"))
        #expect(text.split(separator: "\n").count == 21)
        let nowhere = folder.appendingPathComponent("no/such/people.csv")
        let screen = browser.app.runScript("X<C-u>\(nowhere.path)<Enter>").joined(separator: "\n")
        #expect(screen.contains("Nothing exported"), "\(screen)")
        #expect(!FileManager.default.fileExists(atPath: nowhere.path))
        #expect(driver.screenLines.count > 0)
    }
}

extension BrowserTests {
    @Test("in a to-many relationship followed, A adds the marked objects to it and R takes them out; each one step to undo")
    func marksJoinAndLeaveARelationship() throws {
        let (browser, driver) = try launch(entity: "Person")
        browser.app.runScript("Gllll<Enter>")                     // Ross's 2 cars
        let ross = try #require(browser.objects?.arrangedObject(at: 0)?.object("owner"))
        let others = try browser.context.fetch(FetchRequest(entityName: "Car", predicate: try ObjectPredicate(format: "owner != %@", ross),
                                                            sortDescriptors: [ObjectSortDescriptor(key: "numberPlate")], fetchLimit: 3))
        let formerOwners = others.map { $0.object("owner") }
        browser.marks.mark(others.map(\.objectID))
        browser.app.runScript("A")
        #expect(browser.objects?.arrangedCount == 5, "the three marked cars join Ross's two")
        #expect(others.allSatisfy { $0.object("owner") === ross })
        #expect(driver.screenLines.last?.contains("Added 3 marked Car to Person “Ross” › cars — u undoes") == true, "\(driver.screenLines.last ?? "")")
        browser.app.runScript("A")
        #expect(driver.screenLines.last?.contains("Every marked Car is in Person “Ross” › cars already") == true)

        browser.marks.clear()
        browser.app.runScript("gmR")                              // the first car marked, and taken out
        #expect(browser.objects?.arrangedCount == 4)
        #expect(try browser.context.count(for: FetchRequest(entityName: "Car")) == 125, "taken out, not deleted")
        browser.app.runScript("uu")
        #expect(zip(others, formerOwners).allSatisfy { $0.object("owner") === $1 }, "two undos: back with their owners")
        #expect(browser.objects?.arrangedCount == 2)
    }

    @Test("= on a to-one column gives every marked row the selected row's destination; A outside a relationship says what it is for")
    func setRelationshipOnMarked() throws {
        let (browser, driver) = try launch()
        let owner = try #require(browser.objectTable.columns.firstIndex { $0.id == "owner" })
        browser.objectTable.select(column: owner)
        browser.app.runScript("mmm")
        let marked = browser.marks.objects(in: browser.context)
        browser.app.runScript("j=")
        let chosen = browser.objects?.selectedObjects.first?.object("owner")
        #expect(chosen != nil && marked.allSatisfy { $0.object("owner") === chosen })
        #expect(driver.screenLines.last?.contains("on 3 marked — u undoes") == true, "\(driver.screenLines.last ?? "")")
        browser.app.runScript("A")
        #expect(driver.screenLines.last?.contains("Follow a to-many relationship first") == true)
    }
}

extension BrowserTests {
    @Test("@ lists the entity's saved filters: s saves the filter applied under a name, Enter applies one, d forgets; /@name applies it, Tab completes the name; kept between runs")
    func savedFilters() throws {
        let (browser, driver) = try launch()
        let file = try Fixtures.temporaryDirectory("saved-filters").appendingPathComponent("saved-filters.json")
        browser.savedFilters = SavedFilters(url: file, store: "cars")
        browser.app.runScript("/maker == \"FIAT\"<Enter>")
        browser.app.runScript("@")
        #expect(driver.screenLines.contains { $0.contains("None yet: s saves the filter applied now under a name") })
        browser.app.runScript("sfiat<Enter>")
        assertScreen(browser.app.runScript(""), snapshot: "browser-saved-filters", target: "BrowserTests")
        browser.app.runScript("<Esc>")
        browser.app.runScript("/<C-u><Enter>")
        #expect(browser.objects?.arrangedCount == 125)

        browser.app.runScript("/@fi<Tab>")
        #expect(driver.screenLines.last?.contains("@fiat") == true, "\(driver.screenLines.last ?? "")")
        browser.app.runScript("<Enter>")
        #expect(browser.objects?.arrangedCount == 103)
        #expect(driver.screenLines.last?.contains("filter: maker == \"FIAT\"") == true, "\(driver.screenLines.last ?? "")")
        browser.app.runScript("/<C-u>@nosuch<Enter>")
        #expect(driver.screenLines.last?.contains("No saved filter @nosuch for Car (@ lists them)") == true, "\(driver.screenLines.last ?? "")")
        #expect(browser.objects?.arrangedCount == 103, "the filter stays")

        // Kept by store, for the next run; Enter in the panel applies, d forgets.
        #expect(SavedFilters(url: file, store: "cars").filter(named: "fiat", entity: "Car") == "maker == \"FIAT\"")
        browser.app.runScript("/<C-u><Enter>")
        browser.app.runScript("@<Enter>")
        #expect(browser.objects?.arrangedCount == 103)
        browser.app.runScript("@d<Esc>")
        #expect(SavedFilters(url: file, store: "cars").named(for: "Car").isEmpty)
    }
}

extension BrowserTests {
    @Test("a large delete of marks: what it takes is read from the store in the background, then deleted and saved there; Cancel deletes nothing")
    func largeDeleteOfMarks() throws {
        let (browser, driver) = try launch()
        browser.marks.largeDelete = 10
        browser.app.runScript("/maker == \"FIAT\"<Enter>")
        browser.app.runScript("*")
        browser.app.runScript("d")                                // the preview, read in the background
        assertScreen(driver.screenLines, snapshot: "browser-delete-many-marked", target: "BrowserTests")
        let panel = driver.screenLines.joined(separator: "\n")
        #expect(panel.contains("Delete 103 marked?"), "\(panel)")
        #expect(panel.contains("Deletes 103 Car."))
        #expect(panel.contains("Clears cars of 4 Person (Nullify)."), "the owners of FIATs, counted in SQL")
        #expect(panel.contains("u cannot take it back"))
        browser.app.runScript("<Right><Enter>")                   // Cancel
        #expect(try browser.context.count(for: FetchRequest(entityName: "Car")) == 125)
        browser.app.runScript("d")
        browser.app.runScript("<Enter>")                          // Delete and save, in the background
        #expect(driver.screenLines.last?.contains("Deleted and saved 103 objects") == true, "\(driver.screenLines.last ?? "")")
        #expect(!browser.context.hasChanges)
        #expect(browser.marks.isEmpty)
        #expect(try SQLiteTestRows.count(storeURL, "Car") == 22, "saved")
    }
}
