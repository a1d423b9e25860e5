import Foundation

/// What a store records about itself: its type, its UUID and the version hashes of the
/// model it was written with.
public struct StoreMetadata: Sendable, Equatable {
    /// The type of store that wrote the metadata (`NSStoreType` in Core Data's property list).
    public var storeType: StoreType
    /// The store's UUID, its `identifier`: permanent object IDs and their URIs carry it.
    public var uuid: String
    /// Entity version hashes of the model the store was last saved with.
    public var versionHashes: [String: Data]
    /// The model's version identifiers.
    public var versionIdentifiers: [String]
    /// Application keys.
    public var userInfo: [String: String]
    /// The entity version hashes of a store Apple's Core Data wrote: its algorithm is not
    /// published, so they cannot be compared with a model's here, only with the hashes a
    /// compiled `.momd` lists for each of its versions (`ModelVersions.appleVersionHashes`).
    public var appleVersionHashes: [String: Data] = [:]

    /// Metadata for a store of a type; a new UUID unless one is given.
    public init(storeType: StoreType, uuid: String = UUID().uuidString, versionHashes: [String: Data] = [:],
                versionIdentifiers: [String] = [], userInfo: [String: String] = [:]) {
        self.storeType = storeType
        self.uuid = uuid
        self.versionHashes = versionHashes
        self.versionIdentifiers = versionIdentifiers
        self.userInfo = userInfo
    }
}

extension StoreMetadata {
    /// The keys of Core Data's metadata property list that `propertyList` writes itself.
    public static let propertyListKeys: Set<String> = [
        "NSStoreType", "NSStoreModelVersionHashes", "NSStoreModelVersionHashesVersion", "NSStoreModelVersionIdentifiers",
    ]

    /// The binary property list a SQL store keeps in `Z_METADATA.Z_PLIST`, as Core Data writes
    /// it: the store type, the model's version hashes and identifiers, the application's keys,
    /// and `extra` keys of the store's own.
    public func propertyList(adding extra: [String: Any] = [:]) throws -> Data {
        var plist: [String: Any] = [
            "NSStoreType": storeType.rawValue,
            "NSStoreModelVersionHashes": versionHashes,
            "NSStoreModelVersionHashesVersion": 3,
            "NSStoreModelVersionIdentifiers": versionIdentifiers.isEmpty ? [""] : versionIdentifiers,
        ]
        for (key, value) in extra { plist[key] = value }
        for (key, value) in userInfo where plist[key] == nil { plist[key] = value }
        return try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
    }

    /// The metadata such a property list holds, read into a dictionary. Keys other than Core
    /// Data's and `ignoring` become `userInfo`.
    public init(propertyList plist: [String: Any], storeType: StoreType, uuid: String, ignoring: Set<String> = []) {
        let hashes = (plist["NSStoreModelVersionHashes"] as? [String: Any] ?? [:]).compactMapValues { $0 as? Data }
        let identifiers = (plist["NSStoreModelVersionIdentifiers"] as? [Any] ?? []).compactMap { $0 as? String }.filter { !$0.isEmpty }
        var userInfo: [String: String] = [:]
        for (key, value) in plist where !Self.propertyListKeys.contains(key) && !ignoring.contains(key) {
            userInfo[key] = value as? String ?? "\(value)"
        }
        self.init(storeType: storeType, uuid: uuid, versionHashes: hashes, versionIdentifiers: identifiers, userInfo: userInfo)
    }
}

/// The kind of a store: how and where it keeps its objects.
public struct StoreType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The type's name as metadata records it (`NSStoreType`): `SQLite`, `XML`, `Binary`,
    /// `PostgreSQL`, `InMemory`.
    public var rawValue: String
    /// A store type from its name; a type not built in needs a registered factory to be opened.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A SQLite database in Core Data's layout (the `SQLiteStore` target).
    public static let sqlite = StoreType(rawValue: "SQLite")
    /// An XML file, read and written whole.
    public static let xml = StoreType(rawValue: "XML")
    /// A binary property list file, read and written whole.
    public static let binary = StoreType(rawValue: "Binary")
    /// A schema of a PostgreSQL database in Core Data's layout (the `PostgresStore` target),
    /// at a `postgres://` URL.
    public static let postgres = StoreType(rawValue: "PostgreSQL")
    /// Memory only; gone when the process ends.
    public static let inMemory = StoreType(rawValue: "InMemory")

    /// The type's name.
    public var description: String { rawValue }
}

/// Options for adding a store.
public struct StoreOptions: Sendable {
    /// Open the store read-only; saves to it fail.
    public var readOnly = false
    /// Open a store written with another model version without checking hashes.
    public var ignoresVersioning = false
    /// Migrate a store written with an older model version when it is added.
    public var migratesAutomatically = false
    /// Infer the mapping for automatic migration where possible.
    public var infersMappingModel = false
    /// Record every transaction in the store's persistent history (SQLite): each save, batch
    /// request and other program's write, for `fetchHistory` and for other processes to merge.
    public var tracksHistory = false

    /// Options from their switches, each off by default.
    public init(readOnly: Bool = false, ignoresVersioning: Bool = false,
                migratesAutomatically: Bool = false, infersMappingModel: Bool = false, tracksHistory: Bool = false) {
        self.readOnly = readOnly
        self.ignoresVersioning = ignoresVersioning
        self.migratesAutomatically = migratesAutomatically
        self.infersMappingModel = infersMappingModel
        self.tracksHistory = tracksHistory
    }
}
