import Foundation

/// What a context tells its observers.
public enum ContextNotification {
    /// After `processPendingChanges`, the objects inserted, updated and deleted in the event.
    case objectsDidChange(ObjectChanges)
    /// Immediately before a save writes to the stores.
    case willSave
    /// After a successful save, the objects it wrote.
    case didSave(ContextDidSave)
}

/// The objects one event changed.
public struct ObjectChanges {
    /// Objects inserted into the context in the event.
    public var inserted: [ManagedObject]
    /// Objects whose values changed in the event.
    public var updated: [ManagedObject]
    /// Objects deleted from the context in the event.
    public var deleted: [ManagedObject]
    /// Objects whose values were reloaded (refresh, merge).
    public var refreshed: [ManagedObject]
    /// Objects that left the context.
    public var invalidated: [ManagedObject]
    /// Whether the context was reset and every object left it.
    public var invalidatedAll: Bool
    /// Objects that a merge changed or deleted and that this context did not have in memory,
    /// and the new objects of a merge too large to announce one by one: results that may
    /// hold them (a fetched-results controller's windows) read again.
    public var mergedObjectIDs: [ManagedObjectID] = []
}

/// What a save wrote, as object IDs so that another context, on another thread, can
/// merge it.
public struct ContextDidSave: Sendable {
    /// The IDs of the objects the save inserted.
    public var inserted: [ManagedObjectID]
    /// The IDs of the objects whose changes the save wrote.
    public var updated: [ManagedObjectID]
    /// The IDs of the objects the save deleted.
    public var deleted: [ManagedObjectID]
    /// The context that saved, so that it does not merge its own save.
    var savedBy: Int?
    /// The permanent IDs of inserted objects by the temporary IDs they had, for child
    /// contexts that knew them unsaved.
    var rekeyed: [ManagedObjectID: ManagedObjectID] = [:]
    /// The history transaction the save recorded in each store that keeps history, by store
    /// identifier: a context that merges this notice skips them when it merges history.
    var transactions: [String: Int64] = [:]

    /// A save notice from the IDs of the objects inserted, updated and deleted.
    public init(inserted: [ManagedObjectID], updated: [ManagedObjectID], deleted: [ManagedObjectID]) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    /// Whether the save wrote no object.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}

/// A registered observer; `cancel()` stops the notifications.
public final class ContextObservation {
    private let link: ContextLink
    private let id: UUID

    init(context: ManagedObjectContext, id: UUID) {
        self.link = context.link
        self.id = id
    }

    /// Stops the notifications: the handler is not called again. Does nothing once the context is
    /// gone.
    public func cancel() { link.context?.observers[id] = nil }
}

extension ManagedObjectContext {
    /// Calls `handler` with every notification the context posts, on the context's thread.
    ///
    /// ```swift
    /// let observation = context.observe { note in
    ///     if case .objectsDidChange(let changes) = note { table.reload(changes) }
    /// }
    /// ```
    @discardableResult
    public func observe(_ handler: @escaping (ContextNotification) -> Void) -> ContextObservation {
        let id = UUID()
        observers[id] = handler
        return ContextObservation(context: self, id: id)
    }

    func post(_ notification: ContextNotification) {
        for handler in observers.values { handler(notification) }
    }
}
