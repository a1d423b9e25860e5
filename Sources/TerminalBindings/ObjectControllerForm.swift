import Foundation
import Bindings
import ObjectGraph
import ObjectModel
import Predicates
import TerminalUI

/// Form fields bound to an object controller: a detail form for an array controller's
/// selection. Fields show "No selection" or "Multiple values" when that is the case, and
/// edits are validated before they are set on every selected object.
///
/// With `holdsEdits`, and as the form's `session`, the binding holds the form's edits in a
/// child context of the controller's: the first edit makes it, the fields show its values,
/// committing pushes every edit into the controller's context at once (one undo step there),
/// and discarding drops the child. Without, each edit is set on the selection at once.
///
/// ```swift
/// let detail = ObjectControllerForm(controller: ObjectController(selectionOf: items), holdsEdits: true)
/// let form = FormView(fields: [detail.field("name", label: "Name"), detail.field("dueDate", label: "Due")])
/// form.session = detail
/// ```
public final class ObjectControllerForm: FormEditSession {
    public let controller: ObjectController
    /// Whether edits wait in a child context until committed.
    public let holdsEdits: Bool
    /// The child context holding the form's edits, from the first edit to a commit or discard.
    public private(set) var editing: ManagedObjectContext?
    /// The selected objects as the child has them.
    private var edited: [ManagedObject] = []

    public init(controller: ObjectController, holdsEdits: Bool = false) {
        self.controller = controller
        self.holdsEdits = holdsEdits
    }

    public var hasEdits: Bool {
        guard let editing else { return false }
        editing.processPendingChanges()
        return editing.hasChanges
    }

    /// Pushes the held edits into the controller's context.
    ///
    /// - Throws: the child's save error (validation, or a conflict its merge policy does not
    ///   resolve); the edits stay held.
    public func commitEdits() throws {
        guard let editing else { return }
        if editing.hasChanges { try editing.save() }
        discardEdits()
    }

    public func discardEdits() {
        editing = nil
        edited = []
    }

    /// The selection as the form edits it: the child's copies once an edit began.
    private var editedObjects: [ManagedObject] {
        if editing != nil { return edited }
        return controller.selectedObjects
    }

    /// The child's copies of the selected objects, made at the first edit.
    private func beginEditing() -> (ManagedObjectContext, [ManagedObject]) {
        if let editing { return (editing, edited) }
        let child = ManagedObjectContext(parent: controller.arrayController.context)
        child.name = "form"
        // The form's own edits win over changes merged into the parent meanwhile, field by field.
        child.mergePolicy = .mergeByPropertyObjectTrump
        editing = child
        edited = controller.selectedObjects.map { child.object(with: $0.objectID) }
        return (child, edited)
    }

    /// A field for a key: its editor follows the attribute's type, or a choice among
    /// `choices` for a to-one relationship. The field keeps this binding alive.
    public func field(_ key: String, label: String, format: ValueFormat? = nil,
                      choices: (() -> [ManagedObject])? = nil) -> FormField {
        let entity = controller.arrayController.context.model.entity(named: controller.arrayController.entityName)
        var editor: EditorKind = .readOnly
        // The objects listed now, so that a label picks the object it was shown for even
        // after names change (an unsaved object's name gains its key on saving).
        var listed: [ManagedObject] = []
        var labels: [String] = []
        if let attribute = entity?.attribute(named: key) {
            editor = EditorKind(for: attribute)
        } else if let relationship = entity?.relationship(named: key), !relationship.isToMany, let choices {
            listed = choices()
            labels = CellValue.choiceLabels(for: listed)
            editor = .choice([""] + labels)
        }
        var field = FormField(key, label: label, editor: editor, format: format,
                              get: { self.cellValue(key) },
                              set: { value in
                                  if case .text(let name) = value, let i = labels.firstIndex(of: name), !listed[i].isDeleted {
                                      try self.set(value, key: key, choices: { listed })
                                  } else {
                                      try self.set(value, key: key, choices: choices)
                                  }
                              })
        field.isChanged = { self.editedObjects.contains { $0.hasUnsavedValue(forKey: key) } }
        return field
    }

    /// What a field shows for a key.
    public func cellValue(_ key: String) -> CellValue {
        let value = editing == nil ? controller.value(forKeyPath: key) : ObjectController.value(of: edited, forKeyPath: key)
        switch value {
        case .noSelection: return .text("No selection")
        case .multipleValues: return .text("Multiple values")
        case .notApplicable: return .empty
        case .value(.data(let bytes)):
            // One transformable value shows as what it holds, as the table shows it.
            let objects = editing == nil ? controller.selectedObjects : edited
            guard objects.count == 1, let object = objects.first else { return CellValue(.data(bytes)) }
            return CellValue(object, keyPath: key)
        case .value(let v): return CellValue(v)
        }
    }

    private func set(_ value: CellValue, key: String, choices: (() -> [ManagedObject])?) throws {
        guard !controller.selectedObjects.isEmpty || editing != nil else { throw ControllerError.nothingSelected }
        guard holdsEdits else {
            for object in controller.selectedObjects {
                try ArrayControllerTableSource.set(value, on: object, key: key, choices: choices)
            }
            return
        }
        let (child, objects) = beginEditing()
        // The choices are the parent's objects; the child's copies take their place.
        let copies = choices.map { list in { list().map { child.object(with: $0.objectID) } } }
        for object in objects {
            try ArrayControllerTableSource.set(value, on: object, key: key, choices: copies)
        }
    }
}
