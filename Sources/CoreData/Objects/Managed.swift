import Foundation
import ObjectGraph
import ObjectModel
import Predicates

/// Core Data's `@NSManaged`, for Linux: the managed object keeps the property's value, read
/// and written by the property's name, with the same type and behaviour.
///
/// ```swift
/// extension Item {
///     @Managed public var title: String?
///     @Managed public var count: Int64
///     @Managed public var folder: Folder?
///     @Managed public var tags: NSSet?
///     @ManagedAccessor public func addToTags(_ value: Tag)
/// }
/// ```
///
/// It gives the property accessors over `managedValue(forKey:)`; the property's type is
/// one a managed object holds (`ManagedValue`, or a managed object, `NSSet`, `NSOrderedSet`,
/// `NSDecimalNumber`). `termdata port` turns `@NSManaged var` into `@Managed var`.
@attached(accessor, names: named(get), named(set))
public macro Managed() = #externalMacro(module: "CoreDataMacros", type: "ManagedMacro")

/// Core Data's `@NSManaged` on the to-many accessors Xcode generates, for Linux: it gives
/// the body of `addToX(_:)` and `removeFromX(_:)` (an object or an `NSSet`), and for ordered
/// relationships `insertIntoX(_:at:)`, `removeFromX(at:)` and `replaceX(at:with:)` (an index
/// or an `NSIndexSet`). `termdata port` turns `@NSManaged func` into `@ManagedAccessor func`.
@attached(body)
public macro ManagedAccessor() = #externalMacro(module: "CoreDataMacros", type: "ManagedAccessorMacro")

/// A type a `@Managed` property can have: what Core Data stores in attributes (strings,
/// numbers, Booleans, dates, data, UUIDs, URLs, decimals), managed objects for to-one
/// relationships, `NSSet`, `NSOrderedSet` and sets or arrays of objects for to-many ones, and
/// optionals of these.
public protocol ManagedValue {
    /// The value for what the object keeps (`.null` for none: zero, `false` or empty for a
    /// type without nil, as Core Data's scalar properties read).
    static func fromManaged(_ value: ObjectValue) -> Self
    /// What the object keeps for the value.
    var managedObjectValue: ObjectValue { get }
}

extension ManagedObject {
    /// The value of a property as a `@Managed` property's type. A key the entity lacks is a
    /// programming error, as in Core Data.
    public func managedValue<T: ManagedValue>(forKey key: String) -> T {
        do { return T.fromManaged(try cocoaValue(forKey: key)) } catch {
            preconditionFailure("\(modelEntity.name).\(key): \(error)")
        }
    }

    /// Sets a property from a `@Managed` property's value, keeping inverses and recording the
    /// change. A key the entity lacks or a value that does not fit it is a programming error.
    public func setManagedValue<T: ManagedValue>(_ value: T, forKey key: String) {
        do { try setCocoaValue(value.managedObjectValue, forKey: key) } catch {
            preconditionFailure("\(modelEntity.name).\(key) = \(value): \(error)")
        }
    }

    /// The members of a to-many relationship, in order.
    private func managedMembers(_ key: String) -> [ObjectValue] {
        do { return try objectValue(forKey: key).collectionElements ?? [] } catch {
            preconditionFailure("\(modelEntity.name).\(key): \(error)")
        }
    }

    private func setManagedMembers(_ key: String, _ members: [ObjectValue]) {
        let ordered = modelEntity.relationship(named: key)?.isOrdered ?? false
        do { try setObjectValue(ordered ? .array(members) : .set(members), forKey: key) } catch {
            preconditionFailure("\(modelEntity.name).\(key): \(error)")
        }
    }

    /// The objects of an accessor's argument: one object, or a collection of them.
    private func managedObjects(_ value: Any) -> [ManagedObject] {
        switch value {
        case let object as ManagedObject: return [object]
        case let set as NSSet: return set.compactMap { $0 as? ManagedObject }
        case let set as NSOrderedSet: return set.compactMap { $0 as? ManagedObject }
        case let array as [ManagedObject]: return array
        case let set as Set<ManagedObject>: return Array(set)
        default: preconditionFailure("a relationship's accessor takes objects, not a \(type(of: value))")
        }
    }

    /// `addToX(_:)`: adds an object or a collection of objects to a to-many relationship,
    /// keeping inverses, without loading the relationship's other members.
    public func addToManagedRelationship(_ key: String, _ value: Any) {
        for object in managedObjects(value) {
            do { try add(object, toRelationship: key) } catch {
                preconditionFailure("\(modelEntity.name).\(key): \(error)")
            }
        }
    }

