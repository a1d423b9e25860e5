import Foundation
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
    let title: String
    let lazyFetching: Bool

    let entityList: TableView
    let entitySource: EntityListSource
    public private(set) var objectTable: TableView
    /// The objects shown: the current entity, scope and filter.
    public private(set) var objects: ArrayController?
    private(set) var objectSource: ArrayControllerTableSource?
    private var countingSource: CountingTableSource?
    private(set) var form = FormView(fields: [])
    let noSelection = Label("No object selected", alignment: .center)
    let mainWindow = Window(title: "Browser")
    private var observations: [Any] = []
    /// Set once the user chose how to leave unsaved changes.
    var quitConfirmed = false
    /// The object `a` just added, with the undo count after it: Esc on its first edit takes it back.
    var newObject: (object: ManagedObject, undoCount: Int)?

    /// Where the browser is: an entity, narrowed by a relationship followed and a filter.
    struct Place {
        var entityName: String
        /// The relationship followed to get here (`Category “Home” › todos`), as a predicate and a label.
        var scope: ObjectPredicate?
        var scopeLabel: String?
        /// The object whose to-many relationship is shown, and the relationship back to it
        /// that an added object gets; nil when the relationship has no inverse.
        var owner: (object: ManagedObject, inverse: String?)?
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
    /// The places left by following relationships, most recent last.
    private(set) var backStack: [Place] = []

    /// - Parameters:
    ///   - context: a context on the store to browse.
    ///   - title: what the window's title calls the store (its file name).
    ///   - isReadOnly: refuse changes (for a store opened read-only).
    public init(context: ManagedObjectContext, title: String, driver: TerminalDriver, isReadOnly: Bool = false) throws {
        self.context = context
        self.title = title
        self.isReadOnly = isReadOnly
        lazyFetching = context.coordinator.stores.contains { $0.type == .sqlite }
        app = Application(driver: driver)
        let names = context.model.entities.map(\.name).sorted()
        guard let first = names.first else { throw ObjectGraphError.unsupported("the model has no entities") }
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
        let vertical = Divider(), horizontal = Divider()
        mainWindow.addSubview(entityList)
        mainWindow.addSubview(vertical)
        mainWindow.addSubview(objectTable)
        mainWindow.addSubview(horizontal)
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
            horizontal.frame = Rect(x: right.x, y: right.y + tableHeight, width: right.width, height: 1)
            let formArea = Rect(x: right.x + 1, y: right.maxY - formHeight, width: max(0, right.width - 2), height: formHeight)
            self.form.frame = formArea
            self.noSelection.frame = Rect(x: formArea.x, y: formArea.y + formHeight / 2, width: formArea.width, height: 1)
            let empty = self.objects?.selectedObjects.isEmpty ?? true
            self.form.isHidden = empty
            // With no fields there is no form to stand in for (the label would sit on the border).
            self.noSelection.isHidden = !empty || formHeight == 0
        }
    }

    // MARK: Places

    /// Shows an entity's objects: a new controller, table and form for it. Nothing changes
    /// when an edit in progress is refused or the objects cannot be read (the message says why).
    @discardableResult
    func show(_ place: Place) -> Bool {
        guard commitEdits() else {
            app.showMessage("Finish or cancel the edit (Esc) first", isError: true)
            return false
        }
        guard let entity = context.model.entity(named: place.entityName) else { return false }
        let controller: ArrayController
        do {
            controller = try ArrayController(context: context, entityName: entity.name, sortDescriptors: place.sortDescriptors,
                                             usesLazyFetching: lazyFetching, automaticallyPreparesContent: false)
            controller.isEditable = !isReadOnly
            controller.automaticallyRearrangesObjects = true
            controller.fetchPredicate = place.scope
            controller.filterPredicate = try Self.filterPredicate(for: place.filterText, entity: entity)
            try controller.fetch()
        } catch {
            app.showMessage("Cannot read \(entity.name): \(error)", isError: true)
            return false
        }
        self.place = place
        let source = ArrayControllerTableSource(controller: controller)
        let counting = CountingTableSource(base: source, context: context)
        let table = TableView(columns: Self.columns(for: entity, editable: !isReadOnly), dataSource: counting)
        table.extraCommands = objectCommands()
        table.onActivate = { [weak self] _ in self?.followSelectedCell() }
        table.onCancelEditing = { [weak self] in
            guard let self, let added = self.newObject else { return }
            self.newObject = nil
            self.discardAdded(added.object, undoCount: added.undoCount)
        }
        let wasFocused = objectTable.hasFocus
        objectTable.removeFromSuperview()
        mainWindow.addSubview(table)
        objectTable = table
        source.bind(table)
        if let sort = place.sortDescriptors.first, let column = table.columns.firstIndex(where: { $0.id == sort.key }) {
            table.state.sortColumn = table.columns[column].id
            table.state.sortAscending = sort.ascending
        }
        objects = controller
        objectSource = source
        countingSource = counting

        let binding = ObjectControllerForm(controller: ObjectController(selectionOf: controller))
        let newForm = FormView(fields: Self.fields(for: entity, binding: binding, editable: !isReadOnly, counts: counting))
        newForm.onActivate = { [weak self] _ in self?.followSelectedCell(inForm: true) }
        form.removeFromSuperview()
        mainWindow.addSubview(newForm)
        form = newForm
        observations.removeAll { $0 is BindingObservation }
        observations.append(controller.observe { [weak self] changes in
            // Problems under the fields belong to the object they were found on.
            if changes.selectionChanged, let form = self?.form, !form.state.isEditing { form.state.errors = [:] }
            self?.updateStatus()
        })

        if let object = place.selected, object.managedObjectContext === context, !object.isDeleted,
           let row = controller.arrangedIndex(of: object) {
            table.select(row: row)
            _ = controller.setSelectionIndex(row)
        }
        if let id = place.selectedColumn, let column = table.columns.firstIndex(where: { $0.id == id }) {
            table.select(column: column)
        }
        if let row = entitySource.names.firstIndex(of: entity.name), entityList.state.selectedRow != row {
            let handler = entityList.onSelectionChange
            entityList.onSelectionChange = nil
            entityList.select(row: row)
            entityList.onSelectionChange = handler
        }
        if let id = place.formField, let field = form.fields.firstIndex(where: { $0.id == id }), !form.isHidden {
            form.state.focusedField = field
            mainWindow.focus(form)
        } else if wasFocused || mainWindow.focusedView == nil || mainWindow.focusedView?.superview == nil {
            mainWindow.focus(table)
        }
        updateStatus()
        return true
    }

    /// The columns of an entity's table: attributes, then to-one relationships (their
    /// destination's name) and to-many ones (how many they hold).
    static func columns(for entity: Entity, editable: Bool) -> [TableColumn] {
        var columns: [TableColumn] = []
        for attribute in entity.attributes where !attribute.isTransient {
            let (width, format) = Self.presentation(of: attribute.type)
            columns.append(TableColumn(attribute.name, title: attribute.name, width: max(width, min(attribute.name.displayWidth, 24)),
                                       format: format, editor: editable ? EditorKind(for: attribute) : .readOnly))
        }
        for relationship in entity.relationships where !relationship.isTransient {
            if relationship.isToMany {
                let title = relationship.name + " ⇉"
                columns.append(TableColumn(relationship.name + ".@count", title: title, width: max(6, min(title.displayWidth, 20)),
                                           alignment: .right, isSortable: false))
            } else {
                columns.append(TableColumn(relationship.name, title: relationship.name + " →", width: 20, isSortable: false))
            }
        }
        return columns
    }

    /// A column's width and format for an attribute type.
    static func presentation(of type: AttributeType) -> (Int, ValueFormat) {
        switch type {
        case .boolean: return (5, .checkbox)
        case .date: return (16, .date(showsTime: true))
        case .integer16, .integer32, .integer64: return (8, .automatic)
        case .double, .float, .decimal: return (12, fullPrecision)
        case .string: return (24, .automatic)
        case .uuid: return (36, .automatic)
        default: return (12, .automatic)
        }
    }

    /// Numbers as they are, not rounded to two places: a browser shows the stored value.
    static let fullPrecision = ValueFormat { value in
        if case let .decimal(d) = value { return d.rounded() == d && abs(d) < 1e15 ? String(Int64(d)) : String(d) }
        return ValueFormat.automatic.string(for: value)
    }

    /// The detail form's fields: every attribute, then the relationships.
    static func fields(for entity: Entity, binding: ObjectControllerForm, editable: Bool,
                       counts: CountingTableSource) -> [FormField] {
        var fields: [FormField] = []
        for attribute in entity.attributes {
            var field = binding.field(attribute.name, label: attribute.name, format: presentation(of: attribute.type).1)
            if !editable || attribute.isTransient { field.editor = .readOnly }
            fields.append(field)
        }
        for relationship in entity.relationships {
            if relationship.isToMany {
                let controller = binding.controller
                fields.append(FormField(relationship.name + ".@count", label: relationship.name + " ⇉", editor: .readOnly) {
                    let selected = controller.selectedObjects
                    guard selected.count == 1 else { return .text(selected.isEmpty ? "No selection" : "Multiple values") }
                    return counts.count(of: relationship.name, in: selected[0])
                })
            } else {
                // Enter in the field chooses among the destination's objects when there are
                // few enough to list; f (and Enter in the table) follows the relationship.
                let choices = editable ? destinationChoices(of: relationship, in: binding.controller.arrayController.context) : nil
                fields.append(binding.field(relationship.name, label: relationship.name + " →", choices: choices))
            }
        }
        return fields
    }

    /// The most objects a to-one field lists to choose from.
    static let choiceLimit = 500

    /// The objects a to-one relationship can hold, by display name; nil when there are more
    /// than `choiceLimit` (or they cannot be read), and the field only follows.
    static func destinationChoices(of relationship: RelationshipDescription,
                                   in context: ManagedObjectContext) -> (() -> [ManagedObject])? {
        let request = FetchRequest(entityName: relationship.destinationEntityName)
        guard let count = try? context.count(for: request), count > 0, count <= choiceLimit,
              let objects = try? context.fetch(request) else { return nil }
        let sorted = objects.sorted {
            CellValue.displayName($0).localizedStandardCompare(CellValue.displayName($1)) == .orderedAscending
        }
        return { sorted.filter { !$0.isDeleted } }
    }

    // MARK: Following relationships

    /// The relationship of the selected cell (or form field), if it is one.
    private func selectedRelationship(inForm: Bool) -> RelationshipDescription? {
        guard let entity = context.model.entity(named: place.entityName) else { return nil }
        let key: String
        if inForm {
            guard form.fields.indices.contains(form.state.focusedField) else { return nil }
            key = form.fields[form.state.focusedField].id
        } else {
            guard objectTable.columns.indices.contains(objectTable.state.selectedColumn) else { return nil }
            key = objectTable.columns[objectTable.state.selectedColumn].id
        }
        let name = key.hasSuffix(".@count") ? String(key.dropLast(".@count".count)) : key
        return entity.relationship(named: name)
    }

    /// Follows the relationship in the selected cell or field from the selected object:
    /// to its destination (to-one) or to the objects it holds (to-many).
    @discardableResult
    func followSelectedCell(inForm: Bool = false, byFollowKey: Bool = false) -> EventResult {
        guard let relationship = selectedRelationship(inForm: inForm) else {
            if byFollowKey {
                app.showMessage("Only a relationship can be followed; this is an attribute", isError: true)
            } else if !inForm {
                let column = objectTable.columns.indices.contains(objectTable.state.selectedColumn)
                    ? objectTable.columns[objectTable.state.selectedColumn].title : "This column"
                app.showMessage("\(column) cannot be edited", isError: true)
            }
            return .redraw
        }
        guard let object = objects?.selectedObjects.first else { return .handled }
        return follow(relationship, from: object)
    }

    /// The most members of a relationship without an inverse that are shown (as one
    /// `SELF IN` list, bound as that many SQL arguments).
    static let memberListLimit = 30_000

    func follow(_ relationship: RelationshipDescription, from object: ManagedObject) -> EventResult {
        let here = currentPlace()
        let name = CellValue.displayName(object)
        let next: Place
        if relationship.isToMany {
            let scope: ObjectPredicate
            var inverseName: String?
            if let inverse = relationship.inverseName,
               let destination = context.model.entity(named: relationship.destinationEntityName),
               let inverseRelationship = destination.relationship(named: inverse) {
                scope = inverseRelationship.isToMany
                    ? .comparison(ComparisonPredicate(.keyPath(inverse), .equalTo, .constant(.object(object)), modifier: .any))
                    : .comparison(ComparisonPredicate(.keyPath(inverse), .equalTo, .constant(.object(object))))
                inverseName = inverse
            } else {
                let members = object.objects(relationship.name)
                guard members.count <= Self.memberListLimit else {
                    app.showMessage("\(name) has \(members.count) \(relationship.name), too many to list without an inverse relationship",
                                    isError: true)
                    return .redraw
                }
                scope = .comparison(ComparisonPredicate(.evaluatedObject, .in, .constant(.array(members.map { .object($0) }))))
            }
            next = Place(entityName: relationship.destinationEntityName, scope: scope,
                         scopeLabel: "\(object.entity.name) “\(name)” › \(relationship.name)", owner: (object, inverseName))
        } else {
            guard let destination = object.object(relationship.name) else {
                app.showMessage("\(name) has no \(relationship.name)")
                return .redraw
            }
            switch CellValue.Reach(destination) {
            case .present: break
            case .deleted:
                app.showMessage("\(relationship.name) of \(name) leads to \(CellValue.displayName(destination))", isError: true)
                return .redraw
            case .missing:
                app.showMessage("\(relationship.name) of \(name) leads to \(CellValue.keyName(destination)), which is no longer in the store",
                                isError: true)
                return .redraw
            }
            next = Place(entityName: destination.entity.name, selected: destination)
        }
        guard show(next) else { return .redraw }
        backStack.append(here)
        updateStatus()
        if relationship.isToMany, objects?.arrangedCount == 0 {
            app.showMessage("\(name) has no \(relationship.name)")
        } else if !relationship.isToMany {
            app.showMessage("\(relationship.name) of \(name) — Backspace goes back")
        }
        return .redraw
    }

    /// Returns to the place left by the last relationship followed.
    func goBack() -> EventResult {
        guard let previous = backStack.last else {
            app.showMessage("Nothing to go back to")
            return .redraw
        }
        if show(previous) {
            backStack.removeLast()
            updateStatus()
        }
        return .redraw
    }

    /// The current place with what the user did here: sort, selection.
    func currentPlace() -> Place {
        var here = place
        here.sortDescriptors = objects?.sortDescriptors ?? here.sortDescriptors
        here.selected = objects?.selectedObjects.first
        if objectTable.columns.indices.contains(objectTable.state.selectedColumn) {
            here.selectedColumn = objectTable.columns[objectTable.state.selectedColumn].id
        }
        if form.hasFocus, form.fields.indices.contains(form.state.focusedField) {
            here.formField = form.fields[form.state.focusedField].id
        }
        return here
    }

    // MARK: Status

    func updateStatus() {
        let count = objects?.arrangedCount ?? 0
        var parts = ["\(count) \(place.entityName)"]
        if let label = place.scopeLabel { parts.append(label) }
        if !place.filterText.isEmpty { parts.append("filter: \(place.filterText)") }
        context.processPendingChanges()
        let changes = context.insertedObjects.count + context.updatedObjects.count + context.deletedObjects.count
        parts.append(isReadOnly ? "read-only" : changes == 0 ? "saved" : "\(changes) unsaved change\(changes == 1 ? "" : "s")")
        app.statusBar.status = parts.joined(separator: " · ")
        mainWindow.title = "Browser — \(title)" + (backStack.isEmpty ? "" : " (\(backStack.count) back)")
        mainWindow.layoutSubviews()
        app.setNeedsDisplay()
    }

    func reveal(_ failures: [ValidationFailure]) {
        guard let objects, let failure = failures.first(where: { objects.arrangedIndex(of: $0.object) != nil }),
              let row = objects.arrangedIndex(of: failure.object) else { return }
        objectTable.select(row: row)
        _ = objects.setSelectionIndex(row)
        form.show(failures, of: failure.object)
    }

    /// Commits edits in the table and the form; false when an editor refuses.
    @discardableResult
    func commitEdits() -> Bool {
        var ok = true
        if objectTable.state.isEditing { ok = objectTable.commitEditing() && ok }
        if form.state.isEditing { ok = form.commitEditing() && ok }
        return ok
    }
}

