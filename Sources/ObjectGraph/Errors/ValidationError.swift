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
        /// Any other failure: a subclass's own check refused a value, or validating an object threw
        /// an error that is not a `ValidationError`.
        case generic = 1550
        /// Another object already has the values of a uniqueness constraint; `key` lists the
        /// constraint's keys.
        case uniquenessConstraint = 1551
        /// A required attribute is `nil`, or a required relationship is empty.
        case missingMandatoryProperty = 1570
        /// A to-many relationship holds fewer objects than its minimum count.
        case relationshipLacksMinimumCount = 1580
        /// A to-many relationship holds more objects than its maximum count.
        case relationshipExceedsMaximumCount = 1590
        /// A deleted object's Deny rule refuses: the relationship still holds objects that stay.
        case relationshipDeniedDelete = 1600
        /// A number is larger than the attribute's maximum.
        case numberTooLarge = 1610
        /// A number is smaller than the attribute's minimum.
        case numberTooSmall = 1620
        /// A date is later than the attribute's maximum.
        case dateTooLate = 1630
        /// A date is earlier than the attribute's minimum.
        case dateTooSoon = 1640
        /// A string (in characters) or binary value (in bytes) is longer than the attribute's
        /// maximum.
        case stringTooLong = 1660
        /// A string (in characters) or binary value (in bytes) is shorter than the attribute's
        /// minimum.
        case stringTooShort = 1670
        /// A string does not match the attribute's regular expression.
        case stringPatternMatching = 1680
    }

    /// The kind of failure, as Core Data numbers it.
    public var code: Code
    /// The object that failed.
    public var object: ManagedObject
    /// The key at fault, if one.
    public var key: String?
    /// The value at fault.
    public var value: ObjectValue
    /// What is wrong, in words.
    public var reason: String

    /// A failure of an object, at a key or of the whole object (`key` `nil`), with the value at
    /// fault and the reason in words.
    public init(code: Code, object: ManagedObject, key: String?, value: ObjectValue, reason: String) {
        self.code = code
        self.object = object
        self.key = key
        self.value = value
        self.reason = reason
    }

    /// The name of the failed object's entity.
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

    /// The failure as one line: the object, the key and what is wrong, then the value at fault when
    /// there is a key.
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
    /// Every failure found, in the order the objects were checked.
    public var failures: [ValidationFailure]

    /// An error carrying the failures of one save or check.
    public init(failures: [ValidationFailure]) { self.failures = failures }

    /// The failures without their objects, for an error shown at the field: one per line.
    public var message: String {
        failures.map(\.message).joined(separator: "\n")
    }

    /// The error in words: `validation failed:` and the failure, or the number of problems and one
    /// failure a line.
    public var description: String {
        if failures.count == 1 { return "validation failed: \(failures[0])" }
        return "validation failed (\(failures.count) problems):\n" + failures.map { "  \($0)" }.joined(separator: "\n")
    }
}
