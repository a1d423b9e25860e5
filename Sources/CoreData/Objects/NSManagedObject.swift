import Foundation
import ObjectGraph
import ObjectModel
import Predicates

/// Core Data's managed object is the engine's: `class Item: NSManagedObject` subclasses
/// `ManagedObject`, and every object a context makes is one. The extension below gives it
/// Core Data's initializers and key-value API.
public typealias NSManagedObject = ManagedObject

/// Core Data's object ID is the engine's.
public typealias NSManagedObjectID = ManagedObjectID

extension ManagedObject {
    /// A new object of the entity this class stands for, inserted into a context, as Core
    /// Data's `Item(context:)`: the entity whose class (`representedClassName`) is this one.
    /// From then on the context's fetches make the entity's objects as this class.
    public convenience init(context: NSManagedObjectContext) {
        let entity: Entity
        if let last = context.lastInitializedClass, last.type == ObjectIdentifier(Self.self) {
            entity = last.entity
        } else {
            entity = ManagedClasses.adopt(Self.self, in: context.coordinator)
            context.lastInitializedClass = (ObjectIdentifier(Self.self), entity)
        }
        precondition(!entity.isAbstract, "entity \(entity.name) is abstract: \(Self.self)(context:) cannot insert one")
        self.init(entity: entity, objectID: .temporary(entityName: entity.name), context: context)
        context.insertMadeObject(self)
    }