/// The model's entities with how many objects each has, counted in the store when shown.
final class EntityListSource: TableDataSource {
    let context: ManagedObjectContext
    let names: [String]
    private var counts: [String: Int] = [:]

    init(context: ManagedObjectContext, names: [String]) {
        self.context = context
        self.names = names
    }

    var numberOfRows: Int { names.count }

    func value(row: Int, column: String) -> CellValue {
        guard row < names.count else { return .empty }
        let name = names[row]
        if column == "entity" { return .text(name) }
        if counts[name] == nil { counts[name] = try? context.count(for: FetchRequest(entityName: name)) }
        return counts[name].map(CellValue.integer) ?? .text("?")
    }

    func sort(by column: String, ascending: Bool) -> Bool { false }

    func forgetCounts() { counts = [:] }
}

/// An entity's objects with their to-many relationships counted in the store: a column
/// `name.@count` would otherwise load every member of every row shown (a category of
/// 333,333 items), so it is counted with `count(ofRelationship:of:)` and kept until the
/// context changes.
final class CountingTableSource: TableDataSource {
    let base: ArrayControllerTableSource
    let context: ManagedObjectContext
    /// By ID: the rows' objects come and go (a window holds IDs), and a new object may take
    /// a released one's address.
    private struct Key: Hashable { let object: ManagedObjectID; let relationship: String }
    private var counts: [Key: Int] = [:]

