import Foundation
import ObjectGraph
import ObjectModel
import Predicates

/// Two stores of one model compared: objects added, removed and changed, with the values and
/// relationships that differ. Objects are the same when they have the same entity and primary
/// key, or, matching by a key (`matching:`), the same value of that attribute (entities
/// without it are matched by primary key). Relationships are compared by their destinations'
/// identities, so a re-pointed relationship shows as a change; a to-many relationship whose
/// inverse is a to-one shows in its members' to-ones.
///
/// Read a batch at a time: memory holds each entity's keys (and, matching by a key, its
/// values), not the objects.
///
/// ```swift
/// let summary = try StoreDiff.compare(yesterday, with: today) { difference in print(difference) }
/// ```
public enum StoreDiff {
    /// One object that differs.
    public struct Difference: Sendable, CustomStringConvertible {
        /// How the object differs: `added` is only in the second store, `removed` only in the first,
        /// `changed` in both with values that differ.
        public enum Kind: String, Sendable {
            /// The object is only in the second store.
            case added
            /// The object is only in the first store.
            case removed
            /// The object is in both stores, with values that differ.
            case changed
        }
        /// Whether the object was added, removed or changed, going from the first store to the second.
        public var kind: Kind
        /// The name of the object's concrete entity.
        public var entityName: String
        /// How the object is known in both stores: `Book 42`, or `Book isbn=0441013597`.
        public var identity: String
        /// The values that differ (changed), or every value it has (added, removed): a
        /// relationship's destinations by their identities (`.string`, `.array` of them).
        public var values: [Value]
        /// The object's primary key in the first store; nil where it is not there.
        public var firstKey: Int64?
        /// The object's primary key in the second store; nil where it is not there.
        public var secondKey: Int64?

        /// The difference as one line: its kind, the object's identity, then each value in words.
        public var description: String {
            "\(kind.rawValue) \(identity): " + valueTexts.joined(separator: kind == .changed ? "; " : ", ")
        }

        /// Each value in words: `model “Panda” → “Punto”` for a change, `model=“Punto”` for an
        /// object added or removed.
        public var valueTexts: [String] {
            values.map { value in
                switch kind {
                case .changed: "\(value.key) \(value.text(value.first)) → \(value.text(value.second))"
                case .added: "\(value.key)=\(value.text(value.second))"
                case .removed: "\(value.key)=\(value.text(value.first))"
                }
            }
        }

        static func text(_ value: ObjectValue?) -> String {
            guard let value else { return "—" }
            switch value {
            case .null: return "nil"
            case .string(let s): return "“\(s)”"
            case .array(let members): return "[" + members.map { $0.stringValue ?? text($0) }.joined(separator: ", ") + "]"
            default: return CSV.text(JSONValue.from(value))
            }
        }
    }

    /// A property's value in the first store and the second (`nil` where the object is not there).
    public struct Value: Sendable {
        /// The name of the attribute or relationship.
        public var key: String
        /// The value in the first store; nil where the object is not there.
        public var first: ObjectValue?
        /// The value in the second store; nil where the object is not there.
        public var second: ObjectValue?
        /// Whether the values are a relationship's destinations, by identity.
        public var isRelationship = false

        func text(_ value: ObjectValue?) -> String {
            guard isRelationship, let value else { return Difference.text(value) }
            switch value {
            case .string(let identity): return identity
            case .array(let members): return "[" + members.compactMap(\.stringValue).joined(separator: ", ") + "]"
            default: return Difference.text(value)
            }
        }
    }

    /// What a comparison found: how many objects differ, and how many each store holds.
    public struct Summary: Sendable, Equatable {
        /// Objects only in the second store (`added`), only in the first (`removed`), and in both
        /// with values that differ (`changed`).
        public var added = 0, removed = 0, changed = 0
        /// Objects in each store.
        public var first = 0, second = 0
        /// Whether the stores are the same: nothing added, removed or changed.
        public var isEmpty: Bool { added == 0 && removed == 0 && changed == 0 }

