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
        let thread = WorkThread.current
        withInterruptionState { $0.sections[thread, default: 0] += 1 }
        defer {
            withInterruptionState { state in
                state.sections[thread, default: 1] -= 1
                if state.sections[thread] == 0 {
                    state.sections[thread] = nil
                    state.stopped.remove(thread)
                }
            }
        }
        return try body()
    }

    /// Stops the store work running inside `interruptibly`, if any; from any thread. The
    /// statement running now fails, and so does every read the section starts after it
    /// (`ObjectGraphError.stopped`): work that goes on in memory between two queries ends at
    /// its next one. Returns whether work was running to be stopped.
    @discardableResult
    public func interruptWork() -> Bool {
        // Under the lock the section cannot end (and a save begin) while the stores are told.
        withInterruptionState { state in
            guard !state.sections.isEmpty else { return false }
            state.stopped.formUnion(state.sections.keys)
            for store in state.stores { store.interrupt() }
            return true
        }
    }

    /// Throws `ObjectGraphError.stopped` when the calling thread's interruptible work was
    /// stopped: its further reads are refused until the section ends.
    func checkNotStopped() throws {
        let thread = WorkThread.current
        if withInterruptionState({ !$0.stopped.isEmpty && $0.stopped.contains(thread) }) { throw ObjectGraphError.stopped }
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
    /// The threads inside `interruptibly`, with how deep.
    var sections: [WorkThread: Int] = [:]
    /// The threads whose section was stopped; their reads are refused until it ends.
    var stopped: Set<WorkThread> = []
    var stores: [any PersistentStore] = []
}
