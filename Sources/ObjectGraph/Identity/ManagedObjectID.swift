import Foundation
import Predicates
import Synchronization

/// The identity of a managed object: its entity, its store, and its key there.
///
/// An inserted object has a temporary ID until it is saved; saving gives it a permanent
/// one whose URI still resolves after a restart.
///
/// ```swift
/// let uri = item.objectID.uriRepresentation   // x-coredata://<store UUID>/ToDo/p12
/// let again = coordinator.managedObjectID(forURI: uri)
/// ```
public final class ManagedObjectID: Hashable, Sendable, CustomStringConvertible, KeyValueObject {
    /// The key of an object within its store.
    public enum Reference: Hashable, Sendable {
        /// Given on insertion; never stored.
        case temporary(UUID)
        /// The store's primary key.
        case permanent(Int64)
    }

    /// The object's concrete entity.
    public let entityName: String
    /// The identifier (UUID) of the store the object lives in; `nil` while temporary.
    public let storeIdentifier: String?
    /// The object's key: temporary until its first save, then the store's primary key.
    public let reference: Reference
    /// Computed once: IDs are hashed at every registry lookup.
    private let hashCode: Int

    /// An ID from its entity, its store (`nil` for a temporary ID) and its key there.
    public init(entityName: String, storeIdentifier: String?, reference: Reference) {
        self.entityName = entityName
        self.storeIdentifier = storeIdentifier
        self.reference = reference
        // Keys repeat across entities (each root numbers its own rows), so the name's length
        // is mixed in; equal IDs still compare their names in full.
        let mix = UInt64(truncatingIfNeeded: entityName.utf8.count) &* 0x9E37_79B9_7F4A_7C15
        switch reference {
        case .permanent(let key):
            self.hashCode = Int(truncatingIfNeeded: UInt64(bitPattern: key) ^ mix)
        case .temporary(let uuid):
            let (high, low) = withUnsafeBytes(of: uuid.uuid) { ($0.load(as: UInt64.self), $0.load(fromByteOffset: 8, as: UInt64.self)) }
            self.hashCode = Int(truncatingIfNeeded: high ^ low ^ mix)
        }
    }

    /// A new temporary ID for an inserted object.
    public static func temporary(entityName: String) -> ManagedObjectID {
        ManagedObjectID(entityName: entityName, storeIdentifier: nil, reference: .temporary(TemporaryIDs.next()))
    }

    /// Whether the ID was given on insertion and not yet replaced by a saved one.
    public var isTemporaryID: Bool {
        if case .temporary = reference { return true }
        return false
    }

    /// The primary key in the store, for a permanent ID.
    public var primaryKey: Int64? {
        if case .permanent(let key) = reference { return key }
        return nil
    }

    /// `x-coredata://STORE/Entity/pKEY`, or `x-coredata:///Entity/tUUID` while temporary.
    public var uriRepresentation: URL {
        switch reference {
        case .permanent(let key):
            return URL(string: "x-coredata://\(storeIdentifier ?? "")/\(entityName)/p\(key)")!
        case .temporary(let uuid):
            return URL(string: "x-coredata:///\(entityName)/t\(uuid.uuidString)")!
        }
    }

    /// Parses a URI made by `uriRepresentation`.
    public static func parse(uri: URL) -> ManagedObjectID? {
        guard uri.scheme == "x-coredata" else { return nil }
        let parts = uri.path.split(separator: "/").map(String.init)
        guard parts.count == 2, let tag = parts[1].first else { return nil }
        let rest = String(parts[1].dropFirst())
        switch tag {
        case "p":
            guard let key = Int64(rest), let host = uri.host, !host.isEmpty else { return nil }
            return ManagedObjectID(entityName: parts[0], storeIdentifier: host, reference: .permanent(key))
        case "t":
            guard let uuid = UUID(uuidString: rest) else { return nil }
            return ManagedObjectID(entityName: parts[0], storeIdentifier: nil, reference: .temporary(uuid))
        default:
            return nil
        }
    }

    /// Whether two IDs name the same object: the same entity, store and key.
    public static func == (lhs: ManagedObjectID, rhs: ManagedObjectID) -> Bool {
        lhs === rhs || (lhs.hashCode == rhs.hashCode && lhs.reference == rhs.reference
            && lhs.entityName == rhs.entityName && lhs.storeIdentifier == rhs.storeIdentifier)
    }

    /// Hashes the ID by the code computed when it was made, from its key and entity name.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(hashCode)
    }

    /// The hash a dictionary or set uses: the cached code mixed with the table's seed, so a
    /// lookup in the context's registry costs a multiplication rather than a full hash.
    public func _rawHashValue(seed: Int) -> Int {
        Self.mix(hashCode, seed)
    }

    /// Mixes a well-spread code with a seed (a multiply and a fold, after splitmix64).
    static func mix(_ code: Int, _ seed: Int) -> Int {
        var x = UInt64(bitPattern: Int64(code ^ seed)) &* 0x9E37_79B9_7F4A_7C15
        x ^= x >> 31
        x &*= 0xBF58_476D_1CE4_E5B9
        x ^= x >> 29
        return Int(truncatingIfNeeded: x)
    }

    /// The ID's URI as text: `x-coredata://<store UUID>/ToDo/p12`.
    public var description: String { uriRepresentation.absoluteString }

    // MARK: KeyValueObject

    /// The ID itself: what predicates compare, so that an object equals its own ID.
    public var identity: AnyHashable { AnyHashable(self) }
    /// The name key-value errors give the ID's type: `ManagedObjectID(ToDo)`.
    public var keyValueTypeName: String { "ManagedObjectID(\(entityName))" }

    /// The ID's value for a key, as predicates read it: `entityName`, or `uriRepresentation` (also
    /// `URIRepresentation`).
    ///
    /// - Throws: `KeyValueError.unknownKey` for any other key.
    public func value(forKey key: String) throws -> ObjectValue {
        switch key {
        case "entityName": return .string(entityName)
        case "URIRepresentation", "uriRepresentation": return .url(uriRepresentation)
        default: throw KeyValueError.unknownKey(key, typeName: keyValueTypeName)
        }
    }
}

/// Temporary IDs: a random prefix drawn once per process and a counter, so that each
/// insert costs no system call (`UUID()` reads the system's random source every time).
/// They are unique within the process, which is as long as a temporary ID lives.
enum TemporaryIDs {
    private static let prefix: UInt64 = UInt64.random(in: .min ... .max)
    private static let counter = Atomic<UInt64>(0)

    static func next() -> UUID {
        let n = counter.wrappingAdd(1, ordering: .relaxed).newValue
        var bytes = uuid_t(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { raw in
            raw.storeBytes(of: prefix.bigEndian, as: UInt64.self)
            raw.storeBytes(of: n.bigEndian, toByteOffset: 8, as: UInt64.self)
            // Version 4, variant 1, so the value reads as an ordinary random UUID.
            raw[6] = (raw[6] & 0x0F) | 0x40
            raw[8] = (raw[8] & 0x3F) | 0x80
        }
        return UUID(uuid: bytes)
    }
}

extension ObjectValue {
    /// The object ID an `.object` value names — an ID itself, or a managed object's; nil for
    /// any other value.
    public var objectID: ManagedObjectID? {
        guard case .object(let object) = self else { return nil }
        return (object as? ManagedObjectID) ?? (object as? ManagedObject)?.objectID
    }
}
