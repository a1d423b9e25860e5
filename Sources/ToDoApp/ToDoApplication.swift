import Foundation
import AppShell
import Bindings
import ObjectGraph
import ObjectModel
import Predicates
import TerminalBindings
import TerminalUI

/// The versioning article's ToDo application in the terminal: a master/detail window of
/// items, a floating category panel, alerts for items coming due, and save on quit.
///
/// ```swift
/// let store = try ToDoStore.open(at: ToDoStore.defaultURL(), type: .sqlite)
/// let todo = try ToDoApplication(store: store, driver: CursesDriver())
/// try todo.run()
/// ```
public final class ToDoApplication {
    public let app: Application
    public let store: ToDoStore
    public var context: ManagedObjectContext { store.context }
    /// The ToDo store is always open for changes.
    package var isReadOnly: Bool { false }
    /// The clock alerts use; tests set it.
    public var now: () -> Date
    public let alerts = DueItemAlerts()

    public let items: ArrayController
    public let detail: ObjectController
    let itemsSource: ArrayControllerTableSource
    public let mainWindow: Window
    public let table: TableView
    public let form: FormView
    /// The items marked (`m`) to act on together.
    package let marks = ObjectMarks()
    /// The filters applied to this store, which ↑ brings back on the filter line.
    package var filterHistory = FilterHistory(url: nil, store: "")
    /// The filters saved by name (`@name`), which `@` lists.
    package var savedFilters = SavedFilters(url: nil, store: "")
    let noSelection = Label("No item selected. Press a to add one.", alignment: .center, role: \.dimmed)

    public let categories: ArrayController
    public let categoryItems: ArrayController
    public let categoryPanel: Window
    let categoryTable: TableView
    let categoryItemsTable: TableView

    /// The alert panel while it is open.
    public internal(set) var alertPanel: Window?
    var alertItems: [ManagedObject] = []
    var alertTimer: TimerID?
    /// The filter the user typed, as typed.
    public internal(set) var filterText = ""
    /// Reads filters and sorts over a SQLite store off the key loop.
    lazy var arranger = BackgroundArranger(app: app, coordinator: store.coordinator)
    /// Reads the items of the category selected in the panel off the key loop: a category
    /// may hold a third of a large store.
    lazy var categoryArranger = BackgroundArranger(app: app, coordinator: store.coordinator)
    /// The item `a` just added, with the undo count after it: Esc on its first edit takes it back.
    var newItem: (object: ManagedObject, undoCount: Int)?
    /// A category just added from the panel, taken back when its first edit is cancelled.
    var newCategory: (object: ManagedObject, undoCount: Int)?
    /// Set when the user chose to quit without saving (or could not be asked).
    var forceQuit = false
    var observations: [BindingObservation] = []
    /// Follows other programs' saves to the store.
    package var live: LiveRefresh?

