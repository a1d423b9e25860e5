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
    /// The watch's own thread: stopped from there (a handler let go of the last observer),
    /// it cannot wait for itself.
    private let watcherThread = ThreadID()

    private final class ThreadID: Sendable {
        let value = Atomic<UInt>(0)
    }

    /// Starts watching. `fileStray` files changes that other programs' plain SQL left
    /// without a transaction (for a store that may write), and `token` reads the store's
    /// token; `handler` gets it after each commit.
    init(reader: DatabaseQueue, storeFile: URL, fileStray: (@Sendable () -> Void)?, token: @escaping @Sendable (Database) throws -> HistoryToken,
         handler: @escaping @Sendable (HistoryToken) -> Void) {
        let thread = Thread { [stopped, finished, watcherThread] in
            defer { finished.signal() }
            watcherThread.value.store(UInt(pthread_self()), ordering: .releasing)
            let writes = FolderWrites(storeFile: storeFile)
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
        guard watcherThread.value.load(ordering: .acquiring) != UInt(pthread_self()) else { return }
        finished.wait()
    }
}

/// Writes to a store's files (the database, its WAL and journal), as the system reports them
/// (inotify): the folder is watched, since the WAL may be made anew, and events for other
/// files in it are dropped. Used by one thread.
private final class FolderWrites {
    private let descriptor: Int32
    private let name: String

    /// nil where the system cannot watch the folder; the watch then looks at its interval.
    init?(storeFile: URL) {
        // SQLite keeps the WAL beside the file a link points at.
        let file = storeFile.resolvingSymlinksInPath()
        name = file.lastPathComponent
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        guard inotify_add_watch(descriptor, file.deletingLastPathComponent().path,
                                UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE)) >= 0 else {
            close(descriptor)
            return nil
        }
    }

    deinit { close(descriptor) }

    /// Whether one of the store's files was written within `timeout` seconds (returning as
    /// soon as one is).
    func wait(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let left = deadline.timeIntervalSinceNow
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard left > 0, poll(&request, 1, Int32((left * 1000).rounded(.up))) > 0 else { return false }
            if readEvents() { return true }
        }
    }

    /// Reads what the system reported; whether any of it names one of the store's files.
    private func readEvents() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var ours = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return ours }
            // Each event: wd (4 bytes), mask (4), cookie (4), len (4), then len bytes of name, NUL-padded.
            var offset = 0
            while offset + 16 <= count {
                let length = buffer.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)) }
                let bytes = buffer[(offset + 16)..<min(count, offset + 16 + length)]
                let written = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                if written == name || written.hasPrefix(name + "-") { ours = true }
                offset += 16 + length
            }
        }
    }
}

extension SQLiteStore {
    public func watchCommits(_ handler: @escaping @Sendable (HistoryToken) -> Void) throws -> @Sendable () -> Void {
        guard let url else { return {} }   // in memory, nobody else writes
        let reader = try DatabaseQueue(path: isReadOnly ? Self.readOnlyPath(url) : url.path,
                                       configuration: Self.connectionConfiguration(readOnly: true))
        let identifier = self.identifier
        let writer = database
        let history = historySchema
        let fileStray: (@Sendable () -> Void)? = historyState.enabled ? { @Sendable in
            _ = try? writer.inTransaction(.immediate) { db in
                if try db.tableExists(HistorySchema.changeTable) { try Self.fileStrayChanges(history: history, in: db) }
                return .commit
            }
        } : nil
        let watcher = CommitWatcher(reader: reader, storeFile: url, fileStray: fileStray, token: { db in
            guard try db.tableExists(HistorySchema.transactionTable) else { return HistoryToken([identifier: 0]) }
            return HistoryToken([identifier: try Self.lastTransactionNumber(in: db)])
        }, handler: handler)
        return { watcher.stop() }
    }
}
