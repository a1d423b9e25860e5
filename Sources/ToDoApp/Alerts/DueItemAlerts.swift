import Foundation
import ObjectGraph
import Predicates

/// Finds the items to alert for and marks them alerted: those due in the next five
/// minutes, as in the versioning article's version-2 query, and those already overdue.
///
/// The article's query alerts only for items coming due while the application runs: an item
/// that came due while it was closed would never alert. Here an item alerts once for its due
/// date — when it comes due, or at the first check after that — unless it is completed or
/// marked not to alert. A new due date clears the mark (`ToDoItem`), so it alerts again.
public struct DueItemAlerts {
    /// How far ahead an item counts as due; an alert this long before the due date counts
    /// as the alert for that date.
    public var window: TimeInterval = 5 * 60

    public init() {}

    /// The items that may need an alert, for the store to find: due by the end of the
    /// window, not completed, not marked, and not alerted since their due date.
    ///
    /// A predicate cannot subtract a time from a date, so the last condition is the
    /// coarser `lastAlertDate < dueDate`; `needsAlert` finishes the choice.
    public func predicate(now: Date) throws -> ObjectPredicate {
        let end = now.addingTimeInterval(window)
        return try ObjectPredicate(#Predicate<ToDoItem> { item in
            item.dueDate! <= end && !item.doNotAlert && !item.completed
                && (item.lastAlertDate == nil || item.lastAlertDate! < item.dueDate!)
        })
    }

    /// Whether an item the predicate found has not alerted for its due date yet: never, or
    /// before its window opened.
    public func needsAlert(_ item: ToDoItem) -> Bool {
        guard let due = item.dueDate else { return false }
        guard let last = item.lastAlertDate else { return true }
        return last < due.addingTimeInterval(-window)
    }

    /// The items to alert for, earliest first, each given `lastAlertDate = now` so that it
    /// alerts once. The marks are not undoable: undo takes back what the user did.
    public func takeDueItems(in context: ManagedObjectContext, now: Date) throws -> [ToDoItem] {
        let request = FetchRequest<ToDoItem>(predicate: try predicate(now: now), sortDescriptors: [try ObjectSortDescriptor(SortDescriptor(\ToDoItem.dueDate))])
        let items = try context.fetch(request).filter(needsAlert)
        guard !items.isEmpty else { return [] }
        context.processPendingChanges()
        context.undoManager?.disableUndoRegistration()
        defer {
            context.processPendingChanges()
            context.undoManager?.enableUndoRegistration()
        }
        for item in items { item.lastAlertDate = now }
        return items
    }
}
