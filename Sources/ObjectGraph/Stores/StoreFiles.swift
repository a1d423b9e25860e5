import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files a store occupies besides its own: SQLite's `-wal` and `-shm` files, and the
/// support folder in which Core Data keeps a SQLite store's externally stored binary values.
///
/// Core Data names the support folder after the store file without its extension, so two
/// stores whose names differ only in their extension (`Notes` and `Notes.backup`) share one.
/// Moving, copying and removing here leave such a shared folder where it is.
public enum StoreFiles {
    /// Which file a path names: its device and inode, the same while the file is written
    /// to and different once another file takes its place.
    public struct FileNumber: Equatable, Sendable {
        /// The device the file is on (`st_dev`).
        public let device: UInt64
        /// The file's inode number on that device (`st_ino`).
        public let inode: UInt64

        /// The file `url` names now, or nil when it names none.
        public init?(of url: URL) {
            var info = stat()
            guard stat(url.path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// Checks, before a save, that `url` still names the file opened as `opened`.
    ///
    /// - Throws: `ObjectGraphError.storeFileMissing` or `.storeFileReplaced`.
    public static func checkStillOpened(_ opened: FileNumber?, at url: URL) throws {
        guard let opened else { return }
        guard let now = FileNumber(of: url) else { throw ObjectGraphError.storeFileMissing(file: url.path) }
        if now != opened { throw ObjectGraphError.storeFileReplaced(file: url.path) }
    }

    /// `.<store file name without its extension>_SUPPORT`, beside the store, as Core Data
    /// names it (`Model.sqlite` → `.Model_SUPPORT`).
    public static func supportDirectory(forStoreAt url: URL) -> URL {
        let name = url.deletingPathExtension().lastPathComponent
        return url.deletingLastPathComponent().appendingPathComponent(".\(name)_SUPPORT", isDirectory: true)
    }

    /// The folder of a store's binary values kept outside the database.
    public static func externalDataDirectory(forStoreAt url: URL) -> URL {
        supportDirectory(forStoreAt: url).appendingPathComponent("_EXTERNAL_DATA", isDirectory: true)
    }

    /// The store file and its SQLite sidecars, whether or not they exist.
    public static func databaseFiles(forStoreAt url: URL) -> [URL] {
        [url, URL(fileURLWithPath: url.path + "-wal"), URL(fileURLWithPath: url.path + "-shm")]
    }

    /// Refuses a path that names something other than a regular file (following symbolic
    /// links): opening a FIFO waits forever for a writer, and a device or a folder is no store.
    /// A missing path is fine: the store may be made there.
    ///
    /// - Throws: `ObjectGraphError.storeFormat` saying what the path names.
    public static func checkIsRegularFile(_ url: URL) throws {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return }
        let kind: String
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: kind = "a folder"
        case S_IFIFO: kind = "a FIFO (named pipe)"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        case S_IFSOCK: kind = "a socket"
        default: kind = "not a regular file"
        }
        throw ObjectGraphError.storeFormat(file: url.path, reason: "this is \(kind), not a store file")
    }

    /// Refuses an existing store file this process may not read, or, unless `readOnly`, may
    /// not write, saying so in the user's terms: SQLite would say only "unable to open
    /// database file".
    public static func checkPermissions(_ url: URL, readOnly: Bool) throws {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return }
        let mode = String(format: "%03o", info.st_mode & 0o777)
        let owner = getpwuid(info.st_uid).map { String(cString: $0.pointee.pw_name) } ?? "user \(info.st_uid)"
        if access(url.path, R_OK) != 0 {
            throw ObjectGraphError.storeFormat(file: url.path, reason: "you may not read this file (permission denied: its mode is \(mode) "
                                               + "and its owner \(owner)); ask its owner, or open a copy you may read")
        }
        if !readOnly, access(url.path, W_OK) != 0 {
            throw ObjectGraphError.storeFormat(file: url.path, reason: "you may read this file but not change it (its mode is \(mode) "
                                               + "and its owner \(owner)); open it read-only (termdata browse --read-only, or query and export), "
                                               + "or ask its owner")
        }
    }

    /// Removes a store's files: the store file, its sidecars and, for a SQLite store, its
    /// support folder unless `sharedWith` (another store) uses the same folder. Missing
    /// files are skipped.
    public static func remove(forStoreAt url: URL, type: StoreType, sharedWith other: URL? = nil) {
        for file in databaseFiles(forStoreAt: url) { try? FileManager.default.removeItem(at: file) }
        let support = supportDirectory(forStoreAt: url)
        if type == .sqlite, other.map(supportDirectory(forStoreAt:)) != support {
            try? FileManager.default.removeItem(at: support)
        }
    }

    /// Removes a store's support folder if nothing is left in it.
    public static func removeEmptySupportDirectory(forStoreAt url: URL) {
        let support = supportDirectory(forStoreAt: url)
        let external = externalDataDirectory(forStoreAt: url)
        let manager = FileManager.default
        if (try? manager.contentsOfDirectory(atPath: external.path))?.isEmpty == true { try? manager.removeItem(at: external) }
        if (try? manager.contentsOfDirectory(atPath: support.path))?.isEmpty == true { try? manager.removeItem(at: support) }
    }

    /// Copies or moves a store's files to another location. For a SQLite store the support
    /// folder goes too: whole when the destination has none, file by file (keeping the
    /// destination's own) when it has one, and not at all when both locations share it.
    public static func transfer(from source: URL, to destination: URL, type: StoreType, moving: Bool) throws {
        let manager = FileManager.default
        for (a, b) in zip(databaseFiles(forStoreAt: source), databaseFiles(forStoreAt: destination))
        where manager.fileExists(atPath: a.path) {
            if moving { try manager.moveItem(at: a, to: b) } else { try manager.copyItem(at: a, to: b) }
        }
        let from = supportDirectory(forStoreAt: source), to = supportDirectory(forStoreAt: destination)
        guard type == .sqlite, from != to, manager.fileExists(atPath: from.path) else { return }
        guard manager.fileExists(atPath: to.path) else {
            if moving { try manager.moveItem(at: from, to: to) } else { try manager.copyItem(at: from, to: to) }
            return
        }
        let fromData = externalDataDirectory(forStoreAt: source), toData = externalDataDirectory(forStoreAt: destination)
        try manager.createDirectory(at: toData, withIntermediateDirectories: true)
        for name in (try? manager.contentsOfDirectory(atPath: fromData.path)) ?? [] {
            let a = fromData.appendingPathComponent(name), b = toData.appendingPathComponent(name)
            guard !manager.fileExists(atPath: b.path) else { continue }
            if moving { try manager.moveItem(at: a, to: b) } else { try manager.copyItem(at: a, to: b) }
        }
        if moving { try? manager.removeItem(at: from) }
    }
}
