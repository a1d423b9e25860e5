import Foundation
import AppShell
import Bindings
import ObjectGraph
import ObjectModel
import Predicates
import TerminalBindings
import TerminalUI

/// A browser for any model and store: the entities on the left with their counts, the
/// objects of the chosen entity in a table (read a window at a time from SQLite), and the
/// selected object in a form below.
///
/// Enter on a relationship cell follows it: a to-one goes to its destination, a to-many to
/// the objects it holds; Backspace comes back. Attribute cells edit in place, `/` filters
/// with a predicate, `a` and `d` add and delete, `u` undoes, Ctrl-S saves, and `q` asks
/// before leaving unsaved changes.
///
/// ```swift
/// let browser = try BrowserApplication(context: context, title: "Model.sqlite", driver: CursesDriver())
/// try browser.run()
/// ```
public final class BrowserApplication {
    public let app: Application
    public let context: ManagedObjectContext
    /// Whether changes are refused (the store was opened read-only).
    public let isReadOnly: Bool
    /// What the window's title calls the store: its file's name.
    var title: String
    let lazyFetching: Bool

    let entityList: TableView
    let entitySource: EntityListSource
    public internal(set) var objectTable: TableView
    /// The objects shown: the current entity, scope and filter.
    public internal(set) var objects: ArrayController?
    var objectSource: ArrayControllerTableSource?
    var countingSource: CountingTableSource?
    var form = FormView(fields: [])
    let noSelection = Label("No object selected", alignment: .center)
    let mainWindow = Window(title: "Browser")
    /// The line above the form, labelled with the selected object's URI.
    let formDivider = Divider()
    var observations: [Any] = []
    /// Follows other programs' saves to the store.
    package var live: LiveRefresh?
    /// Set once the user chose how to leave unsaved changes.
    var quitConfirmed = false
    /// The object `a` just added, with the undo count after it: Esc on its first edit takes it back.
    var newObject: (object: ManagedObject, undoCount: Int)?
    /// Key-path columns added to each entity's table (`C`), by entity name.
    var addedColumns: [String: [String]] = [:]
    /// Where `E` finds the user's editor (`$VISUAL`, `$EDITOR`).
    package var environment = ProcessInfo.processInfo.environment
    /// The objects marked (`m`) to act on together, of any entity.
    package let marks = ObjectMarks()
    /// The filters applied to this store, which ↑ brings back on the filter line.
    package var filterHistory = FilterHistory(url: nil, store: "")
    /// The filters saved by name (`@name`), which `@` lists.
    package var savedFilters = SavedFilters(url: nil, store: "")

    /// Where the browser is: an entity, narrowed by a relationship followed and a filter.
    struct Place {
        var entityName: String
        /// The relationship followed to get here (`Category “Home” › todos`), as a predicate and a label.
        var scope: ObjectPredicate?
        var scopeLabel: String?
        /// The object whose to-many relationship is shown, and the relationship back to it
        /// that an added object gets; nil when the relationship has no inverse.
        var owner: (object: ManagedObject, inverse: String?)?
        /// The owner's to-many relationship shown here, which `A` and `R` add marks to and
        /// take them out of.
        var relationship: String?
        var filterText = ""
        var sortDescriptors: [ObjectSortDescriptor] = []
        /// The object to select on arrival.
        var selected: ManagedObject?
        /// The column to select on arrival (the one a relationship was followed from).
        var selectedColumn: String?
        /// The form field to focus on arrival, when the relationship was followed from the form.
        var formField: String?
    }

    var place: Place
    /// Reads filters and sorts over a SQLite store off the key loop.
    lazy var arranger = BackgroundArranger(app: app, coordinator: context.coordinator)
    /// The places left by following relationships, most recent last.
    var backStack: [Place] = []

    /// A browser over the entities and objects of a context's store.
    ///
    /// - Parameters:
    ///   - context: a context on the store to browse.
    ///   - title: what the window's title calls the store (its file name).
    ///   - driver: the terminal the browser draws on and reads keys from.
    ///   - isReadOnly: refuse changes (for a store opened read-only).
    public init(context: ManagedObjectContext, title: String, driver: TerminalDriver, isReadOnly: Bool = false) throws {
        self.context = context
        self.title = title
        self.isReadOnly = isReadOnly
        lazyFetching = context.coordinator.stores.contains { $0.type == .sqlite }
        app = Application(driver: driver)
        // A store query behind a key or a frame can be stopped by a signal (the driver's watchdog).
        app.interruptibleWork = { [coordinator = context.coordinator] body in coordinator.interruptibly(body) }
        let names = context.model.entities.map(\.name).sorted()
        guard let first = names.first else { throw BrowserError.modelHasNoEntities }
        entitySource = EntityListSource(context: context, names: names)
        entityList = TableView(columns: [
            TableColumn("entity", title: "Entity", width: 22, compressedWidth: 12),
            TableColumn("count", title: "Objects", width: 7, alignment: .right),
        ], dataSource: entitySource)
        objectTable = TableView(columns: [], dataSource: EmptySource())
        place = Place(entityName: first)
        if context.undoManager == nil { context.undoManager = UndoStack() }
        layOut()
        installCommands()
        installMenus()
        installQuitting()
        entityList.onSelectionChange = { [weak self] row in
            guard let self, row < self.entitySource.names.count else { return }
            let name = self.entitySource.names[row]
            guard name != self.place.entityName || self.place.scope != nil else { return }
            self.backStack = []
            self.show(Place(entityName: name))
        }
        entityList.onActivate = { [weak self] _ in
            guard let self else { return }
            self.mainWindow.focus(self.objectTable)
        }
        observations.append(context.observe { [weak self] note in
            guard let self else { return }
            switch note {
            case .objectsDidChange, .didSave:
                self.entitySource.forgetCounts()
                self.countingSource?.forgetCounts()
                self.updateStatus()
            default: break
            }
        })
        // Smaller, the window would show its frame and no rows: it says so instead.
        app.minimumSize = Size(width: 50, height: 12)
        app.show(mainWindow)
        show(place)
        // Other programs' saves show as they happen.
        context.transactionAuthor = context.transactionAuthor ?? "browser"
        live = LiveRefresh(app: app, context: context) { [weak self] transactions in
            self?.app.showMessage(LiveRefresh.summary(transactions))
            self?.updateStatus()
        }
        // The objects when there are some to move through; otherwise the entity list, where
        // j and k pick another entity.
        mainWindow.focus((objects?.arrangedCount ?? 0) > 0 ? objectTable : entityList)
    }

