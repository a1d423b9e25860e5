import Foundation
import ObjectGraph
import ObjectModel
import Predicates

extension JSONValue {
    /// The JSON form of an attribute value: dates as ISO-8601, binary as base64.
    public static func from(_ value: ObjectValue) -> JSONValue {
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return d.isFinite && d.rounded() == d && abs(d) < 1e15 ? .int(Int(d)) : .double(d)
        case .decimal(let d): return .decimal(d)
        case .string(let s): return .string(s)
        case .date(let d):
            if textDates.contains(d) { return .string(dateText(d)) }
            // Past what a four-digit year writes: its seconds since 2001, as export writes it.
            let seconds = d.timeIntervalSinceReferenceDate
            return seconds.rounded() == seconds && abs(seconds) < 9e15 ? .int(Int(seconds)) : .double(seconds)
        case .data(let d): return .string(d.base64EncodedString())
        case .uuid(let u): return .string(u.uuidString)
        case .url(let u): return .string(u.absoluteString)
        case .array(let a), .set(let a): return .array(a.map(from))
        case .dictionary(let d): return .object(d.mapValues(from))
        case .object(let o):
            if let m = o as? ManagedObject { return .string(m.objectID.uriRepresentation.absoluteString) }
            if let id = o as? ManagedObjectID { return .string(id.uriRepresentation.absoluteString) }
            return .string("\(o)")
        }
    }

    /// The dates an ISO-8601 text with a four-digit year holds: years 1 to 9999 (UTC).
    static let textDates = Date(timeIntervalSince1970: -62_135_596_800)..<Date(timeIntervalSince1970: 253_402_300_800)

    /// The JSON an export writes for an attribute's value, and, where that is `null` instead,
    /// why: a value another program put in the store that is no value of the attribute's type
    /// (text in a date column, a number past an integer type's range), or a number JSON cannot
    /// hold (infinite, NaN), would make a file that import refuses or nothing can read. A date
    /// beyond years 1 to 9999 is written as its seconds since 2001-01-01 UTC, which import
    /// reads back exactly.
    public static func exported(_ value: ObjectValue, as type: AttributeType) -> (json: JSONValue, problem: String?) {
        switch (type, value) {
        case (_, .null): return (.null, nil)
        case (.string, .string(let s)): return (.string(s), nil)
        case (.boolean, .bool(let b)): return (.bool(b), nil)
        case (.integer16, .int(let i)), (.integer32, .int(let i)), (.integer64, .int(let i)):
            if let problem = type.rangeProblem(.int(i)) { return (.null, "\(problem); written as null") }
            return (.int(i), nil)
        case (.double, .double(let d)), (.float, .double(let d)), (.transformable, .double(let d)):
            guard d.isFinite else { return (.null, "holds \(d), which JSON cannot hold; written as null") }
            return (from(value), nil)
        case (.date, .date(let d)):
            let seconds = d.timeIntervalSinceReferenceDate
            guard seconds.isFinite else { return (.null, "holds a date of \(seconds) seconds, which no file can hold; written as null") }
            return (from(value), nil)
        case (.transformable, _), (.undefined, _), (.objectID, _):
            return (from(value), nil)
        default:
            let json = from(value)
            if json.attributeValue(type) != nil { return (json, nil) }
            let shown: String
            switch value {
            case .string(let s): shown = "the text “\(s.count > 40 ? s.prefix(40) + "…" : s)”"
            case .int(let i): shown = "the number \(i)"
            case .double(let d): shown = "the number \(d)"
            case .data(let d): shown = "\(d.count) bytes"
            default: shown = "a value"
            }
            return (.null, "holds \(shown), which is no \(type.xcodeName); written as null")
        }
    }

    /// The attribute value this JSON stands for, or `nil` when it does not fit the type.
    public func attributeValue(_ type: AttributeType) -> ObjectValue? {
        if case .null = self { return .null }
        switch (type, self) {
        case (.integer16, .int(let i)), (.integer32, .int(let i)), (.integer64, .int(let i)):
            return type.integerRange!.contains(i) ? .int(i) : nil
        case (.double, .int(let i)), (.float, .int(let i)): return .double(Double(i))
        case (.double, .double(let d)), (.float, .double(let d)): return .double(d)
        case (.double, .decimal(let d)), (.float, .decimal(let d)): return Double(d.description).map(ObjectValue.double)
        case (.decimal, .int(let i)): return .decimal(Decimal(i))
        case (.decimal, .double(let d)): return .decimal(Decimal(string: "\(d)", locale: Self.posix) ?? Decimal(d))
        case (.decimal, .decimal(let d)): return .decimal(d)
        case (.decimal, .string(let s)):
            // More digits than a Decimal holds would be dropped without a word: refused.
            guard Self.significantDigits(s).map({ $0 <= Self.decimalDigits }) ?? true else { return nil }
            return Decimal(string: s, locale: Self.posix).map(ObjectValue.decimal)
        case (.boolean, .bool(let b)): return .bool(b)
        case (.string, .string(let s)): return .string(s)
        case (.date, .string(let s)): return Self.date(s).map(ObjectValue.date)
        // Seconds since 2001-01-01 UTC: how an export writes a date past year 9999 (or before 1).
        case (.date, .int(let i)): return .date(Date(timeIntervalSinceReferenceDate: Double(i)))
        case (.date, .double(let d)): return .date(Date(timeIntervalSinceReferenceDate: d))
        case (.binary, .string(let s)), (.transformable, .string(let s)): return Data(base64Encoded: s).map(ObjectValue.data)
        // A transformable value that is not a blob is written as itself, and read back so.
        case (.transformable, .int(let i)): return .int(i)
        case (.transformable, .double(let d)): return .double(d)
        case (.transformable, .decimal(let d)): return .decimal(d)
        case (.transformable, .bool(let b)): return .bool(b)
        case (.uuid, .string(let s)): return UUID(uuidString: s).map(ObjectValue.uuid)
        case (.uri, .string(let s)): return URL(string: s).map(ObjectValue.url)
        default: return nil
        }
    }

    /// Why this value does not fit an attribute of a type, in words: the range of an
    /// integer type, a fraction where a whole number goes, a date or base64 that does not
    /// read. Call when `attributeValue(type)` is nil.
    public func problem(as type: AttributeType) -> String {
        switch (type, self) {
        case (.integer16, .int(let i)), (.integer32, .int(let i)), (.integer64, .int(let i)):
            return type.rangeProblem(.int(i)) ?? "\(i) does not fit \(type.xcodeName)"
        case (.integer16, .double(let d)), (.integer32, .double(let d)), (.integer64, .double(let d)):
            return "\(d) is not a whole number, which \(type.xcodeName) needs"
        case (.integer16, .decimal(let d)), (.integer32, .decimal(let d)), (.integer64, .decimal(let d)):
            return "\(d) is not a whole number in the range of \(type.xcodeName)"
        case (.decimal, .string(let text)):
            if let digits = Self.significantDigits(text), digits > Self.decimalDigits {
                return "\(digits) significant digits are more than a Decimal keeps (\(Self.decimalDigits))"
            }
            return "\"\(text)\" is not a decimal number"
        case (.date, .string(let text)):
            if let impossible = Self.impossibleField(text) { return "\"\(text)\" is not a date: \(impossible)" }
            return "\"\(text)\" is not an ISO-8601 date (such as 2024-05-01T10:00:00Z)"
        case (.binary, .string), (.transformable, .string):
            return "this string is not base64, which \(type.xcodeName) needs"
        case (.uuid, .string(let text)):
            return "\"\(text)\" is not a UUID"
        case (.uri, .string(let text)):
            return "\"\(text)\" is not a URI"
        default:
            return "expects \(type.xcodeName), got \(kindName)"
        }
    }

    /// The significant digits a Decimal keeps exactly.
    static let decimalDigits = 38

    /// How many significant digits a number written as text has (`"0012.3400"` has 4), or
    /// nil when it is not a plain decimal number.
    static func significantDigits(_ text: String) -> Int? {
        var mantissa = Substring(text.trimmingCharacters(in: .whitespaces))
        if let e = mantissa.firstIndex(where: { $0 == "e" || $0 == "E" }) { mantissa = mantissa[..<e] }
        if mantissa.first == "-" || mantissa.first == "+" { mantissa = mantissa.dropFirst() }
        let digits = mantissa.filter { $0 != "." }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
              mantissa.filter({ $0 == "." }).count <= 1 else { return nil }
        let trimmed = digits.drop(while: { $0 == "0" }).reversed().drop(while: { $0 == "0" })
        return trimmed.count
    }
}
