import Foundation

extension PersistentStoreCoordinator {
    /// Runs `body` as work another thread may stop with `interruptWork()`: a fetch behind a
    /// filter typed in an application, say. Work outside such a section (a save on quit) is
    /// never interrupted.
    ///
    /// ```swift
    /// try coordinator.interruptibly { try controller.fetch() }
    /// // on another thread, when the user gives up:
    /// coordinator.interruptWork()
    /// ```
    public func interruptibly<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        withInterruptionState { $0.depth += 1 }
        defer { withInterruptionState { $0.depth -= 1 } }
        return try body()
    }

    /// Stops the store statement running inside `interruptibly`, if one is; from any thread.
    /// Returns whether work was running to be stopped.
    @discardableResult
    public func interruptWork() -> Bool {
        // Under the lock the section cannot end (and a save begin) while the stores are told.
        withInterruptionState { state in
            guard state.depth > 0 else { return false }
            for store in state.stores { store.interrupt() }
            return true
        }
    }
}

extension PersistentStoreCoordinator {
    /// Stops the store statement one thread runs now, if any: a context's queue, for
    /// `ManagedObjectContext.interruptWork()`. Other threads' work goes on.
    public func interruptWork(onThread thread: WorkThread) {
        withInterruptionState { state in
            for store in state.stores { store.interrupt(thread: thread) }
        }
    }
}

/// Which stores the coordinator has and whether interruptible work runs, behind a lock of
/// its own: `interruptWork()` must not wait for the coordinator's lock, which the running
/// work holds.
struct InterruptionState {
    var depth = 0
    var stores: [any PersistentStore] = []
}