        /// A summary of these counts, each zero unless given.
        public init(added: Int = 0, removed: Int = 0, changed: Int = 0, first: Int = 0, second: Int = 0) {
            (self.added, self.removed, self.changed, self.first, self.second) = (added, removed, changed, first, second)
        }
    }

    /// Compares the stores of `first` and `second` (contexts on one model each, without unsaved
    /// changes), entity by entity in name order, and calls `report` with each difference.
    public static func compare(_ first: ManagedObjectContext, with second: ManagedObjectContext, matching key: String? = nil,
                               entityNames: [String]? = nil, batchSize: Int = 5_000,
                               _ report: (Difference) throws -> Void) throws -> Summary {
        let model = first.model
        let entities = (entityNames ?? model.entities.map(\.name)).sorted().compactMap { model.entity(named: $0) }.filter { !$0.isAbstract }
        let sides = [Side(context: first), Side(context: second)]
        // Matching by a key, every object's identity by its key, for the relationships that lead to it.
        if let key {
            for entity in model.entities where !entity.isAbstract && entity.attribute(named: key) != nil {
                for side in sides { try side.readKeys(of: entity.name, key: key, batchSize: batchSize * 10) }
            }
        }
        var summary = Summary()
        for entity in entities {
            let identities = try sides.map { try $0.identities(of: entity.name) }
            summary.first += identities[0].count
            summary.second += identities[1].count
            let comparison = Comparison(entity: entity, sides: sides)
            var i = 0, j = 0
            var common: [(Int64, Int64)] = [], added: [Int64] = [], removed: [Int64] = []
            func flush() throws {
                for difference in try comparison.differences(common: common, added: added, removed: removed) {
                    switch difference.kind {
                    case .added: summary.added += 1
                    case .removed: summary.removed += 1
                    case .changed: summary.changed += 1
                    }
                    try report(difference)
                }
                common = []; added = []; removed = []
                for side in sides { side.context.reset() }
            }
            let a = identities[0], b = identities[1]
            while i < a.count || j < b.count {
                if j == b.count || (i < a.count && a[i].precedes(b[j])) {
                    removed.append(a[i].key); i += 1
                } else if i == a.count || b[j].precedes(a[i]) {
                    added.append(b[j].key); j += 1
                } else {
                    common.append((a[i].key, b[j].key)); i += 1; j += 1
                }
                if common.count + added.count + removed.count >= batchSize { try flush() }
            }
            try flush()
        }
        return summary
    }

    /// An object's place in the order both stores are walked in.
    struct Identity {
        /// The key value, matching by a key; nil matching by primary key.
        var value: String?
        var key: Int64

        /// Whether this object comes before `other`: by key value, or by primary key.
        func precedes(_ other: Identity) -> Bool {
            if let value, let theirs = other.value { return value < theirs }
            return key < other.key
        }
    }

    /// One store's side: its context, and, matching by a key, each object's key value.
    final class Side {
        let context: ManagedObjectContext
        /// Entity → primary key → key value, for entities matched by a key.
        var keyValues: [String: [Int64: String]] = [:]
        var keyName: String?

        init(context: ManagedObjectContext) { self.context = context }

        func readKeys(of entity: String, key: String, batchSize: Int) throws {
            keyName = key
            var values: [Int64: String] = [:]
            var offset = 0
            while true {
                var request = FetchRequest(entityName: entity, includesSubentities: false)
                request.propertiesToFetch = [.key("objectID"), .key(key)]
                request.sortDescriptors = [ObjectSortDescriptor(key: "objectID")]
                request.fetchOffset = offset
                request.fetchLimit = batchSize
                let rows = try context.fetchDictionaries(request)
                for row in rows {
                    guard let id = row["objectID"]?.objectID, let pk = id.primaryKey else { continue }
                    values[pk] = row[key].map { Difference.text($0) } ?? "nil"
                }
                if rows.count < batchSize { break }
                offset += batchSize
            }
            keyValues[entity] = values
        }

