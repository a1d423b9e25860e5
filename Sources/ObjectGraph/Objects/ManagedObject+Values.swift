import Foundation
import OrderedCollections
import ObjectModel
import Predicates

extension ManagedObject {
    /// The value of an attribute or relationship.
    ///
    /// A to-one relationship gives `.object(destination)` or `.null`; a to-many gives
    /// `.set` (or `.array` when ordered) of `.object`s. Reading fires the object's fault.
    ///
    /// - Throws: `KeyValueError.unknownKey` for a key the entity does not have, or
    ///   `ObjectGraphError` when the values cannot be loaded.
    ///
    /// Disfavoured only where Core Data's `value(forKey:) -> Any?` is visible too (`import
    /// CoreData`), so that Apple's signature wins there; elsewhere it is the only one.
    @_disfavoredOverload
    public func value(forKey key: String) throws -> ObjectValue {
        try objectValue(forKey: key)
    }

    /// `value(forKey:)` by a name no other API shares.
    package func objectValue(forKey key: String) throws -> ObjectValue {
        managedObjectContext?.checkQueue()
        if let i = entity.attributeIndex(of: key) {
            try fireFault()
            return attributeValues?[i] ?? .null
        }
        if let i = entity.relationshipIndex(of: key) {
            try fireFault()
            switch relationshipValues[i] {
            case .toOne(let destination):
                return destination.map { .object($0) } ?? .null
            case .toMany, .toManyFault:
                let members = try toManyMembers(i)
                let values = members.map { ObjectValue.object($0) }
                return entity.relationships[i].isOrdered ? .array(values) : .set(values)
            }
        }
        if entity.fetchedProperty(named: key) != nil, let context = managedObjectContext {
            return .array(try context.fetchedPropertyValue(key, of: self).map { .object($0) })
        }
        switch key {
        case "objectID": return .object(objectID)
        case "entityName": return .string(entity.name)
        // Worded as the store words it, so that both evaluations report the same mistake alike.
        default: throw KeyValueError.unknownKey(key, typeName: "entity \(entity.name)")
        }
    }

    /// The value at a key path through relationships: `category.name`, `todos.@count`,
    /// `items.@sum.price`.
    @_disfavoredOverload
    public func value(forKeyPath keyPath: String) throws -> ObjectValue {
        try ObjectKeyPath.value(of: keyPath, in: .object(self))
    }

    /// Sets an attribute or relationship, keeping inverses and recording the change.
    ///
    /// - Throws: `ObjectGraphError.typeMismatch` when the value does not fit the
    ///   attribute's type or the relationship's destination; `KeyValueError` for an unknown key.
    ///
    /// Disfavoured only where Core Data's `setValue(_:forKey:)` is visible too (`import CoreData`).
    @_disfavoredOverload
    public func setValue(_ value: any ObjectValueConvertible, forKey key: String) throws {
        try setObjectValue(value.objectValue, forKey: key)
    }

    /// Core Data's primitive setter: while `awakeFromFetch()` runs, an attribute's value is set
    /// as fetched (no change, nothing to undo or save, as in Core Data); otherwise, and for
    /// relationships, it is `setObjectValue(_:forKey:)`.
    package func setPrimitiveObjectValue(_ value: ObjectValue, forKey key: String) throws {
        guard isAwakingFromFetch, let i = entity.attributeIndex(of: key), attributeValues != nil else {
            return try setObjectValue(value, forKey: key)
        }
        let type = entity.attributeTraits[i].type
        guard let coerced = type.coerce(value) else {
            throw ObjectGraphError.typeMismatch(entity: entity.name, key: key, expected: type.xcodeName, value: value)
        }
        attributeValues?[i] = coerced
    }