    /// `removeFromX(_:)`: removes an object or a collection of objects from a to-many
    /// relationship, keeping inverses.
    public func removeFromManagedRelationship(_ key: String, _ value: Any) {
        for object in managedObjects(value) {
            do { try remove(object, fromRelationship: key) } catch {
                preconditionFailure("\(modelEntity.name).\(key): \(error)")
            }
        }
    }

    /// `removeFromX(at:)`: removes the members at an index or a set of indexes.
    public func removeFromManagedRelationship(_ key: String, at index: Any) {
        var members = managedMembers(key)
        for i in managedIndexes(index).sorted(by: >) { members.remove(at: i) }
        setManagedMembers(key, members)
    }

    /// `insertIntoX(_:at:)`: inserts an object at an index, or objects at indexes.
    public func insertIntoManagedRelationship(_ key: String, _ value: Any, at index: Any) {
        var members = managedMembers(key)
        let indexes = managedIndexes(index).sorted(), objects = managedObjects(value)
        precondition(indexes.count == objects.count, "\(modelEntity.name).\(key): \(indexes.count) indexes for \(objects.count) objects")
        for (object, i) in zip(objects, indexes) where !members.contains(.object(object)) {
            members.insert(.object(object), at: min(i, members.count))
        }
        setManagedMembers(key, members)
    }

    /// `replaceX(at:with:)`: replaces the member at an index, or the members at indexes.
    public func replaceInManagedRelationship(_ key: String, at index: Any, with value: Any) {
        var members = managedMembers(key)
        let indexes = managedIndexes(index).sorted(), objects = managedObjects(value)
        precondition(indexes.count == objects.count, "\(modelEntity.name).\(key): \(indexes.count) indexes for \(objects.count) objects")
        for (i, object) in zip(indexes, objects) {
            precondition(!members.enumerated().contains { $0.offset != i && $0.element == .object(object) },
                         "\(modelEntity.name).\(key): \(object.objectID) is in the relationship already, at another index")
            members[i] = .object(object)
        }
        setManagedMembers(key, members)
    }

    private func managedIndexes(_ index: Any) -> [Int] {
        switch index {
        case let i as Int: return [i]
        case let set as IndexSet: return Array(set)
        case let set as NSIndexSet: return Array(set as IndexSet)
        default: preconditionFailure("an index is an Int or an index set, not a \(type(of: index))")
        }
    }
}

// MARK: Attribute values

extension String: ManagedValue {
    /// The string the object keeps; empty for none.
    public static func fromManaged(_ value: ObjectValue) -> String { value.stringValue ?? "" }
    /// The string, as the object keeps it.
    public var managedObjectValue: ObjectValue { .string(self) }
}

extension Bool: ManagedValue {
    /// The Boolean the object keeps; `false` for none.
    public static func fromManaged(_ value: ObjectValue) -> Bool { value.boolValue ?? false }
    /// The Boolean, as the object keeps it.
    public var managedObjectValue: ObjectValue { .bool(self) }
}

extension Int: ManagedValue {
    /// The integer the object keeps; 0 for none.
    public static func fromManaged(_ value: ObjectValue) -> Int { value.intValue ?? 0 }
    /// The integer, as the object keeps it.
    public var managedObjectValue: ObjectValue { .int(self) }
}

extension Int16: ManagedValue {
    /// The integer the object keeps, truncated to 16 bits; 0 for none.
    public static func fromManaged(_ value: ObjectValue) -> Int16 { Int16(truncatingIfNeeded: value.intValue ?? 0) }
    /// The integer, as the object keeps it.
    public var managedObjectValue: ObjectValue { .int(Int(self)) }
}

extension Int32: ManagedValue {
    /// The integer the object keeps, truncated to 32 bits; 0 for none.
    public static func fromManaged(_ value: ObjectValue) -> Int32 { Int32(truncatingIfNeeded: value.intValue ?? 0) }
    /// The integer, as the object keeps it.
    public var managedObjectValue: ObjectValue { .int(Int(self)) }
}

extension Int64: ManagedValue {
    /// The integer the object keeps; 0 for none.
    public static func fromManaged(_ value: ObjectValue) -> Int64 { Int64(value.intValue ?? 0) }
    /// The integer, as the object keeps it.
    public var managedObjectValue: ObjectValue { .int(Int(self)) }
}

extension Double: ManagedValue {
    /// The number the object keeps; 0 for none.
    public static func fromManaged(_ value: ObjectValue) -> Double { value.doubleValue ?? 0 }
    /// The number, as the object keeps it.
    public var managedObjectValue: ObjectValue { .double(self) }
}

