import Foundation
import ObjectGraph

/// A ToDo item. A new due date clears the item's alert mark, so that the item alerts for
/// the new date even when it alerted for the old one (`DueItemAlerts`).
public final class ToDoItem: ManagedObject {
    public override func didChangeValue(forKey key: String) {
        guard key == ToDoKeys.dueDate, date(ToDoKeys.lastAlertDate) != nil else { return }
        self[ToDoKeys.lastAlertDate] = .null
    }
}
