import Foundation

/// Observers of the saves made through the coordinator.
extension PersistentStoreCoordinator {
    /// Calls `handler` after every successful save through this coordinator, on the saving
    /// thread, so other contexts can merge it.
    @discardableResult
    public func observeSaves(_ handler: @escaping @Sendable (ContextDidSave) -> Void) -> UUID {
        let id = UUID()
        locked { saveObservers[id] = handler }
        return id
    }

    /// Stops a save observer.
    public func removeSaveObserver(_ id: UUID) {
        locked { saveObservers[id] = nil }
    }

    func didSave(_ save: ContextDidSave) {
        let handlers = locked { Array(saveObservers.values) }
        for handler in handlers { handler(save) }
    }
}
