import Foundation
import ObjectGraph
import Predicates

/// Values as Core Data code passes them (`Any`: Swift values, Foundation's classes, managed
/// objects, collections of them) and as the engine keeps them (`ObjectValue`), each way.
///
/// ```swift
/// CocoaValue.objectValue(NSNumber(value: 3))      // .int(3)
/// CocoaValue.any(.date(now)) as? Date             // now
/// ```
enum CocoaValue {
    /// The engine's value for a value Core Data code passes: a predicate's argument, a
    /// constant, an object to evaluate.
    ///
    /// A value of a kind Core Data cannot hold is a programming error, as it is there.
    static func objectValue(_ value: Any?) -> ObjectValue {
        guard let value else { return .null }
        guard let held = heldValue(value) else {
            preconditionFailure("a \(type(of: value)) is no value Core Data holds (give a String, number, Date, Data, UUID, URL, managed object, or a collection of them)")
        }
        return held
    }

    /// `objectValue(_:)` for a value that may be none Core Data holds (an app's own object a
    /// transformer made): nil then, rather than a stop.
    static func heldValue(_ value: Any) -> ObjectValue? {
        switch value {
        // Swift's own values first: on Linux a Swift value also casts to Foundation's class
        // (an Int to NSNumber), which would lose what it was.
        case let value as ObjectValue: return value
        case let convertible as any ObjectValueConvertible: return convertible.objectValue
        case is NSNull: return .null
        case let number as NSDecimalNumber: return .decimal(number.decimalValue)
        case let number as NSNumber: return objectValue(number)
        case let string as NSString: return .string(string as String)
        case let date as NSDate: return .date(date as Date)
        case let data as NSData: return .data(data as Data)
        case let uuid as NSUUID: return .uuid(uuid as UUID)
        case let url as NSURL: return url.absoluteURL.map { .url($0) } ?? .null
        case let expression as NSExpression: return expression.constantObjectValue
        case let array as NSArray: return held(Array(array)).map(ObjectValue.array)
        case let set as NSSet: return held(Array(set)).map(ObjectValue.uniqueSet)
        case let orderedSet as NSOrderedSet: return held(orderedSet.array).map(ObjectValue.array)
        case let dictionary as NSDictionary:
            var values: [String: ObjectValue] = [:]
            for (key, element) in dictionary {
                guard let value = heldValue(element) else { return nil }
                values["\(key)"] = value
            }
            return .dictionary(values)
        case let array as [Any]: return held(array).map(ObjectValue.array)
        case let set as Set<AnyHashable>: return held(set.map(\.base)).map(ObjectValue.uniqueSet)
        case let dictionary as [String: Any]:
            var values: [String: ObjectValue] = [:]
            for (key, element) in dictionary {
                guard let value = heldValue(element) else { return nil }
                values[key] = value
            }
            return .dictionary(values)
        default: return nil
        }
    }

    /// Every element's value, or nil when one is none Core Data holds.
    private static func held(_ elements: [Any]) -> [ObjectValue]? {
        var values: [ObjectValue] = []
        values.reserveCapacity(elements.count)
        for element in elements {
            guard let value = heldValue(element) else { return nil }
            values.append(value)
        }
        return values
    }

    /// The engine's value for an `NSNumber`: a Boolean where it was made from one, a whole
    /// number where it holds one, else a `Double`.
    static func objectValue(_ number: NSNumber) -> ObjectValue {
        // A Boolean NSNumber is one of two shared objects, as Core Foundation's are.
        if number === NSNumber(value: true) || number === NSNumber(value: false) { return .bool(number.boolValue) }
        switch String(cString: number.objCType) {
        case "f", "d": return .double(number.doubleValue)
        case "Q", "L": return number.uint64Value > UInt64(Int.max) ? .double(number.doubleValue) : .int(Int(number.uint64Value))
        default: return .int(number.intValue)
        }
    }

    /// The value Core Data code reads for one the engine keeps: Swift's own types
    /// (`String`, `Int`, `Double`, `Bool`, `Date`, …), arrays, sets and dictionaries of them,
    /// managed objects; `nil` for none.
    static func any(_ value: ObjectValue) -> Any? {
        switch value {
        case .null: return nil
        case .bool(let b): return b
        case .int(let i): return i
        case .double(let d): return d
        case .decimal(let d): return d
        case .string(let s): return s
        case .date(let d): return d
        case .data(let d): return d
        case .uuid(let u): return u
        case .url(let u): return u
        // Collections hold NSNull where Core Data's hold it for nil.
        case .array(let values): return values.map { any($0) ?? NSNull() }
        case .set(let values): return Set(values.map { (any($0) as? AnyHashable) ?? AnyHashable(NSNull()) })
        case .dictionary(let values): return values.mapValues { any($0) ?? NSNull() }
        case .object(let object): return object
        }
    }

    /// The value Core Data's managed objects give for one the engine keeps: numbers and
    /// Booleans as `NSNumber` (so that `as? Int64`, `as? Bool` read them as there), decimals as
    /// `NSDecimalNumber`, a to-many relationship's objects as an `NSSet` (an `NSOrderedSet`
    /// when `ordered`), other values as `any(_:)` gives them.
    static func cocoa(_ value: ObjectValue, ordered: Bool? = nil) -> Any? {
        switch value {
        case .bool(let b): return NSNumber(value: b)
        case .int(let i): return NSNumber(value: i)
        case .double(let d): return NSNumber(value: d)
        case .decimal(let d): return NSDecimalNumber(decimal: d)
        case .set(let values): return NSSet(array: values.map { cocoa($0) ?? NSNull() })
        case .array(let values) where ordered == true: return NSOrderedSet(array: values.map { cocoa($0) ?? NSNull() })
        case .array(let values): return values.map { cocoa($0) ?? NSNull() }
        case .dictionary(let values): return values.mapValues { cocoa($0) ?? NSNull() }
        default: return any(value)
        }
    }
}
