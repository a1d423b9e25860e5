import Foundation
import ObjectGraph
import Predicates

/// Finds the items due in the next five minutes that have not alerted in the last five —
/// the versioning article's version-2 query — and marks them alerted.
public struct DueItemAlerts {
    /// How far ahead an item counts as due, and how long before it may alert again.
    public var window: TimeInterval = 5 * 60

    public init() {}

    /// The article's predicate, with completed items left out: an item already done needs no alert.
    public func predicate(now: Date) throws -> ObjectPredicate {
        try ObjectPredicate(
            format: "dueDate >= %@ AND dueDate <= %@ AND doNotAlert == NO AND completed == NO AND (lastAlertDate == nil OR lastAlertDate < %@)",
            now, now.addingTimeInterval(window), now.addingTimeInterval(-window))
    }

    /// The due items, earliest first, each given `lastAlertDate = now` so it alerts once.
    public func takeDueItems(in context: ManagedObjectContext, now: Date) throws -> [ManagedObject] {
        let request = FetchRequest(entityName: ToDoKeys.toDo, predicate: try predicate(now: now),
                                   sortDescriptors: [ObjectSortDescriptor(key: ToDoKeys.dueDate)])
        let items = try context.fetch(request)
        for item in items { try item.setValue(now, forKey: ToDoKeys.lastAlertDate) }
        return items
    }
}