    /// `setValue(_:forKey:)` for a value that is an `ObjectValue` already: the subscript's
    /// setter, called for every value an import or an editor writes, skips the boxing.
    package func setObjectValue(_ value: ObjectValue, forKey key: String) throws {
        guard let context = managedObjectContext, status != .invalid else {
            throw ObjectGraphError.objectNotInContext(entity: entity.name, objectID: objectID.description)
        }
        context.checkQueue("ManagedObject.setValue(_:forKey:)")
        if let i = entity.attributeIndex(of: key) {
            let type = entity.attributeTraits[i].type
            guard let coerced = type.coerce(value) else {
                throw ObjectGraphError.typeMismatch(entity: entity.name, key: key, expected: type.xcodeName, value: value)
            }
            try fireFault()
            context.recordAttributeChange(self, index: i, to: coerced)
            return
        }
        if let i = entity.relationshipIndex(of: key) {
            let relationship = entity.relationships[i]
            try fireFault()
            if relationship.isToMany {
                guard let elements = value.collectionElements ?? (value.isNull ? [] : nil) else {
                    throw ObjectGraphError.typeMismatch(entity: entity.name, key: key,
                                                        expected: "a collection of \(relationship.destinationEntityName)",
                                                        value: value)
                }
                let objects = try elements.map { try destinationObject($0, for: relationship) }
                try context.replaceToMany(of: self, index: i, with: OrderedSet(objects.compactMap { $0 }))
            } else {
                try context.setToOne(of: self, index: i, to: try destinationObject(value, for: relationship))
            }
            return
        }
        throw KeyValueError.unknownKey(key, typeName: entity.name)
    }

    private func destinationObject(_ value: ObjectValue, for relationship: RelationshipDescription) throws -> ManagedObject? {
        switch value {
        case .null: return nil
        case .object(let o as ManagedObject):
            guard o.entity.isKind(of: relationship.destinationEntityName) else {
                throw ObjectGraphError.typeMismatch(entity: entity.name, key: relationship.name,
                                                    expected: relationship.destinationEntityName, value: value)
            }
            guard o.managedObjectContext === managedObjectContext else {
                throw ObjectGraphError.crossContextRelationship(entity: entity.name, key: relationship.name)
            }
            return o
        default:
            throw ObjectGraphError.typeMismatch(entity: entity.name, key: relationship.name,
                                                expected: relationship.destinationEntityName, value: value)
        }
    }

    /// Reads or writes a value by key; for keys known to exist.
    ///
    /// Reading a key the entity lacks, or writing a value of the wrong type, is a
    /// programming error. A fault whose row has gone reads as `nil`; use
    /// `value(forKey:)` to see the error.
    public subscript(key: String) -> ObjectValue {
        get {
            precondition(entity.hasProperty(key) || key == "objectID", "entity \(entity.name) has no key '\(key)'")
            return (try? value(forKey: key)) ?? .null
        }
        set {
            do { try setObjectValue(newValue, forKey: key) } catch {
                preconditionFailure("cannot set \(entity.name).\(key): \(error)")
            }
        }
    }

    // MARK: Typed accessors

    /// The string value of an attribute.
    public func string(_ key: String) -> String? { self[key].stringValue }
    /// The integer value of an attribute.
    public func int(_ key: String) -> Int? { self[key].intValue }
    /// The floating-point value of an attribute.
    public func double(_ key: String) -> Double? { self[key].doubleValue }
    /// The boolean value of an attribute.
    public func bool(_ key: String) -> Bool? { self[key].boolValue }
    /// The date value of an attribute.
    public func date(_ key: String) -> Date? { self[key].dateValue }
    /// The destination of a to-one relationship.
    public func object(_ key: String) -> ManagedObject? { self[key].objectReference as? ManagedObject }
    /// The destinations of a to-many relationship.
    public func objects(_ key: String) -> [ManagedObject] {
        (self[key].collectionElements ?? []).compactMap { $0.objectReference as? ManagedObject }
    }

    // MARK: Changes

    /// The keys changed since the last save, with their new values.
    public var changedValues: [String: ObjectValue] {
        var values: [String: ObjectValue] = [:]
        for key in changedKeys { values[key] = (try? value(forKey: key)) ?? .null }
        return values
    }