    /// A new object of an entity, inserted into a context, or into none yet (`insert(_:)`
    /// inserts it later; values can be set once it is in a context).
    public convenience init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) {
        precondition(!entity.engineEntity.isAbstract, "entity \(entity.engineEntity.name) is abstract: no object of it can be made")
        self.init(entity: entity.engineEntity, objectID: .temporary(entityName: entity.engineEntity.name), context: context)
        context?.insertMadeObject(self)
    }

    /// The entity this class stands for, in the model of a coordinator Core Data's API made
    /// (the class's own `representedClassName`, as in Core Data).
    public class func entity() -> NSEntityDescription {
        guard let model = CoordinatorDirectory.model(for: self) else {
            preconditionFailure("\(self).entity(): no model in use names \(String(reflecting: self)) as an entity's class")
        }
        return NSEntityDescription(ManagedClasses.entity(for: self, in: model), in: model)
    }

    /// A request for this class's entity. (Xcode's generated `fetchRequest()` returns
    /// `NSFetchRequest<Item>`; this one, as Core Data's, returns untyped results.)
    public class func fetchRequest() -> NSFetchRequest<NSFetchRequestResult> {
        NSFetchRequest<NSFetchRequestResult>(entityName: entity().engineEntity.name)
    }

    /// The object's entity.
    public var entity: NSEntityDescription { NSEntityDescription(modelEntity, in: managedObjectContext?.model) }

    // MARK: Key-value coding

    /// The value of an attribute or relationship, as Core Data gives it: numbers and Booleans
    /// as `NSNumber`, strings, dates, data, UUIDs and URLs as themselves, a to-one
    /// relationship's object, a to-many's `NSSet` (`NSOrderedSet` when ordered); nil for none.
    ///
    /// A transformable attribute's value is what its transformer reads from the stored bytes:
    /// a `ValueTransformer` registered under the model's name (an app's own objects), or Core
    /// Data's keyed archives (an `NSArray`, an `NSDictionary`… for `NSSecureUnarchiveFromData`);
    /// bytes it cannot read are given as they are, as `Data`.
    ///
    /// A key the entity does not have is a programming error, as in Core Data.
    public func value(forKey key: String) -> Any? {
        let value: ObjectValue
        do { value = try objectValue(forKey: key) } catch {
            preconditionFailure("\(modelEntity.name).value(forKey: \"\(key)\"): \(error)")
        }
        return cocoaAny(value, forKey: key)
    }

    /// A value the object keeps (now, or as committed) as Core Data gives it for the key: a
    /// transformable attribute's bytes through its transformer, anything else as `CocoaValue`
    /// makes it.
    func cocoaAny(_ value: ObjectValue, forKey key: String) -> Any? {
        if case .data(let data) = value, modelEntity.hasTransformableAttributes {
            if let transformer = registeredTransformer(forKey: key) { return objectFromStoredData(data, by: transformer) ?? data }
            if let transformer = transformer(forKey: key), let decoded = try? transformer.value(from: data) { return CocoaValue.cocoa(decoded) }
        }
        return CocoaValue.cocoa(value, ordered: modelEntity.relationship(named: key)?.isOrdered)
    }

    /// Sets an attribute or relationship (a collection of objects for a to-many), keeping
    /// inverses and recording the change; a transformable attribute keeps what its transformer
    /// makes of the value. A key the entity lacks or a value of the wrong kind is a programming
    /// error, as in Core Data.
    public func setValue(_ value: Any?, forKey key: String) {
        if let transformer = registeredTransformer(forKey: key), let value, !(value is NSNull) {
            let data = storedData(for: value, by: transformer, key: key)
            do { try setObjectValue(.data(data), forKey: key) } catch {
                preconditionFailure("\(modelEntity.name).setValue(_:forKey: \"\(key)\"): \(error)")
            }
            return
        }
        do { try setCocoaValue(CocoaValue.objectValue(value), forKey: key) } catch {
            preconditionFailure("\(modelEntity.name).setValue(_:forKey: \"\(key)\"): \(error)")
        }
    }

    /// The value at a key path through relationships (`category.name`, `items.@count`).
    public func value(forKeyPath keyPath: String) -> Any? {
        guard !keyPath.contains(".") else {
            do { return CocoaValue.cocoa(try ObjectKeyPath.value(of: keyPath, in: .object(self)), ordered: nil) } catch {
                preconditionFailure("\(modelEntity.name).value(forKeyPath: \"\(keyPath)\"): \(error)")
            }
        }
        return value(forKey: keyPath)
    }

    /// Sets the value at the end of a key path through to-one relationships.
    public func setValue(_ value: Any?, forKeyPath keyPath: String) {
        guard let dot = keyPath.lastIndex(of: ".") else { return setValue(value, forKey: keyPath) }
        let key = String(keyPath[keyPath.index(after: dot)...])
        // As in Core Data: nothing on the way sets nothing; a to-many on the way sets each member.
        switch self.value(forKeyPath: String(keyPath[..<dot])) {
        case nil, is NSNull: return
        case let owner as ManagedObject: owner.setValue(value, forKey: key)
        case let owners as NSSet: for case let owner as ManagedObject in owners { owner.setValue(value, forKey: key) }
        case let owners as NSOrderedSet: for case let owner as ManagedObject in owners { owner.setValue(value, forKey: key) }
        case let other?: preconditionFailure("\(modelEntity.name).setValue(_:forKeyPath: \"\(keyPath)\"): \(keyPath[..<dot]) is \(other), no object")
        }
    }

    /// The value of a property, as `value(forKey:)` gives it. (Core Data's primitive values
    /// skip its change notifications; here there are none to skip.)
    public func primitiveValue(forKey key: String) -> Any? { value(forKey: key) }

    /// Sets a property as `setValue(_:forKey:)` does (the change is saved and can be undone),
    /// except in `awakeFromFetch()`, where an attribute's value is set as fetched: no change,
    /// as in Core Data.
    public func setPrimitiveValue(_ value: Any?, forKey key: String) {
        do {
            if let registered = registeredTransformer(forKey: key), let value, !(value is NSNull) {
                return try setPrimitiveObjectValue(.data(storedData(for: value, by: registered, key: key)), forKey: key)
            }
            var stored = CocoaValue.objectValue(value)
            if let transformer = transformer(forKey: key), !stored.isNull { stored = .data(try transformer.data(from: stored)) }
            try setPrimitiveObjectValue(stored, forKey: key)
        } catch {
            preconditionFailure("\(modelEntity.name).setPrimitiveValue(_:forKey: \"\(key)\"): \(error)")
        }
    }

    /// Kept for custom accessors written for Core Data; nothing needs telling here.
    public func willAccessValue(forKey key: String?) {}

    /// Kept for custom accessors written for Core Data; nothing needs telling here.
    public func didAccessValue(forKey key: String?) {}

    /// Kept for custom accessors written for Core Data; `didChangeValue(forKey:)` is the
    /// engine's hook, called after the change.
    public func willChangeValue(forKey key: String) {}

    /// The keys changed since the last save, with their new values as `value(forKey:)` gives them.
    public func changedValues() -> [String: Any] {
        var values: [String: Any] = [:]
        for key in changedValues.keys { values[key] = value(forKey: key) ?? NSNull() }
        return values
    }

    /// The changes since the last time the context processed its pending changes (here:
    /// since the last save, as `changedValues()`).
    public func changedValuesForCurrentEvent() -> [String: Any] { changedValues() }

    /// The values as last saved or fetched, for `keys` or every attribute and to-one
    /// relationship; `NSNull` for nil, as in Core Data.
    public func committedValues(forKeys keys: [String]?) -> [String: Any] {
        // Typed so that the engine's method is meant (Core Data's is this one).
        let committed: [String: ObjectValue] = committedValues(forKeys: keys)
        return Dictionary(uniqueKeysWithValues: committed.map { key, value in (key, cocoaAny(value, forKey: key) ?? NSNull()) })
    }

    /// Whether a saved object has changes to attributes or relationships that are stored.
    public var hasPersistentChangedValues: Bool {
        changedValues.keys.contains { key in
            modelEntity.attribute(named: key).map { !$0.isTransient } ?? modelEntity.relationship(named: key).map { !$0.isTransient } ?? false
        }
    }

    /// The IDs of a relationship's destinations, without loading them. A key that is no
    /// relationship of the entity is a programming error, as in Core Data.
    public func objectIDs(forRelationshipNamed key: String) -> [NSManagedObjectID] {
        do {
            return try destinationIDs(ofRelationshipNamed: key)
        } catch {
            preconditionFailure("\(modelEntity.name).objectIDs(forRelationshipNamed: \"\(key)\"): \(error)")
        }
    }

    /// Whether a relationship's destinations are still to be loaded.
    public func hasFault(forRelationshipNamed key: String) -> Bool { hasFaultForRelationship(named: key) }
}

