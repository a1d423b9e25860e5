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
        try metadata.propertyList(adding: ["_NSAutoVacuumLevel": "2", formatVersionKey: formatVersion])
    }

    /// Store metadata from property list bytes, and whether this project wrote them.
    static func decode(_ data: Data, uuid: String) throws -> (metadata: StoreMetadata, ownFormat: Bool) {
        let read = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        guard let read else { throw SQLiteStoreError.unreadableMetadata("its metadata (Z_METADATA.Z_PLIST) is not a property list") }
        guard let plist = read as? [String: Any] else {
            throw SQLiteStoreError.unreadableMetadata("its metadata (Z_METADATA.Z_PLIST) is not a dictionary")
        }
        let metadata = StoreMetadata(propertyList: plist, storeType: .sqlite, uuid: uuid,
                                     ignoring: ["_NSAutoVacuumLevel", formatVersionKey, "NSPersistenceFrameworkVersion", "NSStoreUUID"])
        return (metadata, plist[formatVersionKey] != nil)
    }
}
