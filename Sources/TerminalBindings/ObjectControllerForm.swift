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
/// ```swift
/// let detail = ObjectControllerForm(controller: ObjectController(selectionOf: items))
/// let form = FormView(fields: [detail.field("name", label: "Name"), detail.field("dueDate", label: "Due")])
/// ```
public final class ObjectControllerForm {
    public let controller: ObjectController

    public init(controller: ObjectController) {
        self.controller = controller
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
        return FormField(key, label: label, editor: editor, format: format,
                         get: { self.cellValue(key) },
                         set: { value in
                             if case .text(let name) = value, let i = labels.firstIndex(of: name), !listed[i].isDeleted {
                                 try self.set(value, key: key, choices: { listed })
                             } else {
                                 try self.set(value, key: key, choices: choices)
                             }
                         })
    }

    /// What a field shows for a key.
    public func cellValue(_ key: String) -> CellValue {
        switch controller.value(forKeyPath: key) {
        case .noSelection: return .text("No selection")
        case .multipleValues: return .text("Multiple values")
        case .notApplicable: return .empty
        case .value(let v): return CellValue(v)
        }
    }

    private func set(_ value: CellValue, key: String, choices: (() -> [ManagedObject])?) throws {
        let selected = controller.selectedObjects
        guard !selected.isEmpty else { throw ControllerError.nothingSelected }
        for object in selected {
            try ArrayControllerTableSource.set(value, on: object, key: key, choices: choices)
        }
    }
}