    /// Builds the windows over the store's context.
    ///
    /// - Parameters:
    ///   - store: the opened store whose items and categories are shown and edited.
    ///   - driver: the terminal the windows are drawn on and keys read from.
    ///   - alertInterval: seconds between checks for due items (60 by default).
    ///   - now: the clock for alerts.
    ///   - viewSettingsURL: where the item table's sort and columns are kept between runs
    ///     (`ToDoViewSettings.defaultURL()`); `nil` keeps nothing.
    public init(store: ToDoStore, driver: TerminalDriver, alertInterval: Double = 60, now: @escaping () -> Date = Date.init,
                viewSettingsURL: URL? = nil) throws {
        self.store = store
        self.now = now
        app = Application(driver: driver)
        // A store query behind a key or a frame can be stopped by a signal (the driver's watchdog).
        app.interruptibleWork = { [coordinator = store.coordinator] body in coordinator.interruptibly(body) }
        let lazy = store.type == .sqlite
        items = try ArrayController(context: store.context, entityName: ToDoItem.entityName,
                                    sortDescriptors: [ObjectSortDescriptor(key: ToDoItem.modelKey(\.dueDate))],
                                    usesLazyFetching: lazy, automaticallyPreparesContent: false)
        items.automaticallyRearrangesObjects = true
        detail = ObjectController(selectionOf: items)
        itemsSource = ArrayControllerTableSource(controller: items)
        table = TableView(columns: [
            TableColumn(ToDoItem.modelKey(\.name), title: "Item", width: 36, compressedWidth: 18, fillsSpareWidth: true, editor: .text),
            TableColumn(ToDoItem.modelKey(\.dueDate), title: "Due", width: 16, format: .date(showsTime: true), editor: .date),
            TableColumn(ToDoItem.modelKey(\.completed), title: "Done", width: 5, alignment: .center, format: .checkbox, editor: .toggle),
            TableColumn(ToDoItem.modelKey(\.doNotAlert), title: "No alert", width: 8, alignment: .center, format: .checkbox, editor: .toggle),
        ], dataSource: itemsSource)
        let formBinding = ObjectControllerForm(controller: detail, holdsEdits: true)
        categories = try ArrayController(context: store.context, entityName: ToDoCategory.entityName,
                                         sortDescriptors: [ObjectSortDescriptor(key: ToDoCategory.modelKey(\.name), comparison: .localizedCaseInsensitiveCompare)])
        categories.automaticallyRearrangesObjects = true
        let categoryList = categories
        let choices: () -> [ManagedObject] = { categoryList.arrangedObjects }
        itemsSource.choices[ToDoItem.modelKey(\.category)] = choices
        form = FormView(fields: [
            formBinding.field(ToDoItem.modelKey(\.name), label: "Item"),
            formBinding.field(ToDoItem.modelKey(\.dueDate), label: "Due", format: .date(showsTime: true)),
            formBinding.field(ToDoItem.modelKey(\.completed), label: "Completed", format: .checkbox),
            formBinding.field(ToDoItem.modelKey(\.doNotAlert), label: "Do not alert", format: .checkbox),
            formBinding.field(ToDoItem.modelKey(\.category), label: "Category", choices: choices),
        ])
        // The form's edits wait in a child context: leaving the form commits them, Esc drops them.
        form.session = formBinding
        mainWindow = Window(title: "ToDo")
        categoryItems = try ArrayController(contentOf: categories, relationship: ToDoCategory.modelKey(\.todos), usesLazyFetching: lazy,
                                            automaticallyPreparesContent: false)
        categoryItems.sortDescriptors = [ObjectSortDescriptor(key: ToDoItem.modelKey(\.dueDate))]
        categoryTable = TableView(columns: [TableColumn(ToDoCategory.modelKey(\.name), title: "Category", width: 20, fillsSpareWidth: true, editor: .text)],
                                  dataSource: ArrayControllerTableSource(controller: categories))
        categoryItemsTable = TableView(columns: [
            TableColumn(ToDoItem.modelKey(\.name), title: "Items in category", width: 28, compressedWidth: 16, fillsSpareWidth: true),
            TableColumn(ToDoItem.modelKey(\.dueDate), title: "Due", width: 16, format: .date(showsTime: true)),
        ], dataSource: ArrayControllerTableSource(controller: categoryItems))
        categoryPanel = Window(title: "Categories", floating: true)
        layOutMainWindow()
        layOutCategoryPanel()
        installCommands()
        installMenus()
        installQuitting()
        // A sort chosen in the table is read in the background, as a filter is.
        itemsSource.sortElsewhere = { [weak self] controller, sort in
            guard let self else { return false }
            return self.arranger.arrange(controller, filter: controller.filterPredicate, sort: sort, title: "Sorting") { [weak self] error in
                if let error { self?.app.showMessage("Could not sort: \(error)", isError: true) }
                self?.updateStatus()
            }
        }
        table.onCancelEditing = { [weak self] in
            guard let self, let added = self.newItem else { return }
            self.newItem = nil
            self.discardAdded(added.object, undoCount: added.undoCount)
        }
        categoryTable.onCancelEditing = { [weak self] in
            guard let self, let added = self.newCategory else { return }
            self.newCategory = nil
            self.discardAdded(added.object, undoCount: added.undoCount)
        }
        if let viewSettingsURL { keepLayout(at: viewSettingsURL) }
        // Smaller, the window would show its frame and no rows: it says so instead.
        app.minimumSize = Size(width: 40, height: 12)
        app.show(mainWindow)
        app.statusBar.status = "Loading…"
        // The items load after the first frame is drawn (the article's applicationDidFinishLaunching).
        _ = app.schedule(after: 0) { [weak self] _ in
            self?.loadItems()
            return .needsRedraw
        }
        startLiveRefresh()
        alertTimer = app.schedule(after: alertInterval, repeating: alertInterval) { [weak self] _ in
            self?.checkAlerts() ?? .ignored
        }
    }

    /// Runs the event loop until the user quits. Changes still unsaved when the loop ends
    /// some other way (input closed) are saved; a failure is thrown, after the terminal is restored.
    public func run() throws {
        try app.run()
        commitEdits()
        context.processPendingChanges()
        if context.hasChanges && !forceQuit { try context.save() }
    }

    /// Restores the item table's layout from the settings file, and writes it back
    /// whenever the user sorts, resizes or hides a column. A file that cannot be read is
    /// left alone (and replaced at the next change), with a message.
    private func keepLayout(at url: URL) {
        var settings = ToDoViewSettings()
        do {
            settings = try ToDoViewSettings.load(from: url)
        } catch {
            app.showMessage("Ignored \(url.lastPathComponent), which holds no table layout; the next change replaces it", isError: true)
        }
        if let layout = settings.items { table.apply(layout) }
        table.onLayoutChange = { [weak self] in
            guard let self else { return }
            settings.items = self.table.tableLayout
            do { try settings.save(to: url) } catch {
                self.app.showMessage("Could not keep the table layout in \(url.path): \(error.localizedDescription)", isError: true)
            }
        }
    }