extension ManagedObject {
    /// The transformer of a transformable attribute, when the key names one and a transformer
    /// is known by its name.
    func transformer(forKey key: String) -> (any AttributeValueTransformer)? {
        guard modelEntity.hasTransformableAttributes, let attribute = modelEntity.attribute(named: key), attribute.type == .transformable else { return nil }
        return ValueTransformers.transformer(named: attribute.valueTransformerName)
    }

    /// A value as Core Data's accessors give it: a transformable attribute's as its transformer
    /// reads it (its bytes where it cannot), any other as the object keeps it.
    func cocoaValue(forKey key: String) throws -> ObjectValue {
        let stored = try objectValue(forKey: key)
        guard case .data(let bytes) = stored, modelEntity.hasTransformableAttributes else { return stored }
        // A transformer registered Foundation's way first, as value(forKey:) reads it: its
        // object as a value where it is one (an array of strings), else the bytes.
        if let registered = registeredTransformer(forKey: key) {
            return objectFromStoredData(bytes, by: registered).flatMap(CocoaValue.heldValue) ?? stored
        }
        guard let transformer = transformer(forKey: key) else { return stored }
        return (try? transformer.value(from: bytes)) ?? stored
    }

    /// Sets a value as Core Data's accessors do: a transformable attribute to the bytes its
    /// transformer makes (an attribute whose transformer nobody registered takes `Data` as it is).
    func setCocoaValue(_ value: ObjectValue, forKey key: String) throws {
        guard modelEntity.hasTransformableAttributes, modelEntity.attribute(named: key)?.type == .transformable, !value.isNull else {
            return try setObjectValue(value, forKey: key)
        }
        if let registered = registeredTransformer(forKey: key), let object = CocoaValue.cocoa(value) {
            return try setObjectValue(.data(storedData(for: object, by: registered, key: key)), forKey: key)
        }
        if transformer(forKey: key) == nil, case .data = value { return try setObjectValue(value, forKey: key) }
        try setTransformedValue(value, forKey: key)
    }
}

extension ManagedObjectID {
    /// The ID as a URI (`x-coredata://STORE/Entity/p12`), to keep and hand back to the
    /// coordinator's `managedObjectID(forURIRepresentation:)`.
    public func uriRepresentation() -> URL { uriRepresentation }
}
