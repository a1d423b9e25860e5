import Foundation
import Predicates

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
    public let reference: Reference
    /// Computed once: IDs are hashed at every registry lookup.
    private let hashCode: Int

    public init(entityName: String, storeIdentifier: String?, reference: Reference) {
        self.entityName = entityName
        self.storeIdentifier = storeIdentifier
        self.reference = reference
        var hasher = Hasher()
        hasher.combine(reference)
        hasher.combine(entityName)
        self.hashCode = hasher.finalize()
    }

    /// A new temporary ID for an inserted object.
    public static func temporary(entityName: String) -> ManagedObjectID {
        ManagedObjectID(entityName: entityName, storeIdentifier: nil, reference: .temporary(UUID()))
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

    public static func == (lhs: ManagedObjectID, rhs: ManagedObjectID) -> Bool {
        lhs === rhs || (lhs.hashCode == rhs.hashCode && lhs.reference == rhs.reference
            && lhs.entityName == rhs.entityName && lhs.storeIdentifier == rhs.storeIdentifier)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(hashCode)
    }

    public var description: String { uriRepresentation.absoluteString }

    // MARK: KeyValueObject

    public var identity: AnyHashable { AnyHashable(self) }
    public var keyValueTypeName: String { "ManagedObjectID(\(entityName))" }

    public func value(forKey key: String) throws -> ObjectValue {
        switch key {
        case "entityName": return .string(entityName)
        case "URIRepresentation", "uriRepresentation": return .url(uriRepresentation)
        default: throw KeyValueError.unknownKey(key, typeName: keyValueTypeName)
        }
    }
}
