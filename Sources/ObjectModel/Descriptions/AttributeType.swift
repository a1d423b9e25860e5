import Foundation
import Predicates

/// The type of an attribute, spelled in model files as Xcode spells it.
///
/// ```swift
/// AttributeType(xcodeName: "Integer 32")   // .integer32
/// AttributeType.date.xcodeName              // "Date"
/// ```
public enum AttributeType: String, CaseIterable, Sendable, Hashable, Codable {
    /// A 16-bit integer: an `.int` within `Int16`'s range.
    case integer16 = "Integer 16"
    /// A 32-bit integer: an `.int` within `Int32`'s range.
    case integer32 = "Integer 32"
    /// A 64-bit integer: any `.int`.
    case integer64 = "Integer 64"
    /// A decimal number, kept exactly as `.decimal`.
    case decimal = "Decimal"
    /// A double-precision floating-point number, as `.double`.
    case double = "Double"
    /// A single-precision floating-point number: a `.double` within `Float`'s range.
    case float = "Float"
    /// Text, as `.string`.
    case string = "String"
    /// A Boolean, as `.bool`; the integers 0 and 1 are taken for it.
    case boolean = "Boolean"
    /// A point in time, as `.date`; model files write one as seconds since 2001-01-01.
    case date = "Date"
    /// Bytes, as `.data`.
    case binary = "Binary"
    /// A UUID, as `.uuid`.
    case uuid = "UUID"
    /// A URL, as `.url`.
    case uri = "URI"
    /// A value of any kind, taken as it is: Core Data's type for values kept through a value
    /// transformer.
    case transformable = "Transformable"
    /// Core Data's object ID type; any value is taken.
    case objectID = "ObjectID"
    /// No declared type (Core Data's Undefined); any value is taken.
    case undefined = "Undefined"

    /// The type named by an `attributeType` value in a model file, or `nil` if unknown.
    public init?(xcodeName: String) { self.init(rawValue: xcodeName) }

    /// The spelling used in model files.
    public var xcodeName: String { rawValue }

    /// Whether values are numbers (integers, decimals, floating point).
    public var isNumeric: Bool {
        switch self {
        case .integer16, .integer32, .integer64, .decimal, .double, .float: return true
        default: return false
        }
    }

    /// Whether values are integers.
    public var isInteger: Bool {
        self == .integer16 || self == .integer32 || self == .integer64
    }

    /// The range an integer type can hold.
    public var integerRange: ClosedRange<Int>? {
        switch self {
        case .integer16: return Int(Int16.min)...Int(Int16.max)
        case .integer32: return Int(Int32.min)...Int(Int32.max)
        case .integer64: return Int.min...Int.max
        default: return nil
        }
    }

    /// Why a number does not fit this type's range, or `nil` when it fits or is not a number.
    ///
    ///     AttributeType.integer16.rangeProblem(.int(99999))
    ///     // "99999 is out of range for Integer 16 (-32768…32767)"
    public func rangeProblem(_ value: ObjectValue) -> String? {
        switch (self, value) {
        case (.integer16, .int(let i)), (.integer32, .int(let i)):
            guard let range = integerRange, !range.contains(i) else { return nil }
            return "\(i) is out of range for \(xcodeName) (\(range.lowerBound)…\(range.upperBound))"
        case (.float, _):
            guard let d = value.doubleValue, d.isFinite, abs(d) > Double(Float.greatestFiniteMagnitude) else { return nil }
            return "\(d) is out of range for Float (up to ±3.4e38)"
        default:
            return nil
        }
    }

    /// Parses a value written in a model file (`defaultValueString`, `minValueString`, ...).
    ///
    /// Booleans accept `YES`/`NO`/`true`/`false`/`1`/`0`; dates are seconds since
    /// 2001-01-01. Returns `nil` when the text does not fit the type.
    public func parseValue(_ text: String) -> ObjectValue? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch self {
        case .integer16, .integer32, .integer64:
            guard let i = Int(trimmed), integerRange?.contains(i) ?? true else { return nil }
            return .int(i)
        case .decimal:
            guard let d = Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX")),
                  !trimmed.isEmpty, Double(trimmed) != nil else { return nil }
            return .decimal(d)
        case .double, .float:
            guard let d = Double(trimmed), rangeProblem(.double(d)) == nil else { return nil }
            return .double(d)
        case .string:
            return .string(text)
        case .boolean:
            switch trimmed.lowercased() {
            case "yes", "true", "1": return .bool(true)
            case "no", "false", "0": return .bool(false)
            default: return nil
            }
        case .date:
            guard let seconds = Double(trimmed) else { return nil }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .uuid:
            guard let u = UUID(uuidString: trimmed) else { return nil }
            return .uuid(u)
        case .uri:
            guard let u = URL(string: trimmed) else { return nil }
            return .url(u)
        case .binary, .transformable, .objectID, .undefined:
            return nil
        }
    }

    /// Writes a value the way `parseValue` reads it back.
    public func formatValue(_ value: ObjectValue) -> String? {
        switch (self, value) {
        case (.boolean, _): return value.boolValue.map { $0 ? "YES" : "NO" }
        case (.date, .date(let d)): return Self.formatNumber(d.timeIntervalSinceReferenceDate)
        case (_, .int(let i)): return String(i)
        case (_, .double(let d)): return Self.formatNumber(d)
        case (_, .decimal(let d)): return "\(d)"
        case (_, .string(let s)): return s
        case (_, .uuid(let u)): return u.uuidString
        case (_, .url(let u)): return u.absoluteString
        default: return nil
        }
    }

    /// Whether a value may be stored in an attribute of this type (nil always may).
    public func accepts(_ value: ObjectValue) -> Bool {
        switch (self, value) {
        case (_, .null): return true
        case (.integer16, .int(let i)), (.integer32, .int(let i)), (.integer64, .int(let i)):
            return integerRange?.contains(i) ?? true
        case (.integer16, .bool), (.integer32, .bool), (.integer64, .bool): return true
        case (.decimal, _), (.double, _): return value.isNumeric
        case (.float, _): return value.isNumeric && rangeProblem(value) == nil
        case (.string, .string): return true
        case (.boolean, .bool): return true
        case (.boolean, .int(let i)): return i == 0 || i == 1
        case (.date, .date): return true
        case (.binary, .data): return true
        case (.uuid, .uuid): return true
        case (.uri, .url): return true
        case (.transformable, _), (.undefined, _), (.objectID, _): return true
        default: return false
        }
    }

    /// Converts a value to this type's canonical case (an integer stored in a Double
    /// attribute becomes `.double`, 0/1 in a Boolean becomes `.bool`); `nil` when it does not fit.
    public func coerce(_ value: ObjectValue) -> ObjectValue? {
        guard accepts(value) else { return nil }
        switch (self, value) {
        case (_, .null): return .null
        case (.integer16, _), (.integer32, _), (.integer64, _): return value.intValue.map(ObjectValue.int)
        case (.double, _), (.float, _): return value.doubleValue.map(ObjectValue.double)
        case (.decimal, _): return value.decimalValue.map(ObjectValue.decimal)
        case (.boolean, _): return value.boolValue.map(ObjectValue.bool)
        default: return value
        }
    }

    static func formatNumber(_ d: Double) -> String {
        if d.rounded() == d, abs(d) < 1e15 { return String(Int(d)) }
        return String(d)
    }
}
