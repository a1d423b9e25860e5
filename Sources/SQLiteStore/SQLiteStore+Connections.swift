import Foundation
import GRDB
import ObjectGraph
import ObjectModel
import Predicates
import SQLSyntax

extension SQLiteStore {
    /// Puts a file store in WAL mode before it is first written. Where SQLite cannot switch
    /// now (another connection has the file open), the save goes ahead in the file's own
    /// mode and the next one tries again.
    func switchToWALMode() {
        guard url != nil, !isReadOnly, !isInWALMode else { return }
        isInWALMode = Self.switchToWALMode(database)
    }

    /// Asks SQLite to put the file in WAL mode; whether it is now.
    static func switchToWALMode(_ database: DatabaseQueue) -> Bool {
        (try? database.writeWithoutTransaction { try String.fetchOne($0, sql: "PRAGMA journal_mode = WAL") }) == "wal"
    }

    /// The error to report for one SQLite gave on the store's file: a damaged file (SQLite
    /// finds its pages malformed, or no database at all) says so, naming the file and how
    /// to check it; any other error is left as it is.
    static func damage(_ error: Error, path: String) -> Error {
        if case SQLiteStoreError.unreadableMetadata(let why) = error { return ObjectGraphError.storeDamaged(file: path, detail: why) }
        // Stopped by `interrupt`: said as such, not as SQLite's "interrupted".
        if let e = error as? DatabaseError, e.resultCode.primaryResultCode == .SQLITE_INTERRUPT { return ObjectGraphError.stopped }
        guard let e = error as? DatabaseError, [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(e.resultCode.primaryResultCode) else { return error }
        return ObjectGraphError.storeDamaged(file: path, detail: e.message ?? "\(e.resultCode)")
    }

    /// Runs a read of the store's file, reporting a damaged file as such.
    func reading<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try onReader(body) } catch { throw Self.damage(error, path: url?.path ?? ":memory:") }
    }

    /// Runs a read on a reading connection of the pool (the writing one in memory).
    func onReader<T>(_ body: (Database) throws -> T) throws -> T {
        if let readers { return try readers.read(body) }
        return try database.inDatabase(body)
    }

    /// Reports every statement the store runs, on any of its connections, to `handler`;
    /// `nil` stops. For inspecting query plans.
    public func traceStatements(_ handler: (@Sendable (String) -> Void)?) {
        database.inDatabase { db in
            if let handler { db.trace { handler("\($0)") } } else { db.trace(options: []) }
        }
        readers?.trace(handler)
    }

    static func describe(_ error: Error) -> String {
        if let e = error as? DatabaseError { return e.message ?? "\(e.resultCode)" }
        return "\(error)"
    }

    public func close() {
        readers?.close()
        try? database.close()
    }

    /// Stops the statements running on the store's connections (`sqlite3_interrupt`): safe
    /// from any thread; a statement fails with SQLITE_INTERRUPT and a write rolls back.
    public func interrupt() {
        readers?.interrupt()
        database.interrupt()
    }

    /// Stops the read that `thread` runs now; other threads' reads, and a save, go on.
    public func interrupt(thread: WorkThread) {
        readers?.interrupt(thread: thread)
    }
}
