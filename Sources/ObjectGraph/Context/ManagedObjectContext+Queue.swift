import Foundation

extension ManagedObjectContext {
    /// Where a context may be used, as Core Data's concurrency types say.
    ///
    /// ```swift
    /// let background = ManagedObjectContext(coordinator: coordinator, concurrencyType: .privateQueue)
    /// let count = try await background.perform { try background.count(for: FetchRequest(entityName: "ToDo")) }
    /// ```
    public enum ConcurrencyType: Sendable, Equatable {
        /// The thread that makes the context, and no other; `perform` runs at once on it. What
        /// every context was before queues, and the default.
        case confined
        /// The main thread (the terminal's key loop): work from elsewhere reaches it through
        /// `perform`, which the main queue runs.
        case mainQueue
        /// A serial queue of its own: every use goes through `perform` or `performAndWait`.
        case privateQueue
    }

    /// Whether uses of contexts and their objects are checked to happen on the context's
    /// queue, trapping with the call's name when not. `TERMDATA_CONCURRENCY_DEBUG=1` turns
    /// the checks on and `=0` off; without it they are on in debug builds (and so in the
    /// tests) and off in release builds.
    public static let checksQueues: Bool = {
        switch ProcessInfo.processInfo.environment["TERMDATA_CONCURRENCY_DEBUG"] {
        case "1"?: return true
        case "0"?: return false
        default:
            #if DEBUG
            return true
            #else
            return false
            #endif
        }
    }()

    /// The key under which a private queue holds its context's token.
    static let queueKey = DispatchSpecificKey<Int>()

    /// What the main queue holds under `queueKey` (private queues' tokens start at 1).
    static let mainQueueToken = 0

    /// Marks the main queue with `mainQueueToken`, once: after `dispatchMain()` (as a test
    /// runner or a server calls it) the main queue's blocks, the main actor's work among them,
    /// run on other threads, and only the mark tells that they are on the main queue.
    static let markedMainQueue: Bool = {
        DispatchQueue.main.setSpecific(key: queueKey, value: mainQueueToken)
        return true
    }()

    /// Whether the calling thread may use the context now: its own thread, the main thread,
    /// a block its queue runs, or a block that such a block waits for in `performAndWait`.
    public var isOnQueue: Bool {
        switch concurrencyType {
        case .confined: return pthread_equal(owner, pthread_self()) != 0
        case .mainQueue:
            return Thread.isMainThread || DispatchQueue.getSpecific(key: Self.queueKey) == Self.mainQueueToken
                || HeldQueues.contains(Self.mainQueueToken)
        case .privateQueue:
            return DispatchQueue.getSpecific(key: Self.queueKey) == queueToken || HeldQueues.contains(queueToken)
        }
    }

    /// Traps, naming `call`, when the debug checks are on and the caller is off the
    /// context's queue.
    @inline(__always)
    func checkQueue(_ call: StaticString = #function) {
        if Self.checksQueues, !isOnQueue { offQueue(call) }
    }

    private func offQueue(_ call: StaticString) -> Never {
        let which: String
        switch concurrencyType {
        case .confined: which = "the thread that made it"
        case .mainQueue: which = "the main thread"
        case .privateQueue: which = "its private queue"
        }
        preconditionFailure("ManagedObjectContext\(name.map { " '\($0)'" } ?? ""): \(call) was called off the context's queue; "
                            + "a \(concurrencyType) context is used on \(which) (wrap the work in perform or performAndWait)")
    }

    /// Runs `body` on the context's queue and waits for it, returning its value or throwing
    /// its error. On the queue already, it runs at once (calls may nest).
    ///
    /// The queues the caller is on stay its own while `body` runs, as in Core Data: a
    /// private-queue child saved in `performAndWait` from the main thread pushes into its
    /// main-queue parent at once, and a block may use, through their own `performAndWait`,
    /// the contexts whose blocks wait for it.
    ///
    /// ```swift
    /// let names = try context.performAndWait { try context.fetch(request).compactMap { $0.string("name") } }
    /// ```
    public func performAndWait<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        if isOnQueue { return try body() }
        let result: Result<T, E>
        switch concurrencyType {
        case .confined:
            preconditionFailure("performAndWait on a confined context from a thread other than the one that made it; "
                                + "make the context with concurrencyType .privateQueue to use it from anywhere")
        case .mainQueue, .privateQueue:
            let held = HeldQueues.ofCallingThread()
            result = queue!.sync { HeldQueues.holding(held) { runningHere { Result(catching: body) } } }
        }
        return try result.get()
    }

    /// Runs a block of the queue, noting its thread for `interruptWork()`.
    private func runningHere<T>(_ body: () throws -> T) rethrows -> T {
        runningThread.withLock { $0 = .current }
        defer { runningThread.withLock { $0 = nil } }
        return try body()
    }

    /// Stops the store statement that the context's queue runs now, if any, from any
    /// thread: the fetch or count fails as interrupted (the store's error) and the queue
    /// goes on to its next block. Work on other contexts' queues goes on. Returns whether a
    /// block was running to be stopped.
    ///
    /// ```swift
    /// background.perform { count = try? background.count(for: slowRequest) }
    /// // when the user gives up:
    /// background.interruptWork()
    /// ```
    @discardableResult
    public func interruptWork() -> Bool {
        let thread: WorkThread? = concurrencyType == .confined ? confinedThread : runningThread.withLock { $0 }
        guard let thread else { return false }
        coordinator.interruptWork(onThread: thread)
        return true
    }

    /// Runs `body` on the context's queue and returns its value, or throws its error, when
    /// it has run. The closure may use the context and its objects; what it returns must be
    /// `Sendable` (object IDs, values), never an object.
    ///
    /// ```swift
    /// let ids = try await background.perform { try background.fetchObjectIDs(request) }
    /// ```
    public func perform<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            schedule { continuation.resume(returning: Result(catching: body)) }
        }
        return try result.get()
    }

    /// Runs `body` on the context's queue later, and returns at once.
    public func perform(_ body: @escaping @Sendable () -> Void) {
        schedule(body)
    }

    private func schedule(_ body: @escaping @Sendable () -> Void) {
        switch concurrencyType {
        case .confined:
            precondition(isOnQueue, "perform on a confined context from a thread other than the one that made it; "
                         + "make the context with concurrencyType .privateQueue to use it from anywhere")
            body()
        case .mainQueue, .privateQueue: queue!.async { self.runningHere(body) }
        }
    }
}
