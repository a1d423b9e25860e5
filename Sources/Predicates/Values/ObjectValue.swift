import Foundation

/// A value in the object graph: what a key path yields, what a literal in a predicate
/// stands for, and what an attribute holds.
///
/// Equality follows Core Data's `isEqual:`: numbers (integers, floating point, decimals
/// and booleans) compare numerically, a string never equals a number, and objects are
/// equal when their identities are.
///
/// ```swift
/// let age: ObjectValue = 42
/// age == .double(42.0)      // true
/// age == "42"               // false
/// ```
public enum ObjectValue {
    /// No value: `nil` in a predicate, an unset optional attribute.
    case null
    /// A boolean, which compares as the number 0 or 1.
    case bool(Bool)
    /// An integer of any of Core Data's integer widths.
    case int(Int)
    /// A binary floating-point number (`Double` and `Float` attributes).
    case double(Double)
    /// A decimal number.
    case decimal(Decimal)
    /// A string.
    case string(String)
    /// A point in time.
    case date(Date)
    /// Binary data.
    case data(Data)
    /// A universally unique identifier.
    case uuid(UUID)
    /// A URI.
    case url(URL)
    /// An ordered collection (an array, an ordered to-many relationship).
    case array([ObjectValue])
    /// An unordered collection of distinct values (a to-many relationship).
    case set([ObjectValue])
    /// A dictionary: a row of a dictionary fetch, a substitution dictionary.
    case dictionary([String: ObjectValue])
    /// An object with identity: a managed object or an object ID.
    case object(any KeyValueObject)
}

// Objects in the `.object` case belong to one context and one thread, as in Core Data;
// every other case is a plain value.
extension ObjectValue: @unchecked Sendable {}

extension ObjectValue {
    /// Whether this is `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value as a `Double` when it is a number or a boolean.
    public var doubleValue: Double? {
        switch self {
        case .bool(let b): return b ? 1 : 0
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .decimal(let d): return NSDecimalNumber(decimal: d).doubleValue
        default: return nil
        }
    }

    /// The value as an `Int` when it is an integer, a boolean, or a number with no fraction.
    public var intValue: Int? {
        switch self {
        case .bool(let b): return b ? 1 : 0
        case .int(let i): return i
        case .double(let d):
            guard d.isFinite, d.rounded(.towardZero) == d, abs(d) < 9.2e18 else { return nil }
            return Int(d)
        case .decimal(let d):
            let n = NSDecimalNumber(decimal: d)
            guard n.decimalValue == Decimal(n.int64Value) else { return nil }
            return n.intValue
        default: return nil
        }
    }

    /// The value as a `Decimal` when it is a number or a boolean.
    public var decimalValue: Decimal? {
        switch self {
        case .bool(let b): return b ? 1 : 0
        case .int(let i): return Decimal(i)
        case .double(let d): return d.isFinite ? Decimal(d) : nil
        case .decimal(let d): return d
        default: return nil
        }
    }

    /// The value as a `Bool`: booleans, and numbers (non-zero is true).
    public var boolValue: Bool? {
        switch self {
        case .bool(let b): return b
        case .int(let i): return i != 0
        case .double(let d): return d != 0
        case .decimal(let d): return d != 0
        default: return nil
        }
    }

    /// The string, when the value is one.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The date, when the value is one.
    public var dateValue: Date? {
        if case .date(let d) = self { return d }
        return nil
    }

    /// Whether the value is a number or a boolean.
    public var isNumeric: Bool {
        switch self {
        case .bool, .int, .double, .decimal: return true
        default: return false
        }
    }

    /// The elements when the value is a collection (array or set), else `nil`.
    public var collectionElements: [ObjectValue]? {
        switch self {
        case .array(let a), .set(let a): return a
        default: return nil
        }
    }

