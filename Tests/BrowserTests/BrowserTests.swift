import Foundation
import Testing
import ObjectModel
import ObjectGraph
import Predicates
import SQLiteStore
import TerminalUI
import Browser
import TestSupport

/// The browser on a store Apple's Core Data wrote (a copy of SampleModel_V1.sqlite: 125 cars
/// of three entities, 20 people), driven by key scripts on the memory driver.
@Suite("Browser")
struct BrowserTests {
    let storeURL: URL

    init() throws {
        storeURL = try Fixtures.copyOfCorpusFile(ModelFixtures.sampleStoreV1)
    }

    /// The entities as the browser lists them.
    static let entities = ["Car", "ExpensiveSportCar", "Person", "SportCar"]

    /// The browser on the store, showing `entity`'s objects with the focus on their table.
    func launch(readOnly: Bool = false, entity: String = "Car", tracksHistory: Bool = false) throws -> (BrowserApplication, MemoryDriver) {
        SQLiteStore.register()
        let coordinator = PersistentStoreCoordinator(model: try ModelFixtures.sampleModel())
        var options = StoreOptions(tracksHistory: tracksHistory)
        options.readOnly = readOnly
        try coordinator.addStore(type: .sqlite, at: storeURL, options: options)
        let driver = MemoryDriver(size: Size(width: 150, height: 30))
        let browser = try BrowserApplication(context: ManagedObjectContext(coordinator: coordinator), title: "SampleModel_V1.sqlite",
                                             driver: driver, isReadOnly: readOnly)
        browser.app.runScript("")
        let index = try #require(Self.entities.firstIndex(of: entity))
        if index > 0 {
            browser.app.runScript("<Tab><Tab>" + String(repeating: "j", count: index) + "<Enter>")
        }
        #expect(browser.objects?.entityName == entity)
        #expect(browser.objectTable.hasFocus)
        return (browser, driver)
    }

    /// The browser on an empty in-memory store of another model.
    func launch(model: URL, width: Int = 100, height: Int = 30) throws -> (BrowserApplication, MemoryDriver, TestStack) {
        let stack = try TestStack(model: try XcodeModelFile.read(model).current)
        let driver = MemoryDriver(size: Size(width: width, height: height))
        let browser = try BrowserApplication(context: stack.context, title: model.lastPathComponent, driver: driver)
        browser.app.runScript("")
        return (browser, driver, stack)
    }

    func text(_ driver: MemoryDriver) -> String { driver.screenLines.joined(separator: "\n") }

    /// The people's first names as the file holds them, read by another stack.
    func storedFirstNames() throws -> [String] {
        try SQLiteTestRows.firstNames(storeURL)
    }

    @Test("with history on, people another program adds, renames and deletes show in place; the count follows")
    func followsOtherWriters() throws {
        SQLiteStore.register()
        let coordinator = PersistentStoreCoordinator(model: try ModelFixtures.sampleModel())
        try coordinator.addStore(type: .sqlite, at: storeURL, options: StoreOptions(tracksHistory: true))
        let driver = MemoryDriver(size: Size(width: 150, height: 30))
        let browser = try BrowserApplication(context: ManagedObjectContext(coordinator: coordinator), title: "SampleModel_V1.sqlite", driver: driver)
        browser.app.runScript("<Tab><Tab>jj<Enter>")
        #expect(browser.objects?.entityName == "Person")
        #expect(browser.live?.isFollowing == true)
        func mergeWhenNoticed() throws -> String {
            let live = try #require(browser.live)
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if case .needsRedraw = live.mergeIfChanged() { break }
                Thread.sleep(forTimeInterval: 0.02)
            }
            browser.app.runScript("")
            return text(driver)
        }

        let other = PersistentStoreCoordinator(model: try ModelFixtures.sampleModel())
        try other.addStore(type: .sqlite, at: storeURL)
        let writer = ManagedObjectContext(coordinator: other)
        writer.transactionAuthor = "sync"
        let zed = try writer.insertObject(forEntityName: "Person")
        zed["firstName"] = "Aaron-Zed"
        zed["id"] = .uuid(UUID())
        zed["updatedAt"] = .date(Date())
        try writer.save()
        func names() -> [String] { (browser.objects?.arrangedObjects ?? []).compactMap { $0.string("firstName") } }
        var screen = try mergeWhenNoticed()
        #expect(names().contains("Aaron-Zed"))
        #expect(screen.contains("Updated by sync: 1 added"))
        #expect(screen.contains("21 Person · saved"))
        #expect(screen.contains("│Person                   │     21│"), "the entity list's count follows")