        /// The entity's objects in walking order: by key value (then primary key), or by primary key.
        func identities(of entity: String) throws -> [Identity] {
            if let values = keyValues[entity] {
                return values.map { Identity(value: $0.value, key: $0.key) }.sorted { ($0.value!, $0.key) < ($1.value!, $1.key) }
            }
            // A page at a time: the IDs of a page are made and let go, the keys kept.
            var keys: [Int64] = []
            let page = 100_000
            while true {
                var request = FetchRequest(entityName: entity, includesSubentities: false)
                request.sortDescriptors = [ObjectSortDescriptor(key: "objectID")]
                request.fetchOffset = keys.count
                request.fetchLimit = page
                let ids = try context.fetchObjectIDs(request)
                keys += ids.compactMap(\.primaryKey)
                if ids.count < page { break }
            }
            return keys.sorted().map { Identity(value: nil, key: $0) }
        }

        /// How an object is known: its key value, or its primary key.
        func identity(entity: String, key pk: Int64) -> String {
            if let values = keyValues[entity], let keyName {
                guard let value = values[pk] else { return "\(entity) \(pk) (not in the store)" }
                return "\(entity) \(keyName)=\(value)"
            }
            return "\(entity) \(pk)"
        }
    }

    /// One entity's batch compared.
    struct Comparison {
        let entity: Entity
        let sides: [Side]

        var attributes: [AttributeDescription] { entity.storedAttributes }
        var toOne: [RelationshipDescription] { entity.relationships.filter { !$0.isTransient && !$0.isToMany } }
        /// To-many relationships not told by their members' to-ones.
        var toMany: [RelationshipDescription] {
            entity.relationships.filter { relationship in
                guard !relationship.isTransient, relationship.isToMany else { return false }
                guard let inverse = relationship.inverseName,
                      let destination = sides[0].context.model.entity(named: relationship.destinationEntityName) else { return true }
                return destination.relationship(named: inverse)?.isToMany != false
            }
        }

        /// A value as read: an attribute's, or a relationship's destinations by entity and key
        /// (turned into identities only for what is reported).
        enum Cell: Equatable {
            case value(ObjectValue)
            case destinations([Destination])
        }

        struct Destination: Hashable, Comparable {
            var entity: String
            var key: Int64
            static func < (a: Destination, b: Destination) -> Bool { (a.entity, a.key) < (b.entity, b.key) }
        }

        /// Each object's values in the order of `keys` (attributes, to-ones, to-manys), by
        /// primary key, read in one fetch per side.
        func values(of keys: [Int64], side: Side) throws -> [Int64: [Cell]] {
            guard !keys.isEmpty else { return [:] }
            let storeID = side.context.coordinator.stores.first?.identifier
            let ids = keys.map { ObjectValue.object(ManagedObjectID(entityName: entity.name, storeIdentifier: storeID, reference: .permanent($0))) }
            var request = FetchRequest(entityName: entity.name, predicate: try ObjectPredicate(format: "SELF IN %@", ObjectValue.array(ids)),
                                       includesSubentities: false)
            let (attributes, toOne, many) = (self.attributes, self.toOne, self.toMany)
            request.propertiesToFetch = [.key("objectID")] + attributes.map { .key($0.name) } + toOne.map { .key($0.name) }
            var result: [Int64: [Cell]] = [:]
            result.reserveCapacity(keys.count)
            for row in try side.context.fetchDictionaries(request) {
                guard let id = row["objectID"]?.objectID, let pk = id.primaryKey else { continue }
                var cells: [Cell] = []
                cells.reserveCapacity(attributes.count + toOne.count + many.count)
                for attribute in attributes { cells.append(.value(row[attribute.name] ?? .null)) }
                for relationship in toOne {
                    cells.append(.destinations(row[relationship.name]?.objectID.map { [Destination(entity: $0.entityName, key: $0.primaryKey ?? 0)] } ?? []))
                }
                result[pk] = cells
            }
            if !many.isEmpty {
                for (pk, value) in zip(keys, ids) {
                    guard let id = value.objectID, let object = try? side.context.existingObject(with: id) else { continue }
                    for relationship in many {
                        let members = object.objects(relationship.name).map { Destination(entity: $0.entity.name, key: $0.objectID.primaryKey ?? 0) }
                        result[pk]?.append(.destinations(members.sorted()))
                    }
                }
            }
            return result
        }

