import Foundation

/// Something that answers values by key: a managed object, a dictionary, a row.
///
/// Predicates evaluate against any key-value source, so stores and controllers can
/// filter in memory with the same semantics.
///
/// ```swift
/// let row: [String: ObjectValue] = ["name": "Milk", "done": false]
/// try row.value(forKey: "name")   // "Milk"
/// ```
public protocol KeyValueCoding {
    /// The value for a single key (no dots); throws `KeyValueError.unknownKey` for a key
    /// the source does not have.
    func value(forKey key: String) throws -> ObjectValue

    /// The name of the source's type or entity, used in error messages.
    var keyValueTypeName: String { get }

    /// The entity the source is an object of, when it is one: what an unknown key is
    /// looked up against to suggest the key meant.
    var keyValueEntityName: String? { get }
}

extension KeyValueCoding {
    public var keyValueEntityName: String? { nil }
}

/// A key-value source with identity: a managed object or an object ID.
///
/// Two objects are equal (`==`, `IN`, `SELF == %@`) when their identities are equal;
/// a managed object's identity is its object ID, so an object equals its own ID.
public protocol KeyValueObject: AnyObject, KeyValueCoding, ObjectValueConvertible {
    /// What equality compares.
    var identity: AnyHashable { get }
}

extension KeyValueObject {
    public var objectValue: ObjectValue { .object(self) }
}

/// A failure to read a value by key.
public enum KeyValueError: Error, Equatable, CustomStringConvertible {
    /// The source has no such key.
    case unknownKey(String, typeName: String)

    public var description: String {
        switch self {
        case .unknownKey(let key, let typeName):
            return "\(typeName) has no key '\(key)'"
        }
    }
}

extension Dictionary: KeyValueCoding where Key == String, Value == ObjectValue {
    /// A dictionary answers its entries; a missing key is `nil`, as with `NSDictionary`.
    public func value(forKey key: String) throws -> ObjectValue {
        self[key] ?? .null
    }

    public var keyValueTypeName: String { "Dictionary" }
}

extension ObjectValue: KeyValueCoding {
    /// Objects and dictionaries answer their keys; a collection answers the collection of
    /// its elements' values (key-value coding on arrays and sets); `nil` answers `nil`.
    public func value(forKey key: String) throws -> ObjectValue {
        switch self {
        case .object(let o): return try o.value(forKey: key)
        case .dictionary(let d): return d[key] ?? .null
        case .null: return .null
        case .array(let elements): return .array(try elements.map { try $0.value(forKey: key) })
        case .set(let elements):
            return .uniqueSet(try elements.map { try $0.value(forKey: key) })
        default: throw KeyValueError.unknownKey(key, typeName: typeName)
        }
    }

    public var keyValueTypeName: String { typeName }
}

/// A type whose values convert to an `ObjectValue`: what predicate arguments and
/// attribute setters accept.
///
/// ```swift
/// let p = try ObjectPredicate(format: "name == %@ AND age > %@", "Ann", 30)
/// ```
public protocol ObjectValueConvertible {
    /// The value as an `ObjectValue`.
    var objectValue: ObjectValue { get }
}

extension ObjectValue: ObjectValueConvertible {
    public var objectValue: ObjectValue { self }
}

extension String: ObjectValueConvertible {
    public var objectValue: ObjectValue { .string(self) }
}

extension Substring: ObjectValueConvertible {
    public var objectValue: ObjectValue { .string(String(self)) }
}

extension Bool: ObjectValueConvertible {
    public var objectValue: ObjectValue { .bool(self) }
}

extension Int: ObjectValueConvertible {
    public var objectValue: ObjectValue { .int(self) }
}

extension Int16: ObjectValueConvertible {
    public var objectValue: ObjectValue { .int(Int(self)) }
}

extension Int32: ObjectValueConvertible {
    public var objectValue: ObjectValue { .int(Int(self)) }
}

extension Int64: ObjectValueConvertible {
    public var objectValue: ObjectValue { .int(Int(self)) }
}

extension Double: ObjectValueConvertible {
    public var objectValue: ObjectValue { .double(self) }
}

extension Float: ObjectValueConvertible {
    public var objectValue: ObjectValue { .double(Double(self)) }
}

extension Decimal: ObjectValueConvertible {
    public var objectValue: ObjectValue { .decimal(self) }
}

extension Date: ObjectValueConvertible {
    public var objectValue: ObjectValue { .date(self) }
}

extension Data: ObjectValueConvertible {
    public var objectValue: ObjectValue { .data(self) }
}

extension UUID: ObjectValueConvertible {
    public var objectValue: ObjectValue { .uuid(self) }
}

extension URL: ObjectValueConvertible {
    public var objectValue: ObjectValue { .url(self) }
}

extension Optional: ObjectValueConvertible where Wrapped: ObjectValueConvertible {
    public var objectValue: ObjectValue { self?.objectValue ?? .null }
}

extension Array: ObjectValueConvertible where Element: ObjectValueConvertible {
    public var objectValue: ObjectValue { .array(map(\.objectValue)) }
}

extension Set: ObjectValueConvertible where Element: ObjectValueConvertible {
    public var objectValue: ObjectValue { .uniqueSet(map(\.objectValue)) }
}

extension Dictionary: ObjectValueConvertible where Key == String, Value: ObjectValueConvertible {
    public var objectValue: ObjectValue { .dictionary(mapValues(\.objectValue)) }
}

/// An error that says an object has no values to read anywhere: its row is gone (a
/// reference a No Action delete rule left behind). A key path that passes through such an
/// object reads nil beyond it, as the SQL join of a store does.
public protocol MissingObjectError: Error {
    /// Whether this error is of that kind.
    var isMissingObject: Bool { get }
}
