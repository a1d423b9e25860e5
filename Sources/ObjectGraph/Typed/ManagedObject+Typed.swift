import Foundation
import Predicates

/// A Swift type an attribute's value reads as: what a generated class's property gives.
public protocol AttributeValue: ObjectValueConvertible {
    /// The value as this type; nil for no value or one of another type.
    init?(attributeValue value: ObjectValue)
}

extension String: AttributeValue {
    public init?(attributeValue value: ObjectValue) {
        guard case .string(let s) = value else { return nil }
        self = s
    }
}

extension Bool: AttributeValue {
    public init?(attributeValue value: ObjectValue) {
        guard let b = value.boolValue else { return nil }
        self = b
    }
}

extension Int: AttributeValue {
    public init?(attributeValue value: ObjectValue) {
        guard case .int(let i) = value else { return nil }
        self = i
    }
}

extension Int16: AttributeValue {
    public init?(attributeValue value: ObjectValue) {
        guard case .int(let i) = value else { return nil }
        self.init(truncatingIfNeeded: i)
    }
}

extension Int32: AttributeValue {
    public init?(attributeValue value: ObjectValue) {
        guard case .int(let i) = value else { return nil }
        self.init(truncatingIfNeeded: i)
    }
}

extension Int64: AttributeValue {
    public init?(attributeValue value: ObjectValue) {
        guard case .int(let i) = value else { return nil }
        self.init(i)
    }
}

extension Double: AttributeValue {
    public init?(attributeValue value: ObjectValue) {
        guard let d = value.doubleValue else { return nil }
        self = d
    }
}

extension Float: AttributeValue {
    public init?(attributeValue value: ObjectValue) {
        guard let d = value.doubleValue else { return nil }
        self.init(d)
    }
}

extension Decimal: AttributeValue {
    public init?(attributeValue value: ObjectValue) {
        guard let d = value.decimalValue else { return nil }
        self = d
    }
}

extension Date: AttributeValue {
    public init?(attributeValue value: ObjectValue) {
        guard case .date(let d) = value else { return nil }
        self = d
    }
}

extension Data: AttributeValue {
    public init?(attributeValue value: ObjectValue) {
        guard case .data(let d) = value else { return nil }
        self = d
    }
}

extension UUID: AttributeValue {
    public init?(attributeValue value: ObjectValue) {
        guard case .uuid(let u) = value else { return nil }
        self = u
    }
}

extension URL: AttributeValue {
    public init?(attributeValue value: ObjectValue) {
        guard case .url(let u) = value else { return nil }
        self = u
    }
}

extension ManagedObject {
    // The typed accessors generated classes use. Like the subscript they stand on, they are
    // for keys the entity has: a generated class names only those.

    /// An attribute's value as a Swift type; nil when it has none.
    public func attributeValue<T: AttributeValue>(_ key: String, as type: T.Type = T.self) -> T? {
        T(attributeValue: self[key])
    }

    /// Sets an attribute from a Swift value; nil clears it.
    public func setAttributeValue<T: AttributeValue>(_ value: T?, forKey key: String) {
        self[key] = value?.objectValue ?? .null
    }

    /// The destination of a to-one relationship, as its class.
    public func destination<T: ManagedObject>(_ key: String, as type: T.Type = T.self) -> T? {
        self[key].objectReference as? T
    }

    /// Sets a to-one relationship; nil clears it. The inverse follows.
    public func setDestination(_ object: ManagedObject?, forKey key: String) {
        self[key] = object.map { .object($0) } ?? .null
    }

    /// The destinations of an unordered to-many relationship, as their class.
    public func destinations<T: ManagedObject>(_ key: String, as type: T.Type = T.self) -> Set<T> {
        Set((self[key].collectionElements ?? []).lazy.compactMap { $0.objectReference as? T })
    }

    /// The destinations of an ordered to-many relationship (or a fetched property), in order.
    public func orderedDestinations<T: ManagedObject>(_ key: String, as type: T.Type = T.self) -> [T] {
        (self[key].collectionElements ?? []).compactMap { $0.objectReference as? T }
    }

    /// Replaces the destinations of a to-many relationship; the inverses follow.
    public func setDestinations(_ objects: some Sequence<some ManagedObject>, forKey key: String) {
        self[key] = .array(objects.map { .object($0) })
    }

    /// Adds objects to a to-many relationship (`addToItems(_:)`); the inverses follow.
    public func addDestinations(_ objects: some Sequence<some ManagedObject>, forKey key: String) {
        for object in objects {
            do { try add(object, toRelationship: key) } catch { preconditionFailure("cannot add to \(entity.name).\(key): \(error)") }
        }
    }

    /// Removes objects from a to-many relationship (`removeFromItems(_:)`); the inverses follow.
    public func removeDestinations(_ objects: some Sequence<some ManagedObject>, forKey key: String) {
        for object in objects {
            do { try remove(object, fromRelationship: key) } catch { preconditionFailure("cannot remove from \(entity.name).\(key): \(error)") }
        }
    }
}
