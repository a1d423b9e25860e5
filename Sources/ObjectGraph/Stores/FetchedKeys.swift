/// The objects a fetch found, as a store's primary keys: what a store answers when the
/// context asks for faults (`StoreRequest.acceptsKeys`), so that no `ManagedObjectID` is
/// made for a result until one is asked for.
///
/// ```swift
/// let keys = FetchedKeys(storeIdentifier: store.identifier, entityNames: ["ToDo"], entities: [], keys: [1, 2, 3])
/// keys.objectID(at: 2)   // x-coredata://<store>/ToDo/p3
/// ```
public struct FetchedKeys: Sendable {
    /// The store the keys belong to.
    public let storeIdentifier: String
    /// Each row's primary key, in the fetch's order.
    public let keys: [Int64]
    /// Each row's entity as an index into the families; empty when every row has the first.
    let entities: [UInt16]
    /// An entity name and the store, shared by the objects made for one entity's rows.
    let families: [KeyFamily]

    /// Keys of rows whose entities are `entityNames[entities[i]]` (or `entityNames[0]` for
    /// every row when `entities` is empty).
    public init(storeIdentifier: String, entityNames: [String], entities: [UInt16], keys: [Int64]) {
        precondition(!entityNames.isEmpty || keys.isEmpty, "keys without an entity name")
        precondition(entities.isEmpty || entities.count == keys.count, "\(entities.count) entities for \(keys.count) keys")
        precondition(entities.allSatisfy { Int($0) < entityNames.count }, "an entity index past the \(entityNames.count) names")
        self.storeIdentifier = storeIdentifier
        self.keys = keys
        self.entities = entities
        self.families = entityNames.map { KeyFamily(entityName: $0, storeIdentifier: storeIdentifier) }
    }

    public var count: Int { keys.count }

    /// The ID of the row at `index`.
    public func objectID(at index: Int) -> ManagedObjectID {
        family(at: index).objectID(key: keys[index])
    }

    /// The IDs of every row, in order.
    public var objectIDs: [ManagedObjectID] {
        keys.indices.map(objectID(at:))
    }

    func family(at index: Int) -> KeyFamily {
        families[entities.isEmpty ? 0 : Int(entities[index])]
    }
}

/// An entity and a store: what an object made from a fetched key needs, besides the key, to
/// make its ID when asked. One instance is shared by all the objects of one entity a fetch
/// made, whose strings the IDs made from it share too.
final class KeyFamily: Sendable {
    let entityName: String
    let storeIdentifier: String

    init(entityName: String, storeIdentifier: String) {
        self.entityName = entityName
        self.storeIdentifier = storeIdentifier
    }

    func objectID(key: Int64) -> ManagedObjectID {
        ManagedObjectID(entityName: entityName, storeIdentifier: storeIdentifier, reference: .permanent(key))
    }
}
