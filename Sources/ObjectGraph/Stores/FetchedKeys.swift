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

    /// How many rows the fetch found.
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
@usableFromInline final class KeyFamily: Sendable {
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

/// Gathers a fetch's rows as `FetchedKeys`, one row at a time, each with its key and the
/// store's number for its entity (`Z_ENT`): each entity's name is kept once, and rows of one
/// entity need no list of entities.
///
/// ```swift
/// var collector = FetchedKeysCollector(storeIdentifier: id, entityNamesByNumber: ["", "ToDo"])
/// guard collector.append(key: 7, entityNumber: 1) else { throw … }   // no concrete entity
/// let keys = collector.finish()
/// ```
public struct FetchedKeysCollector {
    @usableFromInline let storeIdentifier: String
    /// A concrete entity's name at its number; empty for numbers that name none.
    @usableFromInline let namesByNumber: [String]
    @usableFromInline var keys: [Int64] = []
    @usableFromInline var entities: [UInt16] = []
    @usableFromInline var entityNames: [String] = []
    @usableFromInline var indexes: [Int: UInt16] = [:]
    @usableFromInline var lastNumber: Int?
    @usableFromInline var lastIndex: UInt16 = 0

    /// A collector for a store's rows, given the name of each concrete entity at its number (empty
    /// for numbers that name none).
    ///
    /// - Parameter storeIdentifier: the identifier of the store the rows come from, for their IDs.
    /// - Parameter entityNamesByNumber: each concrete entity's name at its number (`Z_ENT`);
    ///   empty for numbers that name none.
    /// - Parameter capacity: how many rows to make room for at once, when the count is known.
    public init(storeIdentifier: String, entityNamesByNumber: [String], capacity: Int = 0) {
        self.storeIdentifier = storeIdentifier
        self.namesByNumber = entityNamesByNumber
        keys.reserveCapacity(capacity)
    }

    /// Adds a row; false, adding nothing, when `entityNumber` names no concrete entity.
    @inlinable
    public mutating func append(key: Int64, entityNumber: Int) -> Bool {
        if entityNumber != lastNumber {
            guard entityNumber >= 0, entityNumber < namesByNumber.count, !namesByNumber[entityNumber].isEmpty else { return false }
            if let index = indexes[entityNumber] {
                lastIndex = index
            } else {
                lastIndex = UInt16(entityNames.count)
                indexes[entityNumber] = lastIndex
                entityNames.append(namesByNumber[entityNumber])
            }
            lastNumber = entityNumber
        }
        // The first row of a second entity starts the list, filled in for the rows before.
        if entityNames.count > 1, entities.isEmpty { entities = Array(repeating: 0, count: keys.count) }
        if !entities.isEmpty { entities.append(lastIndex) }
        keys.append(key)
        return true
    }

    /// The keys gathered.
    public consuming func finish() -> FetchedKeys {
        FetchedKeys(storeIdentifier: storeIdentifier, entityNames: entityNames, entities: entities, keys: keys)
    }
}
