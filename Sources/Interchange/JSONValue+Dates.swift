import Foundation
import ObjectGraph
import ObjectModel
import Predicates

extension JSONValue {
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

    /// A date as ISO-8601 text in UTC, as the export writes it: whole seconds as
    /// `2024-05-01T10:00:00Z`, anything finer to the millisecond (`2024-05-01T10:00:00.250Z`).
    public static func dateText(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        guard seconds.rounded() != seconds else { return plainStyle.format(date) }
        // To the millisecond, then a tenth of one more: the text is that millisecond
        // whether the style cuts the fraction off (Foundation of Swift 6.3) or rounds it.
        let millisecond = (seconds * 1000).rounded() / 1000
        return fractionalStyle.format(Date(timeIntervalSince1970: millisecond + 0.0001))
    }
}
