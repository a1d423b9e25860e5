import Foundation
import ObjectGraph
import Predicates

/// A ToDo item (entity ToDo). Its properties are generated from the bundled model by the
/// TermDataClasses build plugin (the entity's code generation is "category"); this class adds
/// behaviour: a new due date clears the item's alert mark, so that the item alerts for the new
/// date even when it alerted for the old one (`DueItemAlerts`).
public final class ToDoItem: ManagedObject {
    // Looked up once: every change to every item asks.
    private static let dueDateKey = modelKey(\.dueDate), nameKey = modelKey(\.name)

    public override func didChangeValue(forKey key: String) {
        guard key == Self.dueDateKey, lastAlertDate != nil else { return }
        lastAlertDate = nil
    }

    public override func validationReason(for value: ObjectValue, forKey key: String) -> String? {
        key == Self.nameKey ? ToDoNames.blankReason(value) : nil
    }
}

/// A category of ToDo items (entity Category), its properties generated as ToDoItem's are.
public final class ToDoCategory: ManagedObject {
    private static let nameKey = modelKey(\.name)

    public override func validationReason(for value: ObjectValue, forKey key: String) -> String? {
        key == Self.nameKey ? ToDoNames.blankReason(value) : nil
    }
}

enum ToDoNames {
    /// A name of only spaces reads as no name in the table and the category panel, but the
    /// model's minimum length counts spaces; an empty name is the model's to refuse.
    static func blankReason(_ value: ObjectValue) -> String? {
        guard case .string(let s) = value, !s.isEmpty,
              s.allSatisfy({ $0.isWhitespace }) else { return nil }
        return "cannot be only spaces"
    }
}
