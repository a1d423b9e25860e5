import Foundation
import GRDB
import ObjectGraph
import Synchronization

/// Notices commits to a store file by any other connection, in this process or another:
/// a thread of its own asks a connection of its own for SQLite's `data_version` ten times a
/// second, which changes whenever another connection has committed.
final class CommitWatcher: Sendable {
    /// How often the file is asked, in seconds: a commit is noticed within this, plus the
    /// time to read the new token.
    static let interval = 0.1

    private final class Flag: Sendable {
        let raised = Atomic<Bool>(false)
    }

    private let stopped = Flag()
    private let finished = DispatchSemaphore(value: 0)

    /// Starts watching. `fileStray` files changes that other programs' plain SQL left
    /// without a transaction (for a store that may write), and `token` reads the store's
    /// token; `handler` gets it after each commit.
    init(reader: DatabaseQueue, fileStray: (@Sendable () -> Void)?, token: @escaping @Sendable (Database) throws -> HistoryToken,
         handler: @escaping @Sendable (HistoryToken) -> Void) {
        let thread = Thread { [stopped, finished] in
            defer { finished.signal() }
            var last = try? reader.read { try Int.fetchOne($0, sql: "PRAGMA data_version") }
            while !stopped.raised.load(ordering: .relaxed) {
                Thread.sleep(forTimeInterval: Self.interval)
                if stopped.raised.load(ordering: .relaxed) { break }
                guard let version = try? reader.read({ try Int.fetchOne($0, sql: "PRAGMA data_version") }), version != last else { continue }
                last = version
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
        let watcher = CommitWatcher(reader: reader, fileStray: fileStray, token: { db in
            guard try db.tableExists(HistorySchema.transactionTable) else { return HistoryToken([identifier: 0]) }
            return HistoryToken([identifier: try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(Z_PK), 0) FROM ATRANSACTION") ?? 0])
        }, handler: handler)
        return { watcher.stop() }
    }
}
