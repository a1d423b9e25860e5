import Foundation
import ObjectGraph
import Predicates

/// A ToDo item. A new due date clears the item's alert mark, so that the item alerts for
/// the new date even when it alerted for the old one (`DueItemAlerts`).
public final class ToDoItem: ManagedObject {
    public override func didChangeValue(forKey key: String) {
        guard key == ToDoKeys.dueDate, date(ToDoKeys.lastAlertDate) != nil else { return }
        self[ToDoKeys.lastAlertDate] = .null
    }

    public override func validationReason(for value: ObjectValue, forKey key: String) -> String? {
        key == ToDoKeys.name ? ToDoNames.blankReason(value) : nil
    }
}

/// A category of ToDo items.
public final class ToDoCategory: ManagedObject {
    public override func validationReason(for value: ObjectValue, forKey key: String) -> String? {
        key == ToDoKeys.name ? ToDoNames.blankReason(value) : nil
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
