import Foundation

/// The files a store occupies besides its own: SQLite's `-wal` and `-shm` files, and the
/// support folder in which Core Data keeps a store's externally stored binary values.
public enum StoreFiles {
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

    /// The store file, its SQLite sidecars and its support folder, whether or not they exist.
    public static func all(forStoreAt url: URL) -> [URL] {
        [url, URL(fileURLWithPath: url.path + "-wal"), URL(fileURLWithPath: url.path + "-shm"),
         supportDirectory(forStoreAt: url)]
    }

    /// Removes a store's files; those missing are skipped.
    public static func remove(forStoreAt url: URL) {
        for file in all(forStoreAt: url) { try? FileManager.default.removeItem(at: file) }
    }
}