    func loadItems() {
        // The window is on screen before the items are read.
        app.redraw()
        do {
            try items.fetch()
            (categoryTable.dataSource as? ArrayControllerTableSource)?.bind(categoryTable)
            itemsSource.bind(table)
            observations.append(items.observe { [weak self] changes in
                // Problems under the fields belong to the item they were found on.
                if changes.selectionChanged, let form = self?.form, !form.state.isEditing {
                    // Edits held for the item that was shown go to it before the form shows another.
                    form.commitSession()
                    form.state.errors = [:]
                }
                self?.updateStatus()
            })
            observations.append(categories.observe { [weak self] _ in self?.refreshCategoryChoices() })
            if store.type == .sqlite {
                categoryItems.readsOwnersElsewhere = { [weak self] arrangement in
                    guard let self else { return }
                    guard let arrangement else { return self.categoryArranger.cancel() }
                    self.categoryArranger.read(arrangement, into: self.categoryItems, title: "Reading the category's items",
                                               stoppable: false) { [weak self] error in
                        guard let self, let error else { return }
                        // Read here, then, saying why the background read failed.
                        self.app.showMessage("Could not read the category's items in the background: \(error)", isError: true)
                        try? self.categoryItems.fetch()
                    }
                }
            }
        } catch {
            app.showMessage("Could not read the items: \(error)", isError: true)
        }
        updateStatus()
    }

    // MARK: Layout

    private func layOutMainWindow() {
        let divider = Divider()
        mainWindow.addSubview(table)
        mainWindow.addSubview(divider)
        mainWindow.addSubview(form)
        mainWindow.addSubview(noSelection)
        let form = self.form, table = self.table, noSelection = self.noSelection, detail = self.detail
        mainWindow.layout = { _, area in
            let formHeight = min(7, max(0, area.height - 4))
            table.frame = Rect(x: area.x, y: area.y, width: area.width, height: area.height - formHeight - 1)
            divider.frame = Rect(x: area.x, y: area.maxY - formHeight - 1, width: area.width, height: 1)
            let formArea = Rect(x: area.x + 1, y: area.maxY - formHeight, width: area.width - 2, height: formHeight)
            form.frame = formArea
            noSelection.frame = Rect(x: formArea.x, y: formArea.y + formHeight / 2, width: formArea.width, height: 1)
            let empty = detail.selectedObjects.isEmpty
            form.isHidden = empty
            noSelection.isHidden = !empty
        }
        mainWindow.focus(table)
    }

    private func layOutCategoryPanel() {
        let divider = Divider()
        categoryPanel.addSubview(categoryTable)
        categoryPanel.addSubview(divider)
        categoryPanel.addSubview(categoryItemsTable)
        let master = categoryTable, detailTable = categoryItemsTable
        categoryPanel.placement = { area in
            let width = min(area.width, 64), height = min(area.height, 16)
            return Rect(x: max(area.x, area.maxX - width - 2), y: area.y + 1, width: width, height: height)
        }
        categoryPanel.layout = { _, area in
            let left = min(22, area.width / 3)
            master.frame = Rect(x: area.x, y: area.y, width: left, height: area.height)
            divider.frame = Rect(x: area.x + left, y: area.y, width: 1, height: area.height)
            detailTable.frame = Rect(x: area.x + left + 1, y: area.y, width: area.width - left - 1, height: area.height)
        }
        categoryPanel.focus(categoryTable)
    }

    /// The category field offers the categories as they are now.
    func refreshCategoryChoices() {
        guard let i = form.fields.firstIndex(where: { $0.id == ToDoItem.modelKey(\.category) }) else { return }
        form.fields[i].editor = .choice([""] + CellValue.choiceLabels(for: categories.arrangedObjects))
    }

    // MARK: Status

    package func updateStatus() {
        let count = items.arrangedCount
        let changes = store.unsavedChangeCount
        // The count first and the changes last, as in the browser: a narrow status bar keeps both.
        var parts = ["\(count) item\(count == 1 ? "" : "s")"]
        if !filterText.isEmpty { parts.append("filter: \(filterText)") }
        if let marked = marks.statusText { parts.append(marked) }
        parts.append(changes == 0 ? "saved" : "\(changes) unsaved change\(changes == 1 ? "" : "s")")
        app.statusBar.status = parts.joined(separator: " · ")
        mainWindow.title = "ToDo — \(store.displayName)"
        mainWindow.layoutSubviews()
        app.setNeedsDisplay()
    }
}