extension Float: ManagedValue {
    /// The number the object keeps, as a `Float`; 0 for none.
    public static func fromManaged(_ value: ObjectValue) -> Float { Float(value.doubleValue ?? 0) }
    /// The number, kept as a `Double`.
    public var managedObjectValue: ObjectValue { .double(Double(self)) }
}

extension Date: ManagedValue {
    /// The date the object keeps; 2001-01-01 00:00 UTC (the reference date) for none.
    public static func fromManaged(_ value: ObjectValue) -> Date { value.dateValue ?? Date(timeIntervalSinceReferenceDate: 0) }
    /// The date, as the object keeps it.
    public var managedObjectValue: ObjectValue { .date(self) }
}

extension Data: ManagedValue {
    /// The bytes the object keeps; empty for none.
    public static func fromManaged(_ value: ObjectValue) -> Data {
        if case .data(let data) = value { return data }
        return Data()
    }
    /// The bytes, as the object keeps them.
    public var managedObjectValue: ObjectValue { .data(self) }
}

extension UUID: ManagedValue {
    /// The UUID the object keeps; all zeros for none.
    public static func fromManaged(_ value: ObjectValue) -> UUID {
        if case .uuid(let uuid) = value { return uuid }
        return UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    }
    /// The UUID, as the object keeps it.
    public var managedObjectValue: ObjectValue { .uuid(self) }
}

extension URL: ManagedValue {
    /// The URL the object keeps; `file:///` for none.
    public static func fromManaged(_ value: ObjectValue) -> URL {
        if case .url(let url) = value { return url }
        return URL(fileURLWithPath: "/")
    }
    /// The URL, as the object keeps it.
    public var managedObjectValue: ObjectValue { .url(self) }
}

extension Decimal: ManagedValue {
    /// The decimal the object keeps (an integer or a double converted); 0 for none.
    public static func fromManaged(_ value: ObjectValue) -> Decimal {
        switch value {
        case .decimal(let d): return d
        case .int(let i): return Decimal(i)
        case .double(let d): return Decimal(d)
        default: return 0
        }
    }
    /// The decimal, as the object keeps it.
    public var managedObjectValue: ObjectValue { .decimal(self) }
}

extension Optional: ManagedValue where Wrapped: ManagedValue {
    /// The wrapped type's value, or nil where the object keeps none.
    public static func fromManaged(_ value: ObjectValue) -> Wrapped? {
        value.isNull ? nil : Wrapped.fromManaged(value)
    }
    /// The wrapped value as the object keeps it; `.null` for nil.
    public var managedObjectValue: ObjectValue { self?.managedObjectValue ?? .null }
}

// MARK: Relationships and classes

// Managed objects, `NSSet`, `NSOrderedSet` and `NSDecimalNumber` are classes that Swift
// cannot make as `Self` through a protocol's requirement, so `@Managed` properties of these
// types read and write through overloads of their own.
extension ManagedObject {
    /// A to-one relationship's object as a `@Managed` property reads it.
    public func managedValue<T: ManagedObject>(forKey key: String) -> T? {
        switch managedValue(forKey: key) as ObjectValue {
        case .null: return nil
        case .object(let object as T): return object
        case let value: preconditionFailure("\(modelEntity.name).\(key) holds \(value), not a \(T.self)")
        }
    }

    /// Sets a to-one relationship from a `@Managed` property of an optional object type; nil
    /// clears it.
    public func setManagedValue<T: ManagedObject>(_ value: T?, forKey key: String) {
        setManagedValue(value.map { ObjectValue.object($0) } ?? .null, forKey: key)
    }

    /// A to-many relationship's objects as a `@Managed var items: NSSet?` reads them.
    public func managedValue(forKey key: String) -> NSSet? {
        NSSet(array: (managedValue(forKey: key) as ObjectValue).collectionElements?.compactMap { CocoaValue.cocoa($0) } ?? [])
    }

    /// Sets a to-many relationship's objects from a `@Managed var items: NSSet?`; nil empties it.
    public func setManagedValue(_ value: NSSet?, forKey key: String) {
        setManagedValue(ObjectValue.set(value?.map { CocoaValue.objectValue($0) } ?? []), forKey: key)
    }

    /// An ordered to-many relationship's objects as a `@Managed var items: NSOrderedSet?` reads them.
    public func managedValue(forKey key: String) -> NSOrderedSet? {
        NSOrderedSet(array: (managedValue(forKey: key) as ObjectValue).collectionElements?.compactMap { CocoaValue.cocoa($0) } ?? [])
    }

