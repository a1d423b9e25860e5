import Foundation
import AppShell
import Bindings
import ObjectGraph
import ObjectModel
import Predicates
import TerminalBindings
import TerminalUI

/// Where the browser is: an entity's objects in a table and the selected one in a form.
extension BrowserApplication {
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
        arranger.cancel()
        let source = ArrayControllerTableSource(controller: controller)
        source.sortElsewhere = { [weak self] controller, sort in
            self?.arranger.arrange(controller, filter: controller.filterPredicate, sort: sort, title: "Sorting") { [weak self] error in
                if let error { self?.app.showMessage("Could not sort: \(error)", isError: true) }
                self?.updateStatus()
            } ?? false
        }
        let counting = CountingTableSource(base: source, context: context)
        let table = TableView(columns: Self.columns(for: entity, editable: !isReadOnly) + addedColumns(for: entity), dataSource: counting)
        table.extraCommands = objectCommands() + markingCommands(prefix: "browser") + copyingCommands(prefix: "browser")
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
        table.state.sortKeys = place.sortDescriptors.prefix { sort in table.columns.contains { $0.id == sort.key } }
            .map { TableSortKey($0.key, ascending: $0.ascending) }
        objects = controller
        objectSource = source
        countingSource = counting
        showMarks(on: table)

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
    /// destination's name) and to-many ones (how many they hold). The first text column takes
    /// the width the table has to spare, rather than cutting its text short beside a blank.
    static func columns(for entity: Entity, editable: Bool) -> [TableColumn] {
        var columns: [TableColumn] = []
        let filler = entity.attributes.first { !$0.isTransient && $0.type == .string }?.name
        for attribute in entity.attributes where !attribute.isTransient {
            let (width, format) = Self.presentation(of: attribute.type)
            var column = TableColumn(attribute.name, title: attribute.name, width: max(width, min(attribute.name.displayWidth, 24)),
                                     fillsSpareWidth: attribute.name == filler,
                                     format: format, editor: editable ? EditorKind(for: attribute) : .readOnly)
            column.nilText = nilText
            columns.append(column)
        }
        for relationship in entity.relationships where !relationship.isTransient {
            if relationship.isToMany {
                let title = relationship.name + " ⇉"
                columns.append(TableColumn(relationship.name + ".@count", title: title, width: max(6, min(title.displayWidth, 20)),
                                           alignment: .right, isSortable: false))
            } else {
                var column = TableColumn(relationship.name, title: relationship.name + " →", width: 20, isSortable: false)
                column.nilText = nilText
                columns.append(column)
            }
        }
        return columns
    }

    /// How a cell or field of no value shows, apart from an empty text.
    static let nilText = "∅"

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
            field.nilText = nilText
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
                var field = binding.field(relationship.name, label: relationship.name + " →", choices: choices)
                field.nilText = nilText
                fields.append(field)
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
}
