import Foundation
import Bindings
import ObjectGraph
import ObjectModel
import Predicates
import TerminalUI

/// A table's rows from an array controller's arranged objects: each column's identifier
/// is a key path of the objects. Edits are validated against the model before they are
/// set; sorting sets the controller's sort descriptors.
///
/// ```swift
/// let source = ArrayControllerTableSource(controller: items)
/// let table = TableView(columns: [TableColumn("name", title: "Name")], dataSource: source)
/// source.bind(table)      // selection follows in both directions
/// ```
public final class ArrayControllerTableSource: TableDataSource {
    public let controller: ArrayController
    /// Columns whose values choose among the objects of a to-one relationship's
    /// destination: column identifier → the destination objects' display names, in order.
    public var choices: [String: () -> [ManagedObject]] = [:]
    /// The sort comparison used for string columns (default: case-insensitive).
    public var stringComparison: SortComparison = .localizedCaseInsensitiveCompare
    /// Takes a sort chosen in the table to be read elsewhere (a background context); returns
    /// false to have it set on the controller here and now.
    public var sortElsewhere: ((ArrayController, [ObjectSortDescriptor]) -> Bool)?

    private var observation: BindingObservation?
    private weak var table: TableView?
    private var editor: TableEditor?

    public init(controller: ArrayController) {
        self.controller = controller
    }

    // MARK: TableDataSource

    public var numberOfRows: Int { controller.arrangedCount }

    public func value(row: Int, column: String) -> CellValue {
        guard let object = controller.arrangedObject(at: row), object.isValid else { return .empty }
        return CellValue(object, keyPath: column)
    }

    /// A value not yet saved stands out: every cell of a new object, a changed attribute or
    /// relationship of another.
    public func emphasis(row: Int, column: String) -> CellEmphasis {
        guard !column.contains("."), let object = controller.arrangedObject(at: row), object.hasUnsavedValue(forKey: column) else { return .none }
        return .modified
    }

    public func editor(row: Int, column: String) -> EditorKind? {
        guard controller.isEditable, let object = controller.arrangedObject(at: row) else { return .readOnly }
        if let attribute = object.entity.attribute(named: column) { return EditorKind(for: attribute) }
        if let relationship = object.entity.relationship(named: column), !relationship.isToMany, let options = choices[column] {
            return .choice([""] + CellValue.choiceLabels(for: options()))
        }
        return .readOnly
    }

    public func setValue(_ value: CellValue, row: Int, column: String) throws {
        guard controller.isEditable else { throw ReadOnlyError() }
        guard let object = controller.arrangedObject(at: row) else { return }
        try Self.set(value, on: object, key: column, choices: choices[column])
    }

    public func sort(by column: String, ascending: Bool) -> Bool {
        sort(by: [TableSortKey(column, ascending: ascending)])
    }

    /// Sorts by attributes and by key paths through to-one relationships (`category.name`),
    /// in the store where the controller fetches lazily; text sorts as text.
    public func sort(by keys: [TableSortKey]) -> Bool {
        guard let entity = controller.context.model.entity(named: controller.entityName) else { return false }
        var descriptors: [ObjectSortDescriptor] = []
        for key in keys {
            guard let descriptor = descriptor(for: key, from: entity) else { return false }
            descriptors.append(descriptor)
        }
        if let sortElsewhere, sortElsewhere(controller, descriptors) { return true }
        controller.sortDescriptors = descriptors
        return true
    }

    private func descriptor(for key: TableSortKey, from entity: Entity) -> ObjectSortDescriptor? {
        let column = key.column
        guard entity.attribute(named: column) != nil || column.contains(".") else { return nil }
        // Text sorts as text, also at the end of a key path through to-one relationships.
        let type = controller.context.model.attribute(atKeyPath: column, from: entity)?.type
        let comparison: SortComparison = type == .string ? stringComparison : .compare
        return ObjectSortDescriptor(key: column, ascending: key.ascending, comparison: comparison)
    }

    /// Sets a cell's value on an object: validated against the attribute's rules, or
    /// chosen among a to-one relationship's candidates by display name. A committed edit
    /// ends an event in the context, so it is one step to undo and observers see it at once.
    public static func set(_ value: CellValue, on object: ManagedObject, key: String,
                           choices: (() -> [ManagedObject])? = nil) throws {
        try assign(value, on: object, key: key, choices: choices)
        object.managedObjectContext?.processPendingChanges()
    }

    private static func assign(_ value: CellValue, on object: ManagedObject, key: String,
                               choices: (() -> [ManagedObject])?) throws {
        if let attribute = object.entity.attribute(named: key) {
            // Errors read at the field they belong to, so they name the problem, not the object.
            let converted: ObjectValue
            do {
                converted = try value.objectValue(for: attribute, entity: object.entity.name)
            } catch ObjectGraphError.typeMismatch(_, _, let expected, let given) {
                throw EditorError(attribute.type.rangeProblem(given)
                                  ?? "expects \(expected), not \(given.typeName) \(ValidationFailure.render(given))")
            }
            let failures = object.validateValue(converted, forKey: key)
            if !failures.isEmpty { throw EditorError(ValidationError(failures: failures).message) }
            try object.setValue(converted, forKey: key)
        } else if let relationship = object.entity.relationship(named: key), !relationship.isToMany {
            guard case .text(let name) = value, !name.isEmpty else {
                try object.setValue(ObjectValue.null, forKey: key)
                return
            }
            let candidates = choices?() ?? []
            guard let i = CellValue.choiceLabels(for: candidates).firstIndex(of: name) else {
                throw ObjectGraphError.typeMismatch(entity: object.entity.name, key: key,
                                                    expected: relationship.destinationEntityName, value: .string(name))
            }
            try object.setValue(candidates[i], forKey: key)
        } else {
            throw ReadOnlyError()
        }
    }

    // MARK: Binding a table

    /// Keeps the table and the controller in step: the table's selection selects in the
    /// controller (and goes back when the controller refuses), the controller's changes
    /// and selection show in the table, and an edit in progress is the controller's editor.
    public func bind(_ table: TableView) {
        self.table = table
        let editor = TableEditor(table: table)
        self.editor = editor
        controller.registerEditor(editor)
        let previous = table.onSelectionChange
        // Weak: the table keeps this closure, and a table that kept itself would never go away.
        table.onSelectionChange = { [weak self, weak table] row in
            guard let self else { return }
            if self.controller.selectionIndex != row, !self.controller.setSelectionIndex(row) {
                if let selected = self.controller.selectionIndexes.first { table?.select(row: selected) }
            }
            previous?(row)
        }
        observation = controller.observe { [weak self, weak table] _ in
            guard let self, let table else { return }
            if let selected = self.controller.selectionIndexes.first, selected != table.state.selectedRow {
                table.select(row: selected)
            } else if table.state.selectedRow >= self.numberOfRows, self.numberOfRows > 0 {
                table.select(row: self.numberOfRows - 1)
            }
            table.window?.application?.setNeedsDisplay()
        }
        if let selected = controller.selectionIndexes.first { table.select(row: selected) }
    }
}

/// A table's cell edit, as seen by a controller.
final class TableEditor: Bindings.Editor {
    weak var table: TableView?

    init(table: TableView) { self.table = table }

    func commitEditing() -> Bool {
        guard let table, table.state.isEditing else { return true }
        return table.commitEditing()
    }

    func discardEditing() { table?.cancelEditing() }
}