    /// The object, when the value is one.
    public var objectReference: (any KeyValueObject)? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// A short name of the value's kind, for error messages.
    public var typeName: String {
        switch self {
        case .null: return "nil"
        case .bool: return "Boolean"
        case .int: return "Integer"
        case .double: return "Double"
        case .decimal: return "Decimal"
        case .string: return "String"
        case .date: return "Date"
        case .data: return "Binary"
        case .uuid: return "UUID"
        case .url: return "URI"
        case .array: return "Array"
        case .set: return "Set"
        case .dictionary: return "Dictionary"
        case .object(let o): return o.keyValueTypeName
        }
    }

    /// Builds a set value, dropping duplicates while keeping the first occurrence's order.
    public static func uniqueSet(_ elements: [ObjectValue]) -> ObjectValue {
        var seen = Set<ObjectValue>()
        var unique: [ObjectValue] = []
        unique.reserveCapacity(elements.count)
        for e in elements where seen.insert(e).inserted { unique.append(e) }
        return .set(unique)
    }
}

extension ObjectValue: Equatable {
    /// Core Data's `isEqual:`: numbers numerically, everything else by kind and value.
    public static func == (lhs: ObjectValue, rhs: ObjectValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.int(let a), .int(let b)): return a == b
        // Literally, as isEqual: compares strings (and SQL their bytes): a composed é is not
        // e + U+0301. [c] and [d] fold both to normal form C first.
        case (.string(let a), .string(let b)): return a.utf8.elementsEqual(b.utf8)
        case (.date(let a), .date(let b)): return a == b
        case (.data(let a), .data(let b)): return a == b
        case (.uuid(let a), .uuid(let b)): return a == b
        case (.url(let a), .url(let b)): return a.absoluteString == b.absoluteString
        case (.array(let a), .array(let b)): return a == b
        case (.set(let a), .set(let b)):
            return a.count == b.count && Set(a) == Set(b)
        case (.dictionary(let a), .dictionary(let b)): return a == b
        case (.object(let a), .object(let b)): return a.identity == b.identity
        default:
            guard lhs.isNumeric, rhs.isNumeric else { return false }
            return ObjectValue.numericEqual(lhs, rhs)
        }
    }

    private static func numericEqual(_ a: ObjectValue, _ b: ObjectValue) -> Bool {
        if case .decimal = a, let x = a.decimalValue, let y = b.decimalValue { return x == y }
        if case .decimal = b, let x = a.decimalValue, let y = b.decimalValue { return x == y }
        if let x = a.intValue, let y = b.intValue, !(a.isFloating || b.isFloating) { return x == y }
        // An integer against a double exactly, as SQLite compares them (2^53 + 1 is not 2^53).
        if case .double(let d) = b, !a.isFloating, let i = a.intValue { return exactOrder(i, d) == .orderedSame }
        if case .double(let d) = a, !b.isFloating, let i = b.intValue { return exactOrder(i, d) == .orderedSame }
        guard let x = a.doubleValue, let y = b.doubleValue else { return false }
        return x == y
    }

    /// Whether the value is a double (not an integer, boolean or decimal).
    var isFloating: Bool {
        if case .double = self { return true }
        return false
    }
}

extension ObjectValue: Hashable {
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool, .int, .double, .decimal:
            // Equal numbers of different kinds must hash alike.
            hasher.combine(1)
            if let i = intValue { hasher.combine(Double(i)) } else { hasher.combine(doubleValue ?? 0) }
        case .string(let s): hasher.combine(2); hasher.combine(s)
        case .date(let d): hasher.combine(3); hasher.combine(d)
        case .data(let d): hasher.combine(4); hasher.combine(d)
        case .uuid(let u): hasher.combine(5); hasher.combine(u)
        case .url(let u): hasher.combine(6); hasher.combine(u.absoluteString)
        case .array(let a): hasher.combine(7); hasher.combine(a)
        case .set(let a): hasher.combine(8); hasher.combine(Set(a))
        case .dictionary(let d): hasher.combine(9); hasher.combine(d)
        case .object(let o): hasher.combine(10); hasher.combine(o.identity)
        }
    }
}

extension ObjectValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension ObjectValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension ObjectValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self = .int(value) }
}

extension ObjectValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension ObjectValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension ObjectValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: ObjectValue...) { self = .array(elements) }
}

extension ObjectValue: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, ObjectValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