    /// The values as last saved (or fetched), for the given keys or all attributes and
    /// to-one relationships. An inserted object has none.
    @_disfavoredOverload
    public func committedValues(forKeys keys: [String]? = nil) -> [String: ObjectValue] {
        guard let snapshot else { return [:] }
        var values: [String: ObjectValue] = [:]
        for (i, a) in entity.attributes.enumerated() where keys?.contains(a.name) ?? true {
            values[a.name] = snapshot.attributes[i]
        }
        for (i, r) in entity.relationships.enumerated() where !r.isToMany && (keys?.contains(r.name) ?? true) {
            values[r.name] = snapshot.toOne[i].map { .object($0) } ?? .null
        }
        return values
    }

    // MARK: Faulting

    /// Loads the object's values from its store if it is a fault.
    func fireFault() throws {
        guard attributeValues == nil, status != .inserted else { return }
        guard let context = managedObjectContext else {
            throw ObjectGraphError.objectNotInContext(entity: entity.name, objectID: objectID.description)
        }
        try context.fulfillFault(self)
    }

    /// The objects a relationship holds, by index: a to-many's members, a to-one's
    /// destination (the object's fault fired to read it); loaded as needed.
    func relatedObjects(_ index: Int) throws -> [ManagedObject] {
        if entity.relationships[index].isToMany { return Array(try toManyMembers(index)) }
        try fireFault()
        if case .toOne(let destination) = relationshipValues[index] { return destination.map { [$0] } ?? [] }
        return []
    }

    /// The members of a to-many relationship, loading them if needed.
    func toManyMembers(_ index: Int) throws -> OrderedSet<ManagedObject> {
        switch relationshipValues[index] {
        case .toMany(let members):
            return members
        case .toManyFault(let pending):
            guard let context = managedObjectContext else { return pending.added }
            var members = OrderedSet<ManagedObject>()
            // An unsaved object has members only here, unless a parent context holds it.
            if !objectID.isTemporaryID || context.parent != nil {
                for id in try context.relatedObjectIDs(of: self, relationship: entity.relationships[index]) {
                    let o = context.object(with: id)
                    if !pending.removed.contains(o) { members.append(o) }
                }
            }
            for o in pending.added { members.append(o) }
            relationshipValues[index] = .toMany(members)
            return members
        case .toOne(let o):
            return o.map { [$0] } ?? []
        }
    }

    /// The IDs of a relationship's destinations without firing their faults. (Disfavoured
    /// only where Core Data's, which does not throw, is visible too.)
    @_disfavoredOverload
    public func objectIDs(forRelationshipNamed name: String) throws -> [ManagedObjectID] {
        try destinationIDs(ofRelationshipNamed: name)
    }

    /// `objectIDs(forRelationshipNamed:)` by a name Core Data's API does not shadow.
    package func destinationIDs(ofRelationshipNamed name: String) throws -> [ManagedObjectID] {
        guard let i = entity.relationshipIndex(of: name) else {
            throw KeyValueError.unknownKey(name, typeName: entity.name)
        }
        try fireFault()
        if case .toOne(let o) = relationshipValues[i] { return o.map { [$0.objectID] } ?? [] }
        // Nothing changed anywhere in the context: the store's list is the answer, read as
        // IDs, with no object made for a member.
        if case .toManyFault(let pending) = relationshipValues[i], pending.added.isEmpty, pending.removed.isEmpty,
           let context = managedObjectContext, !context.hasChanges, status == .clean {
            return try context.relatedObjectIDs(of: self, relationship: entity.relationships[i])
        }
        return try toManyMembers(i).map(\.objectID)
    }

    /// Whether a to-many relationship has not been loaded yet.
    public func hasFaultForRelationship(named name: String) -> Bool {
        guard let i = entity.relationshipIndex(of: name) else { return false }
        if case .toManyFault = relationshipValues[i] { return true }
        return false
    }
}
