import Foundation
import Testing
import ObjectGraph
import Predicates
import TerminalUI
import Browser
import TestSupport
import AppShell

/// Whole screens of the panels that say what will happen before it does: the delete panel
/// over the company model's rules, and the filter line's history and completion.
extension BrowserTests {
    /// The browser on the company fixture in memory (a badge for Bob besides), on Department.
    func launchCompany() throws -> (BrowserApplication, MemoryDriver, TestStack) {
        let stack = try TestStack(model: try ModelFixtures.companyModel())
        try CompanyFixture.fill(stack.context)
        try CompanyFixture.addBadge(for: "Bob", in: stack.context)
        let driver = MemoryDriver(size: Size(width: 100, height: 36))
        let browser = try BrowserApplication(context: stack.context, title: "Company", driver: driver)
        browser.app.runScript("<Tab><Tab>j<Enter>")                  // Badge, then Department
        #expect(browser.objects?.entityName == "Department")
        return (browser, driver, stack)
    }

    /// The store's UUID, in the URIs on screen, as the snapshots hold it.
    func storeID(_ stack: TestStack) -> [(String, String)] {
        [("00000000-0000-0000-0000-000000000000", stack.coordinator.stores[0].identifier)]
    }

    @Test("the delete panel: Cascade over two levels (employees, then their badges), Nullify, No Action; then a Deny that refuses, naming the object")
    func deletePanelScreens() throws {
        let (browser, _, stack) = try launchCompany()
        let sales = try #require(browser.objects?.arrangedObjects.firstIndex { $0.string("name") == "Sales" })
        browser.objectTable.select(row: sales)
        assertScreen(browser.app.runScript("d"), snapshot: "browser-delete-cascade", target: "BrowserTests", replacing: storeID(stack))
        browser.app.runScript("<Esc>")
        let engineering = try #require(browser.objects?.arrangedObjects.firstIndex { $0.string("name") == "Engineering" })
        browser.objectTable.select(row: engineering)
        assertScreen(browser.app.runScript("d"), snapshot: "browser-delete-denied", target: "BrowserTests", replacing: storeID(stack))
        browser.app.runScript("<Enter>")
        #expect(!stack.context.hasChanges, "refused: nothing deleted")
    }

    @Test("the filter line: ↑ brings back an earlier filter; Tab completes a key path and lists the candidates")
    func filterLineScreens() throws {
        let (browser, _, stack) = try launchCompany()
        browser.app.runScript("/name BEGINSWITH \"S\"<Enter>")
        browser.app.runScript("/<C-u>budget > 10<Enter>")
        assertScreen(browser.app.runScript("/<C-u><Up><Up>"), snapshot: "browser-filter-history", target: "BrowserTests", replacing: storeID(stack))
        assertScreen(browser.app.runScript("<C-u>employees.na<Tab> == \"Ada\" OR b<Tab>"), snapshot: "browser-filter-completion",
                     target: "BrowserTests", replacing: storeID(stack))
    }
}
