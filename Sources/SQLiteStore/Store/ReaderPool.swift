import Foundation
import GRDB
import ObjectGraph

/// Connections that only read, beside the store's one connection that writes: contexts on
/// several threads read at once, and none waits for a save in progress (in WAL mode a
/// reader sees the last commit). A connection is opened when a read finds none idle, up to
/// `size`; a read beyond that waits for one to come back.
final class ReaderPool: Sendable {
    /// The most connections open at once.
    static let size = 4

    private let open: @Sendable () throws -> DatabaseQueue
    // A lock and the state it guards rather than a `Mutex`: unsafe only in name, since every
    // read and write goes through `withState`. ThreadSanitizer on this toolchain reports a
    // `Mutex`'s own accesses from two threads as a race though the lock holds (seen here in
    // the concurrency suites; the coordinator's registries do the same for that reason).
    private let lock = NSLock()
    nonisolated(unsafe) private var state = State()
    private let free = DispatchSemaphore(value: ReaderPool.size)

    private struct State {
        var idle: [DatabaseQueue] = []
        /// Connections in use, with the thread using each.
        var busy: [(thread: WorkThread, connection: DatabaseQueue)] = []
        var isClosed = false
        /// What every connection reports its statements to, when set (`trace`).
        var trace: (@Sendable (String) -> Void)?
    }

    init(open: @escaping @Sendable () throws -> DatabaseQueue) {
        self.open = open
    }

    /// Runs `body` with the state to itself.
    private func withState<T>(_ body: (inout State) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }

    /// Runs `body` on an idle connection, opening one when none is.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        free.wait()
        defer { free.signal() }
        let connection = try withState { $0.idle.popLast() } ?? opened()
        withState { $0.busy.append((WorkThread.current, connection)) }
        defer {
            withState { state in
                state.busy.removeAll { $0.connection === connection }
                if state.isClosed { try? connection.close() } else { state.idle.append(connection) }
            }
        }
        return try connection.inDatabase(body)
    }

    /// A new connection, reporting to the trace when one is set.
    private func opened() throws -> DatabaseQueue {
        let connection = try open()
        if let trace = withState({ $0.trace }) { connection.inDatabase { $0.trace { trace("\($0)") } } }
        return connection
    }

    /// Reports every statement of every connection to `handler`, or stops reporting (`nil`).
    func trace(_ handler: (@Sendable (String) -> Void)?) {
        let idle = withState { state in
            state.trace = handler
            return state.idle
        }
        for connection in idle {
            connection.inDatabase { db in
                if let handler { db.trace { handler("\($0)") } } else { db.trace(options: []) }
            }
        }
    }

    /// Stops the statements running on the connections in use, or on the one `thread` uses.
    /// Under the lock, a connection cannot go back to the pool (and to another thread's
    /// statement) while it is told.
    func interrupt(thread: WorkThread? = nil) {
        withState { state in
            for (user, connection) in state.busy where thread == nil || user == thread { connection.interrupt() }
        }
    }

    /// Closes the idle connections now and the busy ones as their reads end.
    func close() {
        let idle = withState { state in
            state.isClosed = true
            defer { state.idle = [] }
            return state.idle
        }
        for connection in idle { try? connection.close() }
    }
}
