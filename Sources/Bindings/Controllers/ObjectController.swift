import Foundation
import ObjectGraph
import ObjectModel
import Predicates

/// The selection of an array controller as one editable object: what a detail form binds to.
///
/// Reading a key path gives the value, or says there is no selection or several
/// selected objects with different values. Writing validates the value first and sets it
/// on every selected object.
///
/// ```swift
/// let detail = ObjectController(selectionOf: items)
/// if case .value(let name) = detail.value(forKeyPath: "name") { field.text = name.stringValue }
/// try detail.setValue("Renamed", forKeyPath: "name")
/// ```
public final class ObjectController {
    /// What a field bound to a key path shows.
    public enum SelectionValue: Equatable {
        /// Nothing is selected.
        case noSelection
        /// Several objects are selected and their values differ.
        case multipleValues
        /// The selected objects have no such key.
        case notApplicable
        /// The value (the same for every selected object).
        case value(ObjectValue)
    }

    /// The array controller whose selection this controller edits.
    public let arrayController: ArrayController

    /// A controller over the selection of an array controller.
    public init(selectionOf arrayController: ArrayController) {
        self.arrayController = arrayController
    }

    /// The selected objects.
    public var selectedObjects: [ManagedObject] { arrayController.selectedObjects }

    /// The single selected object, if exactly one is selected.
    public var content: ManagedObject? {
        let selected = selectedObjects
        return selected.count == 1 ? selected[0] : nil
    }

    /// The value the selection has at a key path.
    public func value(forKeyPath keyPath: String) -> SelectionValue {
        Self.value(of: selectedObjects, forKeyPath: keyPath)
    }

    /// The value some objects have at a key path, as a selection of them would show it.
    public static func value(of selected: [ManagedObject], forKeyPath keyPath: String) -> SelectionValue {
        guard let first = selected.first else { return .noSelection }
        guard let value = try? first.value(forKeyPath: keyPath) else { return .notApplicable }
        for other in selected.dropFirst() {
            guard let v = try? other.value(forKeyPath: keyPath), v == value else { return .multipleValues }
        }
        return .value(value)
    }

    /// Whether a key can be edited: something is selected and the key is an attribute or
    /// a to-one relationship of every selected object.
    public func isEditable(keyPath: String) -> Bool {
        let selected = selectedObjects
        guard !selected.isEmpty, arrayController.isEditable, !keyPath.contains(".") else { return false }
        return selected.allSatisfy { o in
            o.entity.attribute(named: keyPath) != nil || (o.entity.relationship(named: keyPath).map { !$0.isToMany } ?? false)
        }
    }

    /// Sets a value on every selected object after checking it against the model's rules
    /// (type, required, bounds, length, pattern).
    ///
    /// - Throws: `ValidationError` or `ObjectGraphError.typeMismatch`, with nothing changed.
    public func setValue(_ value: any ObjectValueConvertible, forKeyPath keyPath: String) throws {
        let value = value.objectValue
        let selected = selectedObjects
        guard !selected.isEmpty else { throw ControllerError.nothingSelected }
        var failures: [ValidationFailure] = []
        for object in selected {
            if let attribute = object.entity.attribute(named: keyPath) {
                guard let coerced = attribute.type.coerce(value) else {
                    throw ObjectGraphError.typeMismatch(entity: object.entity.name, key: keyPath,
                                                        expected: attribute.type.xcodeName, value: value)
                }
                failures += object.validateValue(coerced, forKey: keyPath)
            }
        }
        if !failures.isEmpty { throw ValidationError(failures: failures) }
        for object in selected { try object.setValue(value, forKey: keyPath) }
    }
}
