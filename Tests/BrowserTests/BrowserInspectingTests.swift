import Foundation
import Testing
import ObjectModel
import ObjectGraph
import Predicates
import SQLiteStore
import TerminalUI
import Browser
import TestSupport

/// Values whole (`v`, `E`), nil apart from the empty string (`x`), the model pane (`M`),
/// and going to a row or an object (Ctrl-G).
extension BrowserTests {
    /// The browser on the Company model in memory, showing one Note holding `value`, its
    /// text cell selected.
    func launchOnNote(_ value: ObjectValue) throws -> (BrowserApplication, MemoryDriver, ManagedObject) {
        let (browser, driver, stack) = try launch(model: ModelFixtures.company)
        let note = try stack.context.insertObject(forEntityName: "Note")
        note["text"] = value
        try stack.context.save()
        browser.app.runScript("jjj<Enter>")
        #expect(browser.objects?.entityName == "Note")
        #expect(browser.objectTable.columns[browser.objectTable.state.selectedColumn].id == "text")
        return (browser, driver, note)
    }

    /// A screen with the store's identifier (random for a store in memory) written as zeros,
    /// also where only its end shows (a URI cut from the left).
    func stable(_ lines: [String], _ browser: BrowserApplication) -> [String] {
        guard let id = browser.context.coordinator.stores.first?.identifier else { return lines }
        let zeros = "00000000-0000-0000-0000-000000000000"
        return lines.map { line in
            for length in stride(from: id.count, through: 8, by: -1) where line.contains(id.suffix(length)) {
                return line.replacingOccurrences(of: String(id.suffix(length)), with: String(zeros.suffix(length)))
            }
            return line
        }
    }

    static var shop: URL { Fixtures.packageRoot.appendingPathComponent("Tests/TestSupport/Fixtures/Shop.xcdatamodeld") }

    /// The browser on the Shop model in memory, showing one Product, the cell of `key` selected.
    func launchOnProduct(_ key: String, _ value: ObjectValue) throws -> (BrowserApplication, MemoryDriver) {
        let (browser, driver, stack) = try launch(model: Self.shop)
        let product = try stack.context.insertObject(forEntityName: "Product")
        product["name"] = "Oat milk"
        product[key] = value
        try stack.context.save()
        browser.app.runScript("jj<Enter>")
        #expect(browser.objects?.entityName == "Product")
        let column = try #require(browser.objectTable.columns.firstIndex { $0.id == key })
        browser.objectTable.select(column: column)
        return (browser, driver)
    }

    @Test("v shows a text whole: its line breaks and tabs kept, long lines wrapped; q closes the pane")
    func valuePaneText() throws {
        let long = "Call the plumber about the kitchen tap, which has dripped since Tuesday and now runs all night long.\n"
            + "Then:\n\t- buy washers\n\t- book the van\n\nDone."
        let (browser, driver, _) = try launchOnNote(.string(long))
        assertScreen(stable(browser.app.runScript("v"), browser), snapshot: "browser-value-text", target: "BrowserTests")
        browser.app.runScript("q")
        #expect(!text(driver).contains("Text, "))
        #expect(text(driver).contains("Call the plumber"), "the table is back")
    }

    @Test("v pretty-prints JSON text")
    func valuePaneJSON() throws {
        let json = #"{"order":{"lines":[{"sku":"A-1","qty":2},{"sku":"B-7","qty":1}],"paid":true},"customer":"Ada"}"#
        let (browser, _, _) = try launchOnNote(.string(json))
        assertScreen(stable(browser.app.runScript("v"), browser), snapshot: "browser-value-json", target: "BrowserTests")
    }

    @Test("v shows binary data as hex with its length, naming an image's format and size")
    func valuePaneBinary() throws {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        png += Array("IHDR".utf8) + [0, 0, 0x02, 0x80, 0, 0, 0x01, 0xE0, 8, 6, 0, 0, 0] + Array("IDAT any pixels".utf8)
        let (browser, _) = try launchOnProduct("image", .data(Data(png)))
        assertScreen(stable(browser.app.runScript("v"), browser), snapshot: "browser-value-binary", target: "BrowserTests")
    }