        /// A cell as reported: a value, or the destinations' identities on that side.
        func reported(_ cell: Cell, isToMany: Bool, side: Side) -> ObjectValue {
            switch cell {
            case .value(let value): return value
            case .destinations(let list):
                let names = list.map { side.identity(entity: $0.entity, key: $0.key) }
                if isToMany { return .array(names.sorted().map(ObjectValue.string)) }
                return names.first.map(ObjectValue.string) ?? .null
            }
        }

        /// Whether two cells say the same: values equal, destinations the same objects (by key
        /// value where matched by one).
        func same(_ x: Cell, _ y: Cell) -> Bool {
            switch (x, y) {
            case (.value(let a), .value(let b)): return Self.same(a, b)
            case (.destinations(let a), .destinations(let b)):
                if a.count != b.count { return false }
                if sides[0].keyValues.isEmpty { return a == b }
                let names = { (list: [Destination], side: Side) in list.map { side.identity(entity: $0.entity, key: $0.key) }.sorted() }
                return names(a, sides[0]) == names(b, sides[1])
            default: return false
            }
        }

        func differences(common: [(Int64, Int64)], added: [Int64], removed: [Int64]) throws -> [Difference] {
            let keys = attributes.map(\.name) + toOne.map(\.name) + toMany.map(\.name)
            let toManyFrom = attributes.count + toOne.count
            let first = try values(of: common.map(\.0) + removed, side: sides[0])
            let second = try values(of: common.map(\.1) + added, side: sides[1])
            var differences: [Difference] = []
            for (a, b) in common {
                guard let old = first[a], let new = second[b], old.count == keys.count, new.count == keys.count else { continue }
                var changed: [Value] = []
                for i in keys.indices where !same(old[i], new[i]) {
                    changed.append(Value(key: keys[i], first: reported(old[i], isToMany: i >= toManyFrom, side: sides[0]),
                                         second: reported(new[i], isToMany: i >= toManyFrom, side: sides[1]),
                                         isRelationship: i >= attributes.count))
                }
                if !changed.isEmpty {
                    differences.append(Difference(kind: .changed, entityName: entity.name, identity: sides[0].identity(entity: entity.name, key: a),
                                                  values: changed, firstKey: a, secondKey: b))
                }
            }
            func whole(_ cells: [Cell]?, side: Side, first isFirst: Bool) -> [Value] {
                guard let cells, cells.count == keys.count else { return [] }
                return keys.indices.compactMap { i in
                    let value = reported(cells[i], isToMany: i >= toManyFrom, side: side)
                    if value.isNull || value == .array([]) { return nil }
                    return Value(key: keys[i], first: isFirst ? value : nil, second: isFirst ? nil : value, isRelationship: i >= attributes.count)
                }
            }
            for pk in removed {
                differences.append(Difference(kind: .removed, entityName: entity.name, identity: sides[0].identity(entity: entity.name, key: pk),
                                              values: whole(first[pk], side: sides[0], first: true), firstKey: pk))
            }
            for pk in added {
                differences.append(Difference(kind: .added, entityName: entity.name, identity: sides[1].identity(entity: entity.name, key: pk),
                                              values: whole(second[pk], side: sides[1], first: false), secondKey: pk))
            }
            return differences
        }

        /// Equal values: numbers numerically, dates to the microsecond (a store may keep no finer).
        static func same(_ x: ObjectValue, _ y: ObjectValue) -> Bool {
            if case .date(let a) = x, case .date(let b) = y { return abs(a.timeIntervalSince(b)) < 0.000_001 }
            return x == y
        }
    }
}