        zed["firstName"] = "Aaron-Renamed"
        try writer.save()
        screen = try mergeWhenNoticed()
        #expect(names().contains("Aaron-Renamed") && !names().contains("Aaron-Zed"))
        #expect(screen.contains("Updated by sync: 1 changed"))

        writer.delete(zed)
        try writer.save()
        screen = try mergeWhenNoticed()
        #expect(!names().contains { $0.hasPrefix("Aaron-") })
        #expect(screen.contains("Updated by sync: 1 removed"))
        #expect(screen.contains("20 Person · saved"))
    }

    @Test("with no objects to show, the browser starts in the entity list, where j picks the next entity")
    func startsInEntityListWhenEmpty() throws {
        let (browser, driver, _) = try launch(model: ModelFixtures.company)
        #expect(driver.screenLines.last?.hasSuffix("0 Badge · saved") == true, "\(driver.screenLines.last ?? "")")
        browser.app.runScript("j")
        #expect(driver.screenLines.last?.hasSuffix("0 Department · saved") == true, "\(driver.screenLines.last ?? "")")
    }

    @Test("the first text column takes the width the table has to spare: a long name shows whole, not cut beside a blank")
    func nameTakesSpareWidth() throws {
        let (browser, driver, stack) = try launch(model: ModelFixtures.toDo, width: 120)
        let long = "Renew the passport before the summer trip abroad"
        let category = try stack.context.insertObject(forEntityName: "Category")
        category["name"] = .string(long)
        try stack.context.save()
        browser.app.runScript("<Enter>")
        let row = try #require(driver.screenLines.first { $0.contains("Renew the passport") })
        #expect(row.contains(long), "\(row)")
        // The name column ends where the table does, not in a blank column.
        #expect(row.hasSuffix("│") && !row.contains("│ │"))
    }

    @Test("the entities are listed with their counts, and the first one's objects and form are shown")
    func firstScreen() throws {
        let (browser, driver) = try launch()
        let screen = text(driver)
        #expect(screen.contains("│Car                      │    125│∅           │FIAT"), "\(screen)")
        #expect(screen.contains("│ExpensiveSportCar        │      5│"))
        #expect(screen.contains("│Person                   │     20│"))
        #expect(screen.contains("│SportCar                 │     10│"))
        #expect(screen.contains("maker: FIAT"), "the form shows the selected object")
        #expect(screen.contains("owner →: Theodora"))
        #expect(driver.screenLines.last?.hasSuffix("125 Car · saved") == true)
        #expect(browser.objects?.arrangedCount == 125)
    }

    @Test("whole screens: the entity list, objects and form; a followed relationship; the way back")
    func wholeScreens() throws {
        // The people's updatedAt, kept in the snapshots as UTC shows it, as this machine shows it.
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let updated = utc.date(from: DateComponents(year: 2021, month: 4, day: 7, hour: 15, minute: 52))!
        let local = Calendar.current.dateComponents([.year, .month, .day, .hour, .minute], from: updated)
        let shown = String(format: "%04d-%02d-%02d %02d:%02d", local.year!, local.month!, local.day!, local.hour!, local.minute!)
        let times = [("2021-04-07 15:52", shown)]
        let (browser, driver) = try launch(entity: "SportCar")
        assertScreen(driver.screenLines, snapshot: "browser-sportcars", target: "BrowserTests")
        assertScreen(browser.app.runScript("jlllll<Enter>"), snapshot: "browser-followed-owner", target: "BrowserTests", replacing: times)
        assertScreen(browser.app.runScript("<BS>"), snapshot: "browser-back", target: "BrowserTests")
        assertScreen(browser.app.runScript("<Tab><Tab>k"), snapshot: "browser-entity-list", target: "BrowserTests", replacing: times)
    }

    @Test("Enter on a to-many cell shows the objects it holds; Backspace comes back to the same object")
    func followToMany() throws {
        let (browser, driver) = try launch(entity: "Person")
        let theodora = try #require(driver.screenLines.first { $0.contains("│Theodora ") })
        #expect(theodora.hasSuffix("│   100│"), "each row counts its own cars, and the names take the spare width: \(theodora)")
        browser.app.runScript("Gllll<Enter>")             // Ross, the last person, and his cars
        #expect(browser.objects?.arrangedCount == 2)
        #expect(driver.screenLines.last?.contains("2 Car · Person “Ross” › cars") == true, "\(driver.screenLines.last ?? "")")
        #expect(browser.objects?.arrangedObjects.allSatisfy { $0.object("owner")?.string("lastName") == "Hurowitz" } == true)
        browser.app.runScript("<BS>")
        #expect(browser.objects?.arrangedCount == 20)
        #expect(browser.objects?.selectedObjects.first?.string("firstName") == "Ross", "back where it was")
        #expect(text(driver).contains("firstName: Ross"))
    }

    @Test("a filter within a followed relationship is read in the background, the owner named by its ID, and keeps the scope")
    func filterWithinFollowedList() throws {
        let (browser, driver) = try launch(entity: "Person")
        let row = try #require(browser.objects?.arrangedObjects.firstIndex { $0.string("firstName") == "Theodora" })
        browser.app.runScript("g" + String(repeating: "j", count: row) + "llll<Enter>")   // Theodora's 100 cars
        #expect(browser.objects?.arrangedCount == 100)
        let scope = try #require(browser.objects?.fetchPredicate)
        let all = try #require(browser.objects?.arrangedObjects)
        let expected = all.filter { ($0.string("numberPlate") ?? "").contains("5") }.count
        #expect(expected > 0 && expected < 100)
        browser.app.runScript("/numberPlate CONTAINS '5'<Enter>", waitingForWork: false)
        // Read on the background context, the owner object given as its ID.
        browser.app.waitForWork()
        #expect(browser.objects?.arrangedCount == expected, "\(driver.screenLines.last ?? "")")
        #expect(browser.objects?.arrangedObjects.allSatisfy { $0.object("owner")?.string("firstName") == "Theodora" } == true)
        #expect(browser.objects?.fetchPredicate == scope, "the scope as it was")
        #expect(driver.screenLines.last?.contains("filter: numberPlate CONTAINS '5'") == true, "\(driver.screenLines.last ?? "")")
    }

    @Test("Enter on a to-one cell goes to its destination, selected; f does the same from the form")
    func followToOne() throws {
        let (browser, driver) = try launch(entity: "SportCar")
        browser.app.runScript("j")                              // Maserati 202, owned by Gavin
        let expected = try #require(browser.objects?.selectedObjects.first?.object("owner"))
        browser.app.runScript("lllll<Enter>")                   // across to the owner column
        let owner = try #require(browser.objects?.selectedObjects.first)
        #expect(owner === expected)
        #expect(owner.string("firstName") == "Gavin")
        #expect(browser.objects?.arrangedCount == 20, "all people, the owner among them")
        #expect(text(driver).contains("(1 back)"))
        #expect(text(driver).contains("firstName: Gavin"))
        browser.app.runScript("<BS>")
        #expect(browser.objects?.arrangedCount == 10)
        let column = browser.objectTable.state.selectedColumn
        #expect(browser.objectTable.columns[column].id == "owner", "back on the column it was followed from")
        // In the form: the relationship field (the last), then f; Backspace comes back to that field.
        browser.app.runScript("<Tab>Gf")
        #expect(browser.objects?.selectedObjects.first?.entity.name == "Person")
        browser.app.runScript("<BS>")
        #expect(browser.objects?.entityName == "SportCar")
        #expect(!browser.objectTable.hasFocus, "the form has the focus again")
        let list = browser.app.runScript("<Enter>")
        #expect(list.contains { $0.contains("Juliana") }, "Enter on the owner field lists the people")
        #expect(browser.objects?.entityName == "SportCar", "a list to choose from, not another follow")
        browser.app.runScript("<Esc>")
    }

    @Test("a to-one left behind by a No Action delete shows the object as deleted, then missing once saved; f stays put")
    func danglingToOne() throws {
        SQLiteStore.register()
        let model = try ModelFixtures.employeeModel()
        let url = try Fixtures.temporaryDirectory("dangling").appendingPathComponent("Directory.sqlite")
        func openContext() throws -> ManagedObjectContext {
            let coordinator = PersistentStoreCoordinator(model: model)
            try coordinator.addStore(type: .sqlite, at: url)
            return ManagedObjectContext(coordinator: coordinator)
        }
        let context = try openContext()
        let sales = try context.insertObject(forEntityName: "Department")
        sales["name"] = "Sales"
        let ann = try context.insertObject(forEntityName: "Employee")
        ann["firstName"] = "Ann"
        ann["lastName"] = "Archer"
        ann["salary"] = 10
        try ann.setValue(sales, forKey: "department")
        try context.save()
        context.delete(sales)               // No Action: Ann still points at Sales

        func browse(_ context: ManagedObjectContext) throws -> (BrowserApplication, MemoryDriver) {
            let driver = MemoryDriver(size: Size(width: 100, height: 24))
            let browser = try BrowserApplication(context: context, title: "Directory.sqlite", driver: driver)
            browser.app.runScript("")
            browser.app.runScript("<Home>jj<Tab>llll")  // Employee, its department column
            #expect(browser.objects?.entityName == "Employee")
            return (browser, driver)
        }
        var (browser, driver) = try browse(context)
        #expect(text(driver).contains("department →: Sales (deleted)"), "\(text(driver))")
        browser.app.runScript("f")
        #expect(browser.objects?.entityName == "Employee", "nothing to follow to")
        #expect(text(driver).contains("department of Ann leads to Sales (deleted)"))

        try context.save()
        (browser, driver) = try browse(context)
        #expect(text(driver).contains("department →: Department 1 (missing)"),
                "once saved, named as a reference met for the first time would be: \(text(driver))")
        (browser, driver) = try browse(try openContext())
        #expect(text(driver).contains("department →: Department 1 (missing)"), "\(text(driver))")
        browser.app.runScript("f")
        #expect(browser.objects?.entityName == "Employee", "the missing row is not replaced by another department")
        #expect(text(driver).contains("leads to Department 1, which is no longer in the store"))
    }

    @Test("in the form, Enter on a to-one chooses its destination from a list; f still follows")
    func chooseToOne() throws {
        let (browser, driver) = try launch()
        browser.app.runScript("aYugo<Enter>")                 // one added at the top level has no owner
        let added = try #require(browser.objects?.selectedObjects.first)
        #expect(added.string("maker") == "Yugo" && added.object("owner") == nil)
        let list = browser.app.runScript("<Tab>G<Enter>")
        #expect(list.contains { $0.contains("Alex") }, "the people to choose from: \(list.joined(separator: "\n"))")
        #expect(list.contains { $0.contains("Bishop") })
        // The list is sorted by name: "Alex" comes first after the empty choice.
        browser.app.runScript("<Down><Enter>")
        #expect(added.object("owner")?.string("firstName") == "Alex")
        #expect(text(driver).contains("owner →: Alex"))
        #expect(added.object("owner")?.objects("cars").contains(added) == true, "the inverse follows")
        browser.app.runScript("f")
        #expect(browser.objects?.selectedObjects.first?.string("lastName") == "Rathbun")
    }

    @Test("an object added in a followed list belongs to its owner; the views left behind are freed")
    func addInFollowedList() throws {
        let (browser, _) = try launch(entity: "Person")
        weak let people = browser.objects
        browser.app.runScript("Gllll<Enter>")             // Ross's 2 cars
        #expect(people == nil, "the previous controller (and its table) went away")
        browser.app.runScript("aLancia<Enter>")
        #expect(browser.objects?.arrangedCount == 3)
        let added = try #require(browser.objects?.selectedObjects.first)
        #expect(added.string("maker") == "Lancia")
        #expect(added.object("owner")?.string("firstName") == "Ross")
    }

    @Test("a filter the store cannot run leaves the objects and the place as they were")
    func failedFilter() throws {
        let (browser, driver) = try launch()
        browser.app.runScript("/owner.nosuch == 1<Enter>")
        #expect(browser.objects?.arrangedCount == 125)
        #expect(browser.objects?.entityName == "Car")
        #expect(!text(driver).contains("filter: owner.nosuch"))
    }

    @Test("a save the model refuses lists each problem by object and key, and shows them under the fields")
    func saveProblems() throws {
        let (browser, driver, stack) = try launch(model: ModelFixtures.employeeDirectory, width: 110, height: 40)
        browser.app.runScript("jj<Enter>")                  // an empty store starts in the entity list
        #expect(browser.objects?.entityName == "Employee")
        browser.app.runScript("at<Enter><C-s>")          // a birth date only: the names are missing
        let dialog = text(driver)
        #expect(dialog.contains("Could not save"), "\(dialog)")
        #expect(dialog.contains("new Employee: firstName is required"), "\(dialog)")
        #expect(dialog.contains("new Employee: lastName is required"))
        #expect(!dialog.contains("x-coredata"), "no internal object IDs")
        browser.app.runScript("<Enter>")
        let form = text(driver)
        #expect(form.contains("⚠ firstName is required"), "\(form)")
        #expect(stack.context.hasChanges, "the new object stays, unsaved")
        // An edit the model's rules refuse names the rule, not the object.
        let salary = try #require(browser.objectTable.columns.firstIndex { $0.id == "salary" })
        browser.objectTable.select(column: salary)
        let refused = browser.app.runScript("<Enter><C-u>-5<Enter>").joined(separator: "\n")
        #expect(refused.contains("⚠ salary is smaller than the minimum 0"), "\(refused)")
    }

    @Test("an entity without properties leaves the frame alone: no 'No object selected' on its border")
    func entityWithoutProperties() throws {
        let (browser, driver, _) = try launch(model: ModelFixtures.allFeatures)
        #expect(browser.objects?.entityName == "AbstractEntity")
        let border = try #require(driver.screenLines.last { $0.hasPrefix("└") })
        #expect(!border.contains("No object selected"), "\(border)")
        #expect(border.hasSuffix("─┘"))
    }

    @Test("Esc on a new object's first edit takes the object back")
    func escapeNewObject() throws {
        let (browser, _) = try launch()
        browser.app.runScript("a<Esc>")
        #expect(browser.objects?.arrangedCount == 125)
        #expect(!browser.context.hasChanges)
        browser.app.runScript("aZ<Enter>")
        #expect(browser.objects?.arrangedCount == 126)
    }

    @Test("plain words each match some text attribute, in any order")
    func filterWords() throws {
        let (browser, _) = try launch()
        browser.app.runScript("/204 aventador<Enter>")
        #expect(browser.objects?.arrangedObjects.compactMap { $0.string("numberPlate") } == ["204"])
        browser.app.runScript("/<C-u>giuli alfa<Enter>")
        #expect(Set(browser.objects?.arrangedObjects.compactMap { $0.string("model") } ?? []) == ["Giulia", "Giulietta"])
    }

    @Test("an edit shows at once and in a filter; q asks, and Discard leaves the store as it was")
    func editFilterAndDiscard() throws {
        let (browser, driver) = try launch(entity: "Person")
        browser.app.runScript("<Enter><C-u>Vicky<Enter>")
        #expect(driver.screenLines.last?.contains("1 unsaved change") == true)
        browser.app.runScript("/vicky<Enter>")
        #expect(browser.objects?.arrangedCount == 1)
        #expect(text(driver).contains("filter: vicky"))
        browser.app.runScript("q")
        #expect(text(driver).contains("Save 1 unsaved change before quitting?"))
        browser.app.runScript("<Right><Enter>")
        #expect(browser.app.isQuitting)
        #expect(try storedFirstNames().filter { $0 == "Victoria" }.count == 2)
        #expect(try !storedFirstNames().contains("Vicky"))
    }

    @Test("Save and quit over an object another window saved asks whose values win, then quits")
    func conflictOnSaveAndQuit() throws {
        let (browser, driver) = try launch(entity: "Person")
        let id = try #require(browser.objects?.selectedObjects.first?.objectID)
        do {
            // Another window on the same file renames the same person and saves.
            let coordinator = PersistentStoreCoordinator(model: try ModelFixtures.sampleModel())
            try coordinator.addStore(type: .sqlite, at: storeURL)
            let other = ManagedObjectContext(coordinator: coordinator)
            try other.existingObject(with: id).setValue("Theirs", forKey: "firstName")
            try other.save()
        }
        browser.app.runScript("<Enter><C-u>Vicky<Enter>q")
        #expect(text(driver).contains("Save 1 unsaved change before quitting?"))
        browser.app.runScript("<Enter>")
        #expect(text(driver).contains("Changed elsewhere"))
        #expect(text(driver).contains("Person “Vicky”"), "\(text(driver))")
        #expect(!browser.app.isQuitting)
        browser.app.runScript("<Enter>")   // Keep mine
        #expect(browser.app.isQuitting)
        #expect(try storedFirstNames().contains("Vicky"))
        #expect(try !storedFirstNames().contains("Theirs"))
    }

    @Test("Ctrl-S saves an edit to the file; a bad filter shows its caret and keeps the objects")
    func saveAndBadFilter() throws {
        let (browser, driver) = try launch(entity: "Person")
        browser.app.runScript("<Enter><C-u>Vicky<Enter><C-s>")
        #expect(driver.screenLines.last?.hasSuffix("20 Person · saved") == true)
        #expect(try storedFirstNames().contains("Vicky"))
        browser.app.runScript("/firstName ==<Enter>")
        #expect(text(driver).contains("Filter not applied"))
        #expect(text(driver).contains("^"))
        browser.app.runScript("<Esc>")
        #expect(browser.objects?.arrangedCount == 20)
    }

    @Test("read-only: adding is refused, and the file is left byte for byte as it was")
    func readOnly() throws {
        let before = try Data(contentsOf: storeURL)
        let (browser, driver) = try launch(readOnly: true)
        let hints = driver.screenLines.last ?? ""
        for offered in ["a Add", "d Delete", "Enter Edit", "u Undo", "Save"] {
            #expect(!hints.contains(offered), "read-only: \(offered) is not offered: \(hints)")
        }
        #expect(hints.contains("/ Filter"))
        browser.app.runScript("a")
        #expect(text(driver).contains("The store is open read-only"))
        browser.app.runScript("<Esc>")
        browser.app.perform("browser.import")
        browser.app.runScript("")
        #expect(text(driver).contains("The store is open read-only"), "nothing is imported into a read-only store")
        #expect(browser.app.keyWindow?.title != "Import graph JSON from: ")
        browser.app.runScript("<Enter>")
        #expect(!browser.objectTable.state.isEditing, "cells do not open for editing")
        #expect(!browser.context.hasChanges)
        #expect(browser.objects?.arrangedCount == 125)
        #expect(driver.screenLines.last?.contains("read-only") == true)
        browser.app.runScript("q")
        #expect(browser.app.isQuitting)
        #expect(try Data(contentsOf: storeURL) == before)
        let folder = try FileManager.default.contentsOfDirectory(atPath: storeURL.deletingLastPathComponent().path)
        #expect(folder == [storeURL.lastPathComponent], "no -wal or -shm file beside a WAL-mode store opened read-only")
    }
}

/// Rows read straight from the file, outside the stack under test.
enum SQLiteTestRows {
    /// Every person's first name in a copy of SampleModel_V1.sqlite.
    static func firstNames(_ url: URL) throws -> [String] {
        try reading(url) { try $0.fetch(FetchRequest(entityName: "Person")).compactMap { $0.string("firstName") } }
    }

    /// How many objects of an entity (its sub-entities included) the file holds.
    static func count(_ url: URL, _ entity: String) throws -> Int {
        try reading(url) { try $0.count(for: FetchRequest(entityName: entity)) }
    }

    /// A read of the file through a stack of its own, opened read-only.
    private static func reading<T>(_ url: URL, _ body: (ManagedObjectContext) throws -> T) throws -> T {
        SQLiteStore.register()
        let coordinator = PersistentStoreCoordinator(model: try ModelFixtures.sampleModel())
        var options = StoreOptions()
        options.readOnly = true
        try coordinator.addStore(type: .sqlite, at: url, options: options)
        let context = ManagedObjectContext(coordinator: coordinator)
        return try withExtendedLifetime(context) { try body(context) }
    }
}