    @Test("v shows a transformable value, a keyed archive, as the objects it holds")
    func valuePaneArchive() throws {
        let root: NSArray = [
            "Oat milk" as NSString, 3 as NSNumber,
            ["aisle": 7 as NSNumber, "tags": ["vegan", "cold"] as NSArray, "page": URL(string: "https://example.com/oat")!] as NSDictionary,
        ]
        let archive = try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false)
        let (browser, _) = try launchOnProduct("extra", .data(archive))
        assertScreen(stable(browser.app.runScript("v"), browser), snapshot: "browser-value-archive", target: "BrowserTests")
    }

    @Test("nil shows as ∅, apart from an empty text; x sets nil where the model allows it, one step to undo")
    func nilApartFromEmpty() throws {
        let (browser, driver, note) = try launchOnNote(.string(""))
        // The table's first row, as the screen shows it.
        func row() -> String {
            let frame = browser.objectTable.absoluteFrame
            return String(driver.screenLines[frame.y + 2].dropFirst(frame.x).prefix(frame.width))
        }
        #expect(row().hasPrefix("        "), "an empty text is blank: \(row())")
        #expect(text(driver).contains(" " + note.objectID.uriRepresentation.absoluteString + " ─"), "the line above the form shows the object's URI")
        browser.app.runScript("x")
        #expect(note["text"] == .null)
        #expect(row().hasPrefix("∅ "), "\(row())")
        #expect(driver.screenLines.last?.contains("text set to nil — u undoes") == true)
        browser.app.runScript("u")
        #expect(note["text"] == .string(""))
        browser.app.runScript("x")
        browser.app.runScript("x")
        #expect(driver.screenLines.last?.contains("text is already nil") == true)
    }

    @Test("x refuses nil for a required attribute, saying so, and changes nothing")
    func nilRefusedWhenRequired() throws {
        let (browser, driver, stack) = try launch(model: ModelFixtures.company)
        let employee = try stack.context.insertObject(forEntityName: "Employee")
        employee["name"] = "Grace"
        try stack.context.save()
        browser.app.runScript("jj<Enter>")
        let column = try #require(browser.objectTable.columns.firstIndex { $0.id == "name" })
        browser.objectTable.select(column: column)
        browser.app.runScript("x")
        #expect(employee["name"] == .string("Grace"))
        #expect(driver.screenLines.last?.contains("name is required: the model does not allow nil") == true)
    }

    @Test("M shows the entity's model: types, options, relationships with inverse and delete rule, what a delete does, templates")
    func modelPane() throws {
        let (browser, _, _) = try launch(model: ModelFixtures.company)
        browser.app.runScript("j")
        #expect(browser.objects?.entityName == "Department")
        assertScreen(browser.app.runScript("M"), snapshot: "browser-model-department", target: "BrowserTests")
        browser.app.runScript("qj")
        #expect(browser.objects?.entityName == "Employee")
        let employee = browser.app.runScript("M").joined(separator: "\n")
        #expect(employee.contains("badge (Cascade): its badge is deleted too"), "\(employee)")
        #expect(employee.contains("department (Nullify): its department stays, without it in its employees"))
        #expect(employee.contains("projects (Nullify): its projects stay, without it in their members"))
        #expect(employee.contains("notes (No Action): its notes are left pointing at nothing"))
        #expect(employee.contains("nickname      String        optional, transient"))
    }

    @Test("Ctrl-G goes to a row number, to a primary key, and to another entity's object by its URI, with the way back")
    func goTo() throws {
        let (browser, driver) = try launch()
        browser.app.runScript("<C-g>40<Enter>")
        #expect(browser.objectTable.state.selectedRow == 39)
        browser.app.runScript("<C-g>500<Enter>")
        #expect(driver.screenLines.last?.contains("No row 500: the table has 125") == true)
        #expect(browser.objectTable.state.selectedRow == 39)

        let person = try #require(try browser.context.fetch(FetchRequest(entityName: "Person")).last)
        browser.app.runScript("<C-g>" + person.objectID.uriRepresentation.absoluteString + "<Enter>")
        #expect(browser.objects?.entityName == "Person")
        #expect(browser.objects?.selectedObjects.first === person)
        #expect(driver.screenLines[1].contains("(1 back)"))
        browser.app.runScript("<BS>")
        #expect(browser.objects?.entityName == "Car")
        #expect(browser.objectTable.state.selectedRow == 39)

        // A car of a sub-entity (a sports car) by its key too, from the table of cars.
        let cars = try #require(browser.objects?.arrangedObjects)
        for row in [7, try #require(cars.firstIndex { $0.entity.name != "Car" })] {
            let key = try #require(cars[row].objectID.primaryKey)
            browser.app.runScript("<C-g>p\(key)<Enter>")
            #expect(browser.objectTable.state.selectedRow == row)
        }
        browser.app.runScript("<C-g>p99999<Enter>")
        #expect(driver.screenLines.last?.contains("No such object in this store: p99999") == true)
        browser.app.runScript("<C-g>somewhere<Enter>")
        #expect(driver.screenLines.last?.contains("Give a row number") == true)
    }

    /// An editor for `E`: a shell script that notes the file it was given, then runs `body`.
    func editorScript(_ body: String) throws -> (script: URL, folder: URL) {
        let folder = try Fixtures.temporaryDirectory("termdata-editor")
        let script = folder.appendingPathComponent("editor.sh")
        try Data("#!/bin/sh\necho \"$1\" > '\(folder.path)/given'\n\(body)\n".utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return (script, folder)
    }

    @Test("E edits a text in $EDITOR, line breaks kept, one step to undo; a failing editor changes nothing; no file stays behind")
    func externalEditor() throws {
        let (browser, driver, note) = try launchOnNote(.string("Buy washers"))
        let editor = try editorScript(#"printf 'Buy washers\nand a new tap\n' > "$1""#)
        browser.environment = ["EDITOR": editor.script.path, "PATH": "/usr/bin:/bin"]
        browser.app.runScript("E")
        #expect(note["text"] == .string("Buy washers\nand a new tap"), "the editor's final line break is not kept")
        #expect(driver.screenLines.last?.contains("text changed in the editor — u undoes") == true)
        let given = try String(contentsOf: editor.folder.appendingPathComponent("given"), encoding: .utf8)
            .trimmingCharacters(in: .newlines)
        #expect(given.hasSuffix("/text.txt"))
        #expect(!FileManager.default.fileExists(atPath: given), "the file the editor had is gone")
        browser.app.runScript("u")
        #expect(note["text"] == .string("Buy washers"))

        let failing = try editorScript(#"printf 'half done' > "$1"; exit 3"#)
        browser.environment["EDITOR"] = failing.script.path
        browser.app.runScript("vE")
        #expect(note["text"] == .string("Buy washers"))
        #expect(driver.screenLines.last?.contains("text not changed: the editor “editor.sh” exited with status 3") == true,
                "\(driver.screenLines.last ?? "")")
    }
}

extension BrowserTests {
    @Test("F counts the column's values in the store, most first, with bars; Enter filters the table to the value")
    func valueCounts() throws {
        let (browser, driver) = try launch()
        let maker = try #require(browser.objectTable.columns.firstIndex { $0.id == "maker" })
        browser.objectTable.select(column: maker)
        assertScreen(browser.app.runScript("F"), snapshot: "browser-value-counts", target: "BrowserTests")

        // The store's GROUP BY agrees with counting the objects one by one.
        let cars = try browser.context.fetch(FetchRequest(entityName: "Car"))
        let byMaker = Dictionary(grouping: cars) { $0["maker"].stringValue ?? "nil" }.mapValues(\.count)
        let counts = try ValueCounts(keyPath: "maker", entityName: "Car", predicate: nil, in: browser.context)
        #expect(counts.total == 125 && !counts.isCut)
        #expect(counts.entries.count == byMaker.count)
        for entry in counts.entries { #expect(byMaker[entry.value.stringValue ?? "nil"] == entry.count, "\(entry)") }
        #expect(counts.entries.map(\.count) == counts.entries.map(\.count).sorted(by: >))

        browser.app.runScript("<Enter>")
        let top = try #require(counts.entries.first)
        #expect(browser.objects?.arrangedCount == top.count)
        #expect(driver.screenLines.last?.contains("filter: maker == \"\(top.value.stringValue ?? "")\"") == true,
                "\(driver.screenLines.last ?? "")")
    }

    @Test("b in the counts counts dates by years, months, weeks, in order with empty ones; Enter filters to the range; then each value again")
    func valueRanges() throws {
        let (browser, driver) = try launch(entity: "Person")
        // Every other month from January 2025, at noon where the user is.
        let people = try browser.context.fetch(FetchRequest(entityName: "Person", sortDescriptors: [ObjectSortDescriptor(key: "lastName")]))
        let noon = try #require(Calendar.current.date(from: DateComponents(year: 2025, month: 1, day: 15, hour: 12)))
        for (i, person) in people.enumerated() {
            person["updatedAt"] = .date(try #require(Calendar.current.date(byAdding: .month, value: 2 * i, to: noon)))
        }
        try browser.context.save()
        let updated = try #require(browser.objectTable.columns.firstIndex { $0.id == "updatedAt" })
        browser.objectTable.select(column: updated)
        #expect(browser.app.runScript("F").last?.hasPrefix("b By year ") == true)
        assertScreen(browser.app.runScript("b"), snapshot: "browser-value-ranges", target: "BrowserTests")
        #expect(driver.screenLines.joined().contains("Values of updatedAt — 4 ranges (by year) in 20 Person"))

        var screen = browser.app.runScript("b")
        #expect(screen.joined(separator: "\n").contains("Values of updatedAt — 39 ranges (by month) in 20 Person"))
        #expect(screen.contains { $0.contains("│2025-01   ") && $0.contains("│        1│   5.0│") })
        #expect(screen.contains { $0.contains("│2025-02   ") && $0.contains("│        0│   0.0│") }, "an empty month is listed")
        screen = browser.app.runScript("b")
        #expect(screen.joined(separator: "\n").contains("ranges (by week) in 20 Person"), "days would be too many: weeks are the last")
        #expect(screen.last?.hasPrefix("b Each value ") == true)
        screen = browser.app.runScript("b")
        #expect(screen.joined(separator: "\n").contains("Values of updatedAt — 20 in 20 Person"))

        // Each step its own script: the count may run in the background, and its panel
        // takes the keys only once it shows.
        browser.app.runScript("<Esc>F")
        browser.app.runScript("b")
        browser.app.runScript("j<Enter>")                  // 2026's people
        #expect(browser.objects?.arrangedCount == 6)
        #expect(driver.screenLines.last?.contains("filter: updatedAt >= CAST(") == true, "\(driver.screenLines.last ?? "")")
    }

    @Test("F on a to-one column counts its destination's names; on a to-many count it says it cannot")
    func valueCountsThroughRelationship() throws {
        let (browser, driver) = try launch(entity: "Person")
        let cars = try #require(browser.objectTable.columns.firstIndex { $0.id == "cars.@count" })
        browser.objectTable.select(column: cars)
        browser.app.runScript("F")
        #expect(driver.screenLines.last?.contains("cannot be counted") == true)
        let (carBrowser, carDriver) = try launch()
        let owner = try #require(carBrowser.objectTable.columns.firstIndex { $0.id == "owner" })
        carBrowser.objectTable.select(column: owner)
        carBrowser.app.runScript("F")
        #expect(carDriver.screenLines.contains { $0.contains("Values of owner.") }, "\(text(carDriver))")
    }
}

extension BrowserTests {
    @Test("Q shows how the store runs the list's fetch: the statement with its values, SQLite's plan, the time and the index to add")
    func explainsTheFetch() throws {
        let (browser, driver) = try launch()
        browser.app.runScript("/maker == \"FIAT\"<Enter>")
        browser.app.runScript("Q")
        let screen = driver.screenLines.joined(separator: "\n")
        #expect(screen.contains("Explain — Car") && screen.contains("How the list of Car is fetched"), "\(screen)")
        #expect(screen.contains("statement  SELECT") && screen.contains("values     \"FIAT\""))
        #expect(screen.contains("plan       SCAN t0"))
        #expect(screen.contains("marking Car.maker indexed"), "\(screen)")
        browser.app.runScript("<Esc>")
        #expect(!driver.screenLines.joined().contains("Explain — Car"))
    }
}

extension BrowserTests {
    @Test("H shows the selected object's history — each change with its time, author and the values it changed, before and after — and its values now")
    func objectHistory() throws {
        let (browser, driver) = try launch(entity: "Person", tracksHistory: true)
        let person = try #require(browser.objects?.selectedObjects.first)
        let name = try #require(person["firstName"].stringValue)
        browser.app.runScript("H")
        #expect(driver.screenLines.joined().contains("No change to it is in the history (it began after)."))
        browser.app.runScript("<Esc><Enter><C-u>Zed<Enter><C-s>")
        let row = try #require(browser.objects?.arrangedIndex(of: person))
        browser.objectTable.select(row: row)
        browser.app.runScript("H")
        let screen = driver.screenLines.joined(separator: "\n")
        #expect(screen.contains("History — Person “Zed”"), "\(screen)")
        #expect(screen.contains("  browser  changed firstName “\(name)” → “Zed”"), "\(screen)")
        #expect(screen.contains("now: ") && screen.contains("firstName=Zed"))
    }
}

extension BrowserTests {
    @Test("L lists the store's transactions, newest first; Enter shows one's changes; r takes one back after showing what it writes; a later change of the same value refuses it; / filters")
    func timeline() throws {
        let (browser, driver) = try launch(entity: "Person", tracksHistory: true)
        let person = try #require(browser.objects?.selectedObjects.first)
        let name = try #require(person["firstName"].stringValue)
        browser.app.runScript("<Enter><C-u>Zed<Enter><C-s>")
        browser.app.runScript("L")
        var screen = text(driver)
        #expect(screen.contains("History — the store's transactions, newest first"), "\(screen)")
        #expect(screen.contains("1 transaction · Enter shows it"))
        #expect(driver.screenLines.contains { $0.contains("│1 ") && $0.contains("browser") && $0.contains("1 changed · Person") }, "\(screen)")

        browser.app.runScript("<Enter>")
        screen = text(driver)
        #expect(screen.contains("Transaction 1"))
        #expect(screen.contains("changed Person “Zed”: firstName (was “\(name)”)"), "\(screen)")

        // Taken back: the dialog says what it writes; the store and the table follow.
        browser.app.runScript("<Esc>r")
        screen = text(driver)
        #expect(screen.contains("Take back transaction 1?"), "\(screen)")
        #expect(screen.contains("restore Person “Zed”: firstName “Zed” → “\(name)”"), "\(screen)")
        browser.app.runScript("<Enter>")
        #expect(try storedFirstNames().contains(name))
        #expect(!(try storedFirstNames()).contains("Zed"))
        #expect(person["firstName"].stringValue == name, "the browser's object follows")
        browser.app.runScript("")
        screen = text(driver)
        #expect(screen.contains("Took back transaction 1 in transaction 2"), "\(screen)")
        #expect(driver.screenLines.contains { $0.contains("│2 ") && $0.contains("termdata revert") }, "\(screen)")

        // The revert changed the name after transaction 1: taking 1 back again is refused.
        browser.app.runScript("jr")
        screen = text(driver)
        #expect(screen.contains("Cannot take back transaction 1"), "\(screen)")
        #expect(screen.contains("Person 1: transaction 2 (termdata revert, revert of") && screen.contains("changed firstName after"), "\(screen)")
        browser.app.runScript("<Esc>/author:browser<Enter>")
        browser.app.runScript("")
        screen = text(driver)
        #expect(screen.contains("1 transaction · filter: author:browser"), "\(screen)")
        #expect(!driver.screenLines.contains { $0.contains("termdata revert") })
    }
}

extension BrowserTests {
    @Test("K checks the store: a sound one says so; a dangling reference is listed with its count, v lists its objects, Enter goes to the first")
    func checkStore() throws {
        let (sound, soundDriver) = try launch()
        sound.app.runScript("K")
        sound.app.runScript("")
        #expect(soundDriver.screenLines.last?.contains("The store is sound") == true, "\(text(soundDriver))")

        SQLiteStore.register()
        let url = try Fixtures.temporaryDirectory("check").appendingPathComponent("Directory.sqlite")
        let coordinator = PersistentStoreCoordinator(model: try ModelFixtures.employeeModel())
        try coordinator.addStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let sales = try context.insertObject(forEntityName: "Department")
        sales["name"] = "Sales"
        for name in ["Ann", "Bob"] {
            let employee = try context.insertObject(forEntityName: "Employee")
            employee["firstName"] = .string(name)
            employee["lastName"] = "Archer"
            employee["salary"] = 10
            try employee.setValue(sales, forKey: "department")
        }
        try context.save()
        context.delete(sales)               // No Action: both still point at Sales
        try context.save()
        context.reset()

        let driver = MemoryDriver(size: Size(width: 120, height: 26))
        let browser = try BrowserApplication(context: context, title: "Directory.sqlite", driver: driver)
        browser.app.runScript("")
        browser.app.runScript("K")
        browser.app.runScript("")
        var screen = text(driver)
        #expect(screen.contains("Store check — what does not hold"), "\(screen)")
        #expect(screen.contains("✗ Employee.department holds the key of a Department that is not in the store"), "\(screen)")
        #expect(driver.screenLines.contains { $0.contains("✗ Employee.department") && $0.contains(" 2│") }, "\(screen)")
        browser.app.runScript("v")
        screen = text(driver)
        #expect(screen.components(separatedBy: "/Employee/p").count == 3, "both employees by URI: \(screen)")
        browser.app.runScript("<Esc><Enter>")
        #expect(browser.objects?.entityName == "Employee")
        #expect(browser.objects?.selectedObjects.first?.objectID.primaryKey == 1, "the first of them")
        #expect(!text(driver).contains("Store check"), "the panel closed")
    }
}

extension BrowserTests {
    @Test("D compares the store with a copy: what changed since, with the values before and now; Enter goes to the object; the same store says so")
    func compareStores() throws {
        let copy = try Fixtures.temporaryDirectory("compare").appendingPathComponent("yesterday.sqlite")
        try FileManager.default.copyItem(at: storeURL, to: copy)
        let (browser, driver) = try launch(entity: "Person")
        browser.app.runScript("D\(copy.path)<Enter>")
        browser.app.runScript("")
        #expect(driver.screenLines.last?.contains("This store holds the same objects as yesterday.sqlite (145 objects)") == true,
                "\(text(driver))")

        let person = try #require(browser.objects?.selectedObjects.first)
        let name = try #require(person["firstName"].stringValue)
        browser.app.runScript("<Enter><C-u>Zed<Enter><C-s>")
        browser.app.runScript("<Home>D\(copy.path)<Enter>")
        browser.app.runScript("")
        let screen = text(driver)
        #expect(screen.contains("0 added · 0 removed · 1 changed since yesterday.sqlite"), "\(screen)")
        #expect(driver.screenLines.contains { $0.contains("~ changed") && $0.contains("Person \(person.objectID.primaryKey!)")
            && $0.contains("firstName “\(name)” → “Zed”") }, "\(screen)")
        browser.app.runScript("<Enter>")
        #expect(browser.objects?.selectedObjects.first === person, "gone to the object")
        #expect(!text(driver).contains("Compared with"))
    }
}
