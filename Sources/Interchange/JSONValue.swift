import Foundation
import ObjectGraph
import ObjectModel
import Predicates

/// A JSON value as TermData reads and writes it: predicate arguments typed as JSON and the
/// graph file format. Text is read by `JSONSyntax.parse` (strict, one pass) and written
/// through `Encodable`.
///
/// ```swift
/// let value = try JSONValue.parse("{\"$date\": \"2024-05-01\"}", what: "--arg 1")
/// try value.predicateValue()   // .date(2024-05-01 00:00:00 UTC)
/// ```
public enum JSONValue: Encodable, Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    /// A number whose digits a `Double` cannot hold (a Decimal's), kept exactly.
    case decimal(Decimal)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .int(let i): try c.encode(i)
        case .double(let d): try c.encode(d)
        case .decimal(let d): try c.encode(d)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    /// Parses JSON text; `what` names it in the error.
    public static func parse(_ text: String, what: String) throws -> JSONValue {
        do {
            return try JSONSyntax.parse(Data(text.utf8))
        } catch {
            // A bare word is most likely a string given without its JSON quotes.
            let word = !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || "_.-@$".contains($0) }
            throw JSONValueError(.notJSON(what: what, text: text, isBareWord: word))
        }
    }

    /// JSON text with sorted keys, as `JSONEncoder` writes it (`.sortedKeys`,
    /// `.withoutEscapingSlashes`, and `.prettyPrinted` unless `pretty` is false).
    public static func text(_ value: JSONValue, pretty: Bool = true) throws -> String {
        String(decoding: try bytes(value, pretty: pretty), as: UTF8.self)
    }

    /// `text`, as UTF-8 bytes.
    public static func bytes(_ value: JSONValue, pretty: Bool = true) throws -> [UInt8] {
        var writer = JSONWriter(pretty: pretty)
        try writer.write(value)
        return writer.bytes
    }

    /// A predicate argument: numbers, strings, booleans, null, arrays, and `{"$date": "ISO-8601"}`.
    public func predicateValue() throws -> ObjectValue {
        switch self {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        // As a Double, as the store binds it, so that both evaluations compare the same value.
        case .decimal(let d): return Double(d.description).map(ObjectValue.double) ?? .decimal(d)
        case .string(let s): return .string(s)
        case .array(let a): return .array(try a.map { try $0.predicateValue() })
        case .object(let o):
            if o.count == 1, let value = o["$date"] {
                guard case .string(let text) = value else {
                    throw JSONValueError(.dateTagNeedsString)
                }
                guard let date = Self.date(text) else { throw JSONValueError(.notADate(text)) }
                return .date(date)
            }
            // A key with a dollar sign is taken for a mistyped tag ({"$Date": …}), not data.
            if let tag = o.keys.sorted().first(where: { $0.hasPrefix("$") }) {
                throw JSONValueError(tag == "$date" ? .dateTagNotAlone : .unknownTag(tag))
            }
            return .dictionary(try o.mapValues { try $0.predicateValue() })
        }
    }

    static let posix = Locale(identifier: "en_US_POSIX")

    // Format styles rather than `ISO8601DateFormatter` for writing dates: a formatter made per
    // value builds an ICU formatter each time, which took most of the time of exporting 100,000 items.
    private static let plainStyle = Date.ISO8601FormatStyle()
    private static let fractionalStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// An ISO-8601 date: a day (`2024-05-01`, midnight UTC), or a day and a time with
    /// `Z` or an offset (`2024-05-01T10:00:00Z`, `2024-05-01 12:00+02:00`, fractions of a
    /// second allowed), kept to the millisecond as the export writes it. Anything else is
    /// no date (`2024-05-01T10:00`, with no zone, among them), and so is a field out of its
    /// range (`impossibleField` says which).
    ///
    /// Read by hand in one pass over the bytes, the proleptic Gregorian calendar computed as
    /// ISO 8601 has it: a format style per value took most of the time of importing 200,000
    /// dated items.
    public static func date(_ text: String) -> Date? {
        let text = text.first?.isWhitespace == true || text.last?.isWhitespace == true
            ? text.trimmingCharacters(in: .whitespaces) : text
        guard let parts = strictDateForm(text), parts.isPossible else { return nil }
        let seconds: Double
        if parts.year > 1582 {
            let days = daysFromCivil(year: parts.year, month: parts.month, day: parts.day)
            seconds = Double(days * 86_400 + parts.hour * 3_600 + parts.minute * 60 + parts.second - parts.offset) + parts.fraction
        } else {
            // Before the Gregorian reform Foundation's calendar is Julian, and the export writes
            // dates with it: read such a date as it does, so that it comes back the same.
            let components = DateComponents(year: parts.year, month: parts.month, day: parts.day,
                                            hour: parts.hour, minute: parts.minute, second: parts.second)
            guard let date = Self.utcCalendar.date(from: components) else { return nil }
            seconds = date.timeIntervalSince1970 - Double(parts.offset) + parts.fraction
        }
        return Date(timeIntervalSince1970: (seconds * 1000).rounded() / 1000)
    }

    private static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// Days from 1970-01-01 to a day of the proleptic Gregorian calendar (after Howard
    /// Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private struct DateParts {
        var year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0
        var fraction = 0.0
        var offsetHours = 0, offsetMinutes = 0
        /// The zone's offset from UTC, in seconds.
        var offset = 0

        /// Whether every field is in its range: what `impossibleField` checks (and words).
        var isPossible: Bool {
            guard (1...12).contains(month) else { return false }
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
            return (1...days).contains(day) && hour <= 23 && minute <= 59 && second <= 59
                && offsetHours <= 23 && offsetMinutes <= 59
        }
    }

    /// The fields of a text in the form `YYYY-MM-DD`, or that and `HH:MM[:SS[.fraction]]`
    /// after `T`, `t` or a space, then `Z`, `z` or `±HH[:]MM`; nil for any other text.
    /// Checked by hand, as a `Regex` per value took a third of a millisecond.
    private static func strictDateForm(_ text: String) -> DateParts? {
        var text = text
        return text.withUTF8 { b -> DateParts? in
            func digits(_ from: Int, _ count: Int) -> Int? {
                guard from + count <= b.count else { return nil }
                var n = 0
                for i in from..<from + count {
                    guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                    n = n * 10 + Int(b[i] - 0x30)
                }
                return n
            }
            func byte(_ i: Int, _ c: UInt8) -> Bool { i < b.count && b[i] == c }
            var parts = DateParts()
            guard let year = digits(0, 4), byte(4, UInt8(ascii: "-")), let month = digits(5, 2), byte(7, UInt8(ascii: "-")),
                  let day = digits(8, 2) else { return nil }
            (parts.year, parts.month, parts.day) = (year, month, day)
            if b.count == 10 { return parts }
            guard byte(10, UInt8(ascii: "T")) || byte(10, UInt8(ascii: "t")) || byte(10, UInt8(ascii: " ")),
                  let hour = digits(11, 2), byte(13, UInt8(ascii: ":")), let minute = digits(14, 2) else { return nil }
            (parts.hour, parts.minute) = (hour, minute)
            var i = 16
            if byte(i, UInt8(ascii: ":")) {
                guard let second = digits(i + 1, 2) else { return nil }
                parts.second = second
                i += 3
                if byte(i, UInt8(ascii: ".")) {
                    guard digits(i + 1, 1) != nil else { return nil }
                    i += 1
                    var scale = 0.1
                    while let d = digits(i, 1) { parts.fraction += Double(d) * scale; scale /= 10; i += 1 }
                }
            }
            if byte(i, UInt8(ascii: "Z")) || byte(i, UInt8(ascii: "z")) {
                i += 1
            } else if byte(i, UInt8(ascii: "+")) || byte(i, UInt8(ascii: "-")) {
                let sign = byte(i, UInt8(ascii: "-")) ? -1 : 1
                guard let hours = digits(i + 1, 2) else { return nil }
                i += 3
                if byte(i, UInt8(ascii: ":")) { i += 1 }
                guard let minutes = digits(i, 2) else { return nil }
                i += 2
                (parts.offsetHours, parts.offsetMinutes) = (hours, minutes)
                parts.offset = sign * (hours * 3_600 + minutes * 60)
            } else {
                return nil
            }
            return i == b.count ? parts : nil
        }
    }

    /// What is impossible in a date written in the ISO-8601 form: a day its month does not
    /// have (`2023-02-30`), an hour, minute or second past its range (`25:61:61`), a zone
    /// offset past 23:59. Nil when every field is in range (or the text is not in the form;
    /// `date(_:)` says that). The date parsers would roll such a date over into another.
    ///
    /// ```swift
    /// JSONValue.impossibleField("2023-02-30")   // "February 2023 has 28 days"
    /// ```
    public static func impossibleField(_ text: String) -> String? {
        let b = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count, b[from..<from + count].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return b[from..<from + count].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2) else { return nil }
        guard (1...12).contains(month) else { return "there is no month \(month)" }
        let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day) else { return "\(months[month - 1]) \(year) has \(days) days" }
        guard b.count > 10 else { return nil }
        if let hour = number(11, 2), hour > 23 { return "there is no hour \(hour)" }
        if let minute = number(14, 2), minute > 59 { return "there is no minute \(minute)" }
        if b.count > 16, b[16] == UInt8(ascii: ":"), let second = number(17, 2), second > 59 { return "there is no second \(second)" }
        // The zone: after the last + or - past the time.
        if b.count > 16, let sign = b[16...].lastIndex(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }) {
            let hours = number(sign + 1, 2)
            let minutesAt = sign + 3 < b.count && b[sign + 3] == UInt8(ascii: ":") ? sign + 4 : sign + 3
            if let hours, hours > 23 { return "a zone offset of \(hours) hours is past 23" }
            if let minutes = number(minutesAt, 2), minutes > 59 { return "a zone offset of \(minutes) minutes is past 59" }
        }
        return nil
    }

    public static func dateText(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        guard seconds.rounded() != seconds else { return plainStyle.format(date) }
        // To the millisecond, then a tenth of one more: the text is that millisecond
        // whether the style cuts the fraction off (Foundation of Swift 6.3) or rounds it.
        let millisecond = (seconds * 1000).rounded() / 1000
        return fractionalStyle.format(Date(timeIntervalSince1970: millisecond + 0.0001))
    }

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

    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int, .double, .decimal: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// Why text is not the JSON value it was given as.
