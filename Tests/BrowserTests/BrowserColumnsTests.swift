import Foundation
import Testing
import ObjectGraph
import Predicates
import TerminalUI
import Browser
import TestSupport

/// Columns by key path (`C`), sorted in the store's SQL, and taken away again (`-`).
extension BrowserTests {
    @Test("C adds a column through a to-one relationship; s sorts the table by it in SQL; - takes it away")
    func keyPathColumn() throws {
        let (browser, driver) = try launch(entity: "SportCar")
        browser.app.runScript("Cowner.lastName<Enter>")
        let column = try #require(browser.objectTable.columns.firstIndex { $0.id == "owner.lastName" })
        #expect(browser.objectTable.state.selectedColumn == column)
        #expect(browser.objectTable.columns[column].isSortable)
        browser.app.runScript("s")
        let names = (browser.objects?.arrangedObjects ?? []).map { $0.object("owner")?.string("lastName") }
        let present = names.compactMap { $0 }
        #expect(names.prefix(names.count - present.count).allSatisfy { $0 == nil }, "cars without an owner first: \(names)")
        #expect(present == present.sorted { $0.localizedCaseInsensitiveCompare($1) == .orderedAscending }, "as text sorts: \(names)")
        #expect(browser.objects?.sortDescriptors.first?.key == "owner.lastName")
        assertScreen(browser.app.runScript(""), snapshot: "browser-keypath-column", target: "BrowserTests")

        // Kept for the entity while the browser runs: away to people and back, it is there.
        browser.app.runScript("<Tab><Tab>k<Enter>")
        #expect(browser.objects?.entityName == "Person")
        browser.app.runScript("<Tab><Tab>j<Enter>")
        #expect(browser.objects?.entityName == "SportCar")
        #expect(browser.objectTable.columns.contains { $0.id == "owner.lastName" })
        let again = try #require(browser.objectTable.columns.firstIndex { $0.id == "owner.lastName" })
        browser.objectTable.select(column: again)
        browser.app.runScript("-")
        #expect(!browser.objectTable.columns.contains { $0.id == "owner.lastName" })
        #expect(driver.screenLines.last?.contains("Took the column owner.lastName away") == true)
    }

    @Test("S sorts ties by a second column, in SQL; the header numbers both keys, and they are there on coming back")
    func severalSortKeys() throws {
        let (browser, _) = try launch(entity: "SportCar")
        browser.app.runScript("Cowner.lastName<Enter>s")
        let model = try #require(browser.objectTable.columns.firstIndex { $0.id == "model" })
        browser.objectTable.select(column: model)
        let screen = browser.app.runScript("S")
        #expect(browser.objects?.sortDescriptors.map(\.key) == ["owner.lastName", "model"])
        let rows = (browser.objects?.arrangedObjects ?? []).map { ($0.object("owner")?.string("lastName") ?? "", $0.string("model") ?? "") }
        #expect(rows.map { "\($0.0) \($0.1)" } == rows.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map { "\($0.0) \($0.1)" },
                "by owner, then by model: \(rows)")
        #expect(rows.contains { $0 == ("Pyke", "AMG GT S") } && rows.contains { $0 == ("Pyke", "GranTurismo MC") })
        #expect(screen[2].contains("│model ▲2 "), "the second key, numbered: \(screen[2])")
        #expect(browser.objectTable.state.sortKeys.map(\.column) == ["owner.lastName", "model"])

        let owner = try #require(browser.objectTable.columns.firstIndex { $0.id == "owner" })
        browser.objectTable.select(column: owner)
        browser.app.runScript("f")
        #expect(browser.objects?.entityName == "Person")
        browser.app.runScript("<Backspace>")
        #expect(browser.objects?.entityName == "SportCar")
        #expect(browser.objectTable.state.sortKeys.map(\.column) == ["owner.lastName", "model"])
        #expect(browser.objects?.sortDescriptors.map(\.key) == ["owner.lastName", "model"])
    }

    @Test("C adds a to-many aggregate column (@max of an attribute), not sortable; a column shown already is selected instead")
    func aggregateColumn() throws {
        let (browser, driver) = try launch(entity: "Person")
        browser.app.runScript("Ccars.@count<Enter>")
        #expect(driver.screenLines.last?.contains("cars.@count is shown already") == true)
        #expect(browser.objectTable.columns[browser.objectTable.state.selectedColumn].id == "cars.@count")
        browser.app.runScript("Ccars.@max.numberPlate<Enter>")
        let column = try #require(browser.objectTable.columns.first { $0.id == "cars.@max.numberPlate" })
        #expect(!column.isSortable)
        #expect(browser.objectTable.columns[browser.objectTable.state.selectedColumn].id == "cars.@max.numberPlate")
        // Theodora's hundred cars have plates up to 99 (as text), read for her row alone.
        let theodora = try #require(browser.objects?.arrangedObjects.first { $0.string("firstName") == "Theodora" })
        let plates = theodora.objects("cars").compactMap { $0.string("numberPlate") }
        let row = try #require(browser.objects?.arrangedIndex(of: theodora))
        #expect(browser.objectTable.dataSource.value(row: row, column: "cars.@max.numberPlate") == .text(plates.max() ?? "?"))
        #expect(plates.count == 100)
    }

    @Test("a key path that cannot be a column is refused, saying why, and the table stays as it was")
    func refusedColumns() throws {
        let (browser, driver) = try launch()
        let before = browser.objectTable.columns.map(\.id)
        for (path, reason) in [
            ("owner.cars", "cars holds many Car objects: follow it with @count, or @max, @min, @sum or @avg and an attribute"),
            ("owner.cars.@max", "@max needs one of Car's attributes after it"),
            ("ownr.lastName", "ownr"),
            ("maker.length", "maker is an attribute of Car: nothing follows it in a key path"),
        ] {
            browser.app.runScript("C\(path)<Enter>")
            guard let dialog = browser.app.keyWindow as? Dialog else {
                Issue.record("no dialog for \(path); the status line: \(driver.screenLines.last ?? "")")
                continue
            }
            #expect(dialog.title == "Column not added")
            #expect(dialog.message.contains(reason), "\(path): \(dialog.message)")
            browser.app.runScript("<Enter>")
            #expect(browser.objectTable.columns.map(\.id) == before)
        }
    }
}

extension BrowserTests {
    @Test("T runs the model's fetch request template, asking for its $NAME; Backspace comes back")
    func runsTemplate() throws {
        let (browser, driver, stack) = try launch(model: ModelFixtures.company)
        for name in ["Ada", "Grace", "Ada"] {
            let employee = try stack.context.insertObject(forEntityName: "Employee")
            employee["name"] = .string(name)
        }
        try stack.context.save()
        browser.app.runScript("T")
        #expect(driver.screenLines.last?.contains("EmployeesNamed where name == $NAME: $NAME =") == true, "\(driver.screenLines.last ?? "")")
        browser.app.runScript("Ada<Enter>")
        #expect(browser.objects?.entityName == "Employee")
        #expect(browser.objects?.arrangedCount == 2)
        #expect(text(driver).contains("filter: name == \"Ada\""), "\(text(driver))")
        browser.app.runScript("<BS>")
        #expect(browser.objects?.entityName == "Badge")
    }
}
