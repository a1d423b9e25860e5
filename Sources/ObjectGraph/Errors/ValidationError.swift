import Foundation
import Predicates

/// One reason an object cannot be saved.
///
/// It refers to the object, which belongs to its context's thread like every managed
/// object; the failure may travel inside an error, but read and release the object on that
/// thread.
public struct ValidationFailure: CustomStringConvertible, @unchecked Sendable {
    /// Core Data's error codes for the kinds of failure.
    public enum Code: Int, Sendable {
        case generic = 1550
        case uniquenessConstraint = 1551
        case missingMandatoryProperty = 1570
        case relationshipLacksMinimumCount = 1580
        case relationshipExceedsMaximumCount = 1590
        case relationshipDeniedDelete = 1600
        case numberTooLarge = 1610
        case numberTooSmall = 1620
        case dateTooLate = 1630
        case dateTooSoon = 1640
        case stringTooLong = 1660
        case stringTooShort = 1670
        case stringPatternMatching = 1680
    }

    public var code: Code
    /// The object that failed.
    public var object: ManagedObject
    /// The key at fault, if one.
    public var key: String?
    /// The value at fault.
    public var value: ObjectValue
    /// What is wrong, in words.
    public var reason: String

    public init(code: Code, object: ManagedObject, key: String?, value: ObjectValue, reason: String) {
        self.code = code
        self.object = object
        self.key = key
        self.value = value
        self.reason = reason
    }

    public var entityName: String { object.entity.name }

    /// The object in words: `new Employee` before its first save, `Employee p3` after.
    public var subject: String {
        guard let key = object.objectID.primaryKey else { return "new \(entityName)" }
        return "\(entityName) p\(key)"
    }

    /// What is wrong, without the object: `firstName is required`. For an error shown at
    /// the field it concerns.
    public var message: String {
        guard let key else { return reason }
        return "\(key) \(reason)"
    }

    public var description: String {
        guard key != nil else { return "\(subject): \(message)" }
        return "\(subject): \(message) (value: \(Self.render(value)))"
    }

    /// A value as an error message shows it: strings quoted, objects by entity and ID,
    /// collections by their size.
    public static func render(_ value: ObjectValue) -> String {
        switch value {
        case .null: return "nil"
        case .string(let s): return "\"\(s)\""
        case .object(let o): return (o as? ManagedObject).map { "\($0.entity.name) \($0.objectID)" } ?? "\(o.identity)"
        case .set(let a), .array(let a): return "\(a.count) objects"
        case .date(let d): return ISO8601DateFormatter().string(from: d)
        case .bool(let b): return b ? "YES" : "NO"
        case .int(let i): return String(i)
        case .double(let d): return String(d)
        case .decimal(let d): return "\(d)"
        case .data(let d): return "\(d.count) bytes"
        case .uuid(let u): return u.uuidString
        case .url(let u): return u.absoluteString
        case .dictionary(let d): return "\(d.count) entries"
        }
    }
}

/// A save refused because objects are invalid: every failure of the save, together.
public struct ValidationError: Error, CustomStringConvertible {
    public var failures: [ValidationFailure]

    public init(failures: [ValidationFailure]) { self.failures = failures }

    /// The failures without their objects, for an error shown at the field: one per line.
    public var message: String {
        failures.map(\.message).joined(separator: "\n")
    }

    public var description: String {
        if failures.count == 1 { return "validation failed: \(failures[0])" }
        return "validation failed (\(failures.count) problems):\n" + failures.map { "  \($0)" }.joined(separator: "\n")
    }
}