public struct JSONValueError: Error, Equatable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// `what` (such as `--arg 2`) does not parse; a bare word was most likely meant as a string.
        case notJSON(what: String, text: String, isBareWord: Bool)
        /// `{"$date": 5}`
        case dateTagNeedsString
        /// `{"$date": "soon"}`
        case notADate(String)
        /// `{"$date": "…", "x": 1}`
        case dateTagNotAlone
        /// `{"$Date": "…"}`
        case unknownTag(String)
    }

    public let kind: Kind

    public init(_ kind: Kind) { self.kind = kind }

    public var description: String {
        switch kind {
        case .notJSON(let what, let text, let isBareWord):
            return "\(what) is not valid JSON: \(text)" + (isBareWord ? " (a string takes JSON quotes: '\"\(text)\"')" : "")
        case .dateTagNeedsString:
            return "{\"$date\": …} takes an ISO-8601 string, such as \"2024-05-01T00:00:00Z\""
        case .notADate(let text):
            if let impossible = JSONValue.impossibleField(text) { return "not a date: \(text) (\(impossible))" }
            return "not an ISO-8601 date: \(text)"
        case .dateTagNotAlone:
            return "{\"$date\": …} stands alone: an object with it holds nothing else"
        case .unknownTag(let tag):
            return "unknown tag \(tag): the one tag is {\"$date\": \"ISO-8601\"}; a dictionary's keys do not start with $"
        }
    }
}