    init(base: ArrayControllerTableSource, context: ManagedObjectContext) {
        self.base = base
        self.context = context
    }

    var numberOfRows: Int { base.numberOfRows }

    func value(row: Int, column: String) -> CellValue {
        guard column.hasSuffix(".@count"), let object = base.controller.arrangedObject(at: row) else {
            return base.value(row: row, column: column)
        }
        return count(of: String(column.dropLast(".@count".count)), in: object)
    }

    func count(of relationship: String, in object: ManagedObject) -> CellValue {
        guard object.isValid else { return .empty }
        let key = Key(object: object.objectID, relationship: relationship)
        if let n = counts[key] { return .integer(n) }
        guard let n = try? context.count(ofRelationship: relationship, of: object) else { return .text("?") }
        counts[key] = n
        return .integer(n)
    }

    func forgetCounts() { counts = [:] }

    func editor(row: Int, column: String) -> EditorKind? { base.editor(row: row, column: column) }
    func setValue(_ value: CellValue, row: Int, column: String) throws { try base.setValue(value, row: row, column: column) }
    func sort(by column: String, ascending: Bool) -> Bool { base.sort(by: column, ascending: ascending) }
}

/// The rows of a table before an entity is chosen.
final class EmptySource: TableDataSource {
    var numberOfRows: Int { 0 }
    func value(row: Int, column: String) -> CellValue { .empty }
    func sort(by column: String, ascending: Bool) -> Bool { false }
}