    /// Sets an ordered to-many relationship's objects, in order, from a
    /// `@Managed var items: NSOrderedSet?`; nil empties it.
    public func setManagedValue(_ value: NSOrderedSet?, forKey key: String) {
        setManagedValue(ObjectValue.array(value?.array.map { CocoaValue.objectValue($0) } ?? []), forKey: key)
    }

    /// A non-optional to-one relationship's object; nil there is a programming error, as
    /// reading it is in Swift on Apple's systems.
    public func managedValue<T: ManagedObject>(forKey key: String) -> T {
        guard let object: T = managedValue(forKey: key) else { preconditionFailure("\(modelEntity.name).\(key) is nil") }
        return object
    }

    /// Sets a to-one relationship from a `@Managed` property of a non-optional object type.
    public func setManagedValue<T: ManagedObject>(_ value: T, forKey key: String) {
        setManagedValue(ObjectValue.object(value), forKey: key)
    }

    /// A to-many relationship's objects as a non-optional `@Managed var items: NSSet` reads them.
    public func managedValue(forKey key: String) -> NSSet { managedValue(forKey: key) ?? NSSet() }

    /// Sets a to-many relationship's objects from a non-optional `@Managed var items: NSSet`.
    public func setManagedValue(_ value: NSSet, forKey key: String) { setManagedValue(value as NSSet?, forKey: key) }

    /// An ordered to-many relationship's objects as a non-optional
    /// `@Managed var items: NSOrderedSet` reads them.
    public func managedValue(forKey key: String) -> NSOrderedSet { managedValue(forKey: key) ?? NSOrderedSet() }

    /// Sets an ordered to-many relationship's objects, in order, from a non-optional
    /// `@Managed var items: NSOrderedSet`.
    public func setManagedValue(_ value: NSOrderedSet, forKey key: String) { setManagedValue(value as NSOrderedSet?, forKey: key) }

    /// A number as Xcode types an attribute whose "Use Scalar Type" is off, `NSNumber?`.
    public func managedValue(forKey key: String) -> NSNumber? {
        CocoaValue.cocoa(managedValue(forKey: key) as ObjectValue) as? NSNumber
    }

    /// Sets a number attribute from an `NSNumber?` property; nil clears it.
    public func setManagedValue(_ value: NSNumber?, forKey key: String) {
        setManagedValue(CocoaValue.objectValue(value), forKey: key)
    }

    /// A decimal attribute as Xcode types it, `NSDecimalNumber?`. (Disfavoured: an
    /// `NSDecimalNumber` is an `NSNumber`, and an `NSNumber?` property must not find two.)
    @_disfavoredOverload
    public func managedValue(forKey key: String) -> NSDecimalNumber? {
        (managedValue(forKey: key) as Decimal?).map { NSDecimalNumber(decimal: $0) }
    }

    /// A transformable attribute's object of an app's own class (`UIColor` on Apple's
    /// systems), as `value(forKey:)` gives it through the registered `ValueTransformer`; nil
    /// when the attribute holds none, or something else.
    @_disfavoredOverload
    public func managedValue<T: NSObject>(forKey key: String) -> T? { value(forKey: key) as? T }

    /// Sets a transformable attribute to an object of an app's own class, through the
    /// registered `ValueTransformer`; nil clears it.
    @_disfavoredOverload
    public func setManagedValue<T: NSObject>(_ value: T?, forKey key: String) { setValue(value, forKey: key) }

    /// Sets a decimal attribute from an `NSDecimalNumber?` property; nil clears it.
    public func setManagedValue(_ value: NSDecimalNumber?, forKey key: String) {
        setManagedValue(value?.decimalValue, forKey: key)
    }
}

extension ObjectValue: ManagedValue {
    /// The value the object keeps, unchanged.
    public static func fromManaged(_ value: ObjectValue) -> ObjectValue { value }
    /// The value itself.
    public var managedObjectValue: ObjectValue { self }
}

extension Set: ManagedValue where Element: ManagedObject {
    /// The objects of a to-many relationship that are of the element class.
    public static func fromManaged(_ value: ObjectValue) -> Set<Element> {
        Set((value.collectionElements ?? []).compactMap { $0.objectReference as? Element })
    }
    /// The objects, as an unordered to-many relationship keeps them.
    public var managedObjectValue: ObjectValue { .set(map { .object($0) }) }
}

extension Array: ManagedValue where Element: ManagedValue {
    /// The elements the object keeps (an ordered to-many's objects, say), each converted;
    /// empty for none.
    public static func fromManaged(_ value: ObjectValue) -> [Element] {
        (value.collectionElements ?? []).map { Element.fromManaged($0) }
    }
    /// The elements in order, each as the object keeps it.
    public var managedObjectValue: ObjectValue { .array(map(\.managedObjectValue)) }
}
