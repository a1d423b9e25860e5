import Foundation
import ObjectGraph

/// The binary property list in `Z_METADATA.Z_PLIST`: the store type, the version hashes
/// of the model the store was written with, and application keys.
enum SQLiteMetadata {
    /// Our own key, with the version of this file format.
    static let formatVersionKey = "TermDataSQLiteFormatVersion"
    static let formatVersion = 1

    /// The property list bytes for store metadata.
    static func encode(_ metadata: StoreMetadata) throws -> Data {
        var plist: [String: Any] = [
            "NSStoreType": "SQLite",
            "NSStoreModelVersionHashes": metadata.versionHashes,
            "NSStoreModelVersionHashesVersion": 3,
            "NSStoreModelVersionIdentifiers": metadata.versionIdentifiers.isEmpty ? [""] : metadata.versionIdentifiers,
            "_NSAutoVacuumLevel": "2",
            formatVersionKey: formatVersion,
        ]
        for (key, value) in metadata.userInfo where plist[key] == nil { plist[key] = value }
        return try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
    }

    /// Store metadata from property list bytes, and whether this project wrote them.
    static func decode(_ data: Data, uuid: String) throws -> (metadata: StoreMetadata, ownFormat: Bool) {
        let read = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        guard let read else { throw SQLiteStoreError.unreadableMetadata("its metadata (Z_METADATA.Z_PLIST) is not a property list") }
        guard let plist = read as? [String: Any] else {
            throw SQLiteStoreError.unreadableMetadata("its metadata (Z_METADATA.Z_PLIST) is not a dictionary")
        }
        let hashes = (plist["NSStoreModelVersionHashes"] as? [String: Any] ?? [:]).compactMapValues { $0 as? Data }
        let identifiers = (plist["NSStoreModelVersionIdentifiers"] as? [Any] ?? []).compactMap { $0 as? String }.filter { !$0.isEmpty }
        let known: Set<String> = ["NSStoreType", "NSStoreModelVersionHashes", "NSStoreModelVersionHashesVersion",
                                  "NSStoreModelVersionIdentifiers", "_NSAutoVacuumLevel", formatVersionKey,
                                  "NSPersistenceFrameworkVersion", "NSStoreUUID"]
        var userInfo: [String: String] = [:]
        for (key, value) in plist where !known.contains(key) {
            if let s = value as? String { userInfo[key] = s } else { userInfo[key] = "\(value)" }
        }
        let metadata = StoreMetadata(storeType: .sqlite, uuid: uuid, versionHashes: hashes,
                                     versionIdentifiers: identifiers, userInfo: userInfo)
        return (metadata, plist[formatVersionKey] != nil)
    }
}
