import Foundation
import GRDB
import ObjectGraph
import ObjectModel
import Predicates
import SQLSyntax

extension SQLiteStore {
    /// The metadata of the store at `url`, read without a model. A store written by Apple's
    /// Core Data has version hashes this model cannot reproduce; they are left out, so such a
    /// store is checked by its schema when it is opened.
    public static func readMetadata(at url: URL) throws -> StoreMetadata {
        try readingFile(at: url) { try readMetadata($0) }
    }

    /// Runs `body` on a read-only connection to the file at `url`, opened so that the file
    /// and its folder are left as they were (see `openReadOnly`). SQLite's errors become
    /// `ObjectGraphError`s naming the file (a damaged file says so); the project's own
    /// errors (`ObjectGraphError`, `ModelError`) pass as they are.
    static func readingFile<T>(at url: URL, _ body: (DatabaseQueue) throws -> T) throws -> T {
        let database: DatabaseQueue
        do { database = try openReadOnly(url, configuration: connectionConfiguration(readOnly: true)) } catch {
            throw ObjectGraphError.storeFormat(file: url.path, reason: "cannot be opened: \(error)")
        }
        defer { try? database.close() }
        do {
            return try body(database)
        } catch let error as ObjectGraphError {
            throw error
        } catch let error as ModelError {
            throw error
        } catch {
            if case let damaged as ObjectGraphError = damage(error, path: url.path) { throw damaged }
            throw ObjectGraphError.storeFormat(file: url.path, reason: describe(error))
        }
    }

    private static func readMetadata(_ database: DatabaseQueue) throws -> StoreMetadata {
        try database.read { db in
            guard try db.tableExists("Z_METADATA"),
                  let row = try Row.fetchOne(db, sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1"),
                  let plist = Data.fromDatabaseValue(row["Z_PLIST"]) else {
                throw ObjectGraphError.storeFormat(file: database.path, reason: "not a Core Data store (no Z_METADATA)")
            }
            var (metadata, ownFormat) = try SQLiteMetadata.decode(plist, uuid: String.fromDatabaseValue(row["Z_UUID"]) ?? "")
            if !ownFormat {
                metadata.appleVersionHashes = metadata.versionHashes
                metadata.versionHashes = [:]
            }
            return metadata
        }
    }

    /// Opens a database file for reading, leaving its folder as it was found.
    ///
    /// A connection to a file in WAL mode makes `-wal` and `-shm` files beside it, read-only
    /// or not, and a read-only one cannot remove them. Core Data leaves stores in WAL mode
    /// without those files (a copied or backed-up store, an app's container): such a file is
    /// opened as immutable instead. That is safe because no connection has it open: one that
    /// had would have made the `-shm` file. A file with a `-wal` or `-shm` file is read
    /// through them, as SQLite reads it, so that commits still in the WAL are seen.
    static func openReadOnly(_ url: URL, configuration: Configuration) throws -> DatabaseQueue {
        try DatabaseQueue(path: readOnlyPath(url), configuration: configuration)
    }

    /// Where a read-only connection opens a file (see `openReadOnly`).
    static func readOnlyPath(_ url: URL) -> String {
        isWALFileWithoutSideFiles(url) ? immutableURI(for: url) : url.path
    }

    /// Why an existing file is not a SQLite database, or nil when it is one or is empty.
    ///
    /// SQLite takes a file shorter than its 100-byte header for an empty database and
    /// writes a new one over it: a one-line note given as a store would be lost. Only a
    /// missing or empty file becomes a new store.
    static func notSQLite(_ url: URL) -> String? {
        guard let head = header(of: url) else { return nil }   // SQLite's open reports it
        if head.isEmpty || (head.count == 100 && head.starts(with: magic)) { return nil }
        let start = String(decoding: head.prefix(24), as: UTF8.self)
            .map { $0.isLetter || $0.isNumber || $0.isPunctuation || $0 == " " ? String($0) : "·" }.joined()
        return "not a SQLite store (it starts with “\(start)”), and only a missing or empty file becomes a new store"
    }

    /// Whether the file's header marks it as WAL mode (bytes 18 and 19 both 2) while neither
    /// its `-wal` nor its `-shm` file exists.
    static func isWALFileWithoutSideFiles(_ url: URL) -> Bool {
        let files = FileManager.default
        guard !files.fileExists(atPath: url.path + "-wal"), !files.fileExists(atPath: url.path + "-shm"),
              let head = header(of: url), head.count >= 20 else { return false }
        return head.starts(with: magic) && head[18] == 2 && head[19] == 2
    }

    /// How long a connection to a store file waits for another connection's lock before it
    /// reports the store as locked: another program's save, or the checkpoint the last
    /// connection to close a WAL file makes, which holds the file for a moment while a new
    /// connection opens it. Every connection the store opens waits so long, readers too.
    public static let lockTimeout: TimeInterval = 10

    /// GRDB's settings for a connection to a store file: waiting `lockTimeout` for locks.
    static func connectionConfiguration(readOnly: Bool = false) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.busyMode = .timeout(lockTimeout)
        return configuration
    }

    /// The longest file name a store can have: room for SQLite's `-journal` after it.
    static let longestName = Int(NAME_MAX) - "-journal".utf8.count

    /// SQLite's limit on the columns of a table (SQLITE_MAX_COLUMN as built).
    static let maximumColumns = 2000

    /// How the store writes SQL: every identifier quoted by SQLite's rules, every value bound.
    static let dialect = SQLiteDialect()

    /// The first bytes of every SQLite database file.
    private static let magic = Data("SQLite format 3\u{0}".utf8)

    /// The file's first 100 bytes (SQLite's header), fewer for a shorter file; nil when it
    /// cannot be read.
    private static func header(of url: URL) -> Data? {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return nil }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 100)) ?? Data()
    }

    /// `file:` URI that opens a database file as immutable.
    static func immutableURI(for url: URL) -> String {
        var components = URLComponents()
        components.scheme = "file"
        components.path = url.standardizedFileURL.path
        components.queryItems = [URLQueryItem(name: "immutable", value: "1")]
        return components.string ?? "file:\(url.path)?immutable=1"
    }
}
