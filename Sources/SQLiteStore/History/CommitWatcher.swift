import Foundation
import GRDB
import ObjectGraph
import Synchronization

/// Notices commits to a store file by any other connection, in this process or another:
/// a thread of its own asks a connection of its own for SQLite's `data_version`, which
/// changes whenever another connection has committed. It asks when the system says a file
/// in the store's folder was written (inotify: a commit is noticed within a millisecond or
/// two), and ten times a second whatever it says.
final class CommitWatcher: Sendable {
    /// How often the file is asked without a word from the system, in seconds.
    static let interval = 0.1
    /// After a write, the file is asked this many more times, this often, until it changed.
    static let settleLooks = 10
    static let settleInterval = 0.002

    private final class Flag: Sendable {
        let raised = Atomic<Bool>(false)
    }

    private let stopped = Flag()
    private let finished = DispatchSemaphore(value: 0)

    /// Starts watching. `fileStray` files changes that other programs' plain SQL left
    /// without a transaction (for a store that may write), and `token` reads the store's
    /// token; `handler` gets it after each commit.
    init(reader: DatabaseQueue, folder: String, fileStray: (@Sendable () -> Void)?, token: @escaping @Sendable (Database) throws -> HistoryToken,
         handler: @escaping @Sendable (HistoryToken) -> Void) {
        let thread = Thread { [stopped, finished] in
            defer { finished.signal() }
            let writes = FolderWrites(folder)
            var last = try? reader.read { try Int.fetchOne($0, sql: "PRAGMA data_version") }
            // Looks left soon after a write: a commit ends in the WAL index, shared memory the
            // system reports no write to, a moment after its last write to the WAL.
            var settling = 0
            while !stopped.raised.load(ordering: .relaxed) {
                if settling > 0 {
                    settling -= 1
                    Thread.sleep(forTimeInterval: Self.settleInterval)
                } else if let writes {
                    if writes.wait(timeout: Self.interval) { settling = Self.settleLooks }
                } else {
                    Thread.sleep(forTimeInterval: Self.interval)
                }
                if stopped.raised.load(ordering: .relaxed) { break }
                guard let version = try? reader.read({ try Int.fetchOne($0, sql: "PRAGMA data_version") }), version != last else { continue }
                last = version
                settling = 0
                if let fileStray {
                    fileStray()
                    // Filing them is a commit of this store's own writer: seen next time round.
                    last = try? reader.read { try Int.fetchOne($0, sql: "PRAGMA data_version") }
                }
                guard let current = try? reader.read(token) else { continue }
                handler(current)
            }
            try? reader.close()
        }
        thread.name = "termdata.commit-watcher"
        thread.start()
    }

    /// Stops the watch and waits for its thread to end.
    func stop() {
        guard !stopped.raised.exchange(true, ordering: .relaxed) else { return }
        finished.wait()
    }
}

/// Writes to the files of a folder, as the system reports them (inotify): a commit writes
/// the store's WAL, which may be made anew, so the folder is watched rather than the file.
/// Used by one thread.
private final class FolderWrites {
    private let descriptor: Int32

    /// nil where the system cannot watch the folder; the watch then looks at its interval.
    init?(_ folder: String) {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        guard inotify_add_watch(descriptor, folder, UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE)) >= 0 else {
            close(descriptor)
            return nil
        }
    }

    deinit { close(descriptor) }

    /// Whether a file of the folder was written within `timeout` seconds (returning as soon
    /// as one is); what the system reported is read and dropped.
    func wait(timeout: Double) -> Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&request, 1, Int32(timeout * 1000)) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        return true
    }
}

extension SQLiteStore {
    public func watchCommits(_ handler: @escaping @Sendable (HistoryToken) -> Void) throws -> @Sendable () -> Void {
        guard let url else { return {} }   // in memory, nobody else writes
        var configuration = Configuration()
        configuration.readonly = true
        let reader = try DatabaseQueue(path: isReadOnly ? Self.readOnlyPath(url) : url.path, configuration: configuration)
        let identifier = self.identifier
        let writer = database
        let history = historySchema
        let fileStray: (@Sendable () -> Void)? = historyState.enabled ? { @Sendable in
            _ = try? writer.inTransaction(.immediate) { db in
                if try db.tableExists(HistorySchema.changeTable) { try Self.fileStrayChanges(history: history, in: db) }
                return .commit
            }
        } : nil
        let watcher = CommitWatcher(reader: reader, folder: url.deletingLastPathComponent().path, fileStray: fileStray, token: { db in
            guard try db.tableExists(HistorySchema.transactionTable) else { return HistoryToken([identifier: 0]) }
            return HistoryToken([identifier: try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(Z_PK), 0) FROM ATRANSACTION") ?? 0])
        }, handler: handler)
        return { watcher.stop() }
    }
}