    /// Runs until the user quits.
    public func run() throws {
        try app.run()
    }

    // MARK: Layout

    private func layOut() {
        let vertical = Divider()
        mainWindow.addSubview(entityList)
        mainWindow.addSubview(vertical)
        mainWindow.addSubview(objectTable)
        mainWindow.addSubview(formDivider)
        mainWindow.addSubview(form)
        mainWindow.addSubview(noSelection)
        mainWindow.layout = { [weak self] _, area in
            guard let self else { return }
            let left = min(33, max(12, area.width / 4))
            self.entityList.frame = Rect(x: area.x, y: area.y, width: left, height: area.height)
            // Names take what the counts leave.
            self.entityList.columns[0].width = max(4, left - self.entityList.columns[1].width - 1)
            vertical.frame = Rect(x: area.x + left, y: area.y, width: 1, height: area.height)
            let right = Rect(x: area.x + left + 1, y: area.y, width: max(0, area.width - left - 1), height: area.height)
            let formHeight = min(self.form.fields.count, max(0, right.height * 2 / 5))
            let tableHeight = max(0, right.height - formHeight - 1)
            self.objectTable.frame = Rect(x: right.x, y: right.y, width: right.width, height: tableHeight)
            self.formDivider.frame = Rect(x: right.x, y: right.y + tableHeight, width: right.width, height: 1)
            let formArea = Rect(x: right.x + 1, y: right.maxY - formHeight, width: max(0, right.width - 2), height: formHeight)
            self.form.frame = formArea
            self.noSelection.frame = Rect(x: formArea.x, y: formArea.y + formHeight / 2, width: formArea.width, height: 1)
            let empty = self.objects?.selectedObjects.isEmpty ?? true
            self.form.isHidden = empty
            // With no fields there is no form to stand in for (the label would sit on the border).
            self.noSelection.isHidden = !empty || formHeight == 0
        }
    }

    // MARK: Status

    package func updateStatus() {
        let count = objects?.arrangedCount ?? 0
        var parts = ["\(count) \(place.entityName)"]
        if let label = place.scopeLabel { parts.append(label) }
        if !place.filterText.isEmpty { parts.append("filter: \(place.filterText)") }
        context.processPendingChanges()
        let changes = context.insertedObjects.count + context.updatedObjects.count + context.deletedObjects.count
        if let marked = marks.statusText { parts.append(marked) }
        parts.append(isReadOnly ? "read-only" : changes == 0 ? "saved" : "\(changes) unsaved change\(changes == 1 ? "" : "s")")
        app.statusBar.status = parts.joined(separator: " · ")
        mainWindow.title = "Browser — \(title)" + (backStack.isEmpty ? "" : " (\(backStack.count) back)")
        // The selected object's URI, as Core Data prints it in a log (Ctrl-G goes to one).
        let selected = objects?.selectedObjects ?? []
        formDivider.label = selected.count == 1
            ? selected[0].objectID.isTemporaryID ? "new \(selected[0].entity.name), not yet saved" : selected[0].objectID.uriRepresentation.absoluteString
            : nil
        mainWindow.layoutSubviews()
        app.setNeedsDisplay()
    }

    package func reveal(_ failures: [ValidationFailure]) {
        guard let objects, let failure = failures.first(where: { objects.arrangedIndex(of: $0.object) != nil }),
              let row = objects.arrangedIndex(of: failure.object) else { return }
        objectTable.select(row: row)
        _ = objects.setSelectionIndex(row)
        form.show(failures, of: failure.object)
    }

    package func storeDidMove(to url: URL) {
        title = url.lastPathComponent
        updateStatus()
    }

    /// Commits edits in the table and the form; false when an editor refuses.
    @discardableResult
    package func commitEdits() -> Bool {
        var ok = true
        if objectTable.state.isEditing { ok = objectTable.commitEditing() && ok }
        if form.state.isEditing { ok = form.commitEditing() && ok }
        return ok
    }
}
