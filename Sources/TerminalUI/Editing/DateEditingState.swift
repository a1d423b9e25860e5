import Foundation

/// A date being edited one part at a time: ←/→ pick year, month, day, hour or minute,
/// ↑/↓ (or k/j, +/-) change it, digits type it (the part moves on when it is full), `t`
/// jumps to today keeping the time, Backspace or Delete clears the date (no value) and an
/// arrow brings it back. Stepping the month or year keeps the day that was chosen: from
/// 31 October, a month on is 30 November and another 31 December.
///
/// A whole date can be typed too, from any part: four digits and a separator (`-`, `/` or
/// `.`) start one, `2026-11-21 19:00` or `2026/3/7` (the time kept when left out). What it
/// cannot be (month 13, 30 February) is named by `problem` and the date keeps that part.
///
///     var state = DateEditingState(date: someDate)
///     state.apply(.up)   // one day later (the day is picked first)
public struct DateEditingState: Hashable, Sendable {
    public enum Part: Int, CaseIterable, Sendable {
        case year, month, day, hour, minute
    }

    public private(set) var date: Date
    public var part: Part = .day
    /// Whether the date was cleared: the value is none.
    public private(set) var isCleared = false
    private let timeZone: TimeZone
    /// The day of the month chosen before a month or year step shortened it.
    private var chosenDay: Int?
    /// The digits typed so far into the current part.
    private var typed = ""
    /// Digits typed in a row, with a whole date's separators once it is one; any other key ends it.
    private var run = ""
    /// The date, and whether it was cleared, when the run began: a whole date is read from there.
    private var beforeRun: RunStart?
    private struct RunStart: Hashable, Sendable {
        var date: Date
        var isCleared: Bool
    }
    /// Why the whole date being typed cannot be taken as it stands ("there is no month 13").
    public private(set) var problem: String?

    public init(date: Date, timeZone: TimeZone = .current) {
        self.date = date
        self.timeZone = timeZone
    }

    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// The text shown: `2026-11-21 14:05`, or `(no date)` once cleared.
    public var text: String {
        if isCleared { return "(no date)       " }
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return "\(DateText.pad(c.year!, 4))-\(DateText.pad(c.month!, 2))-\(DateText.pad(c.day!, 2)) "
            + "\(DateText.pad(c.hour!, 2)):\(DateText.pad(c.minute!, 2))"
    }

    /// The columns of the current part within `text`.
    public var partRange: Range<Int> {
        switch part {
        case .year: return 0..<4
        case .month: return 5..<7
        case .day: return 8..<10
        case .hour: return 11..<13
        case .minute: return 14..<16
        }
    }

    /// Apply a key; returns whether it was a date-editing key.
    @discardableResult
    public mutating func apply(_ key: Key, today: Date = Date()) -> Bool {
        if case .character(let c) = key, c.isASCII, typeIntoRun(c) { return true }
        run = ""
        beforeRun = nil
        problem = nil
        typed = ""
        if key == .backspace || key == .delete {
            isCleared = true
            return true
        }
        if isCleared {
            // A key of the editor brings a cleared date back as it was, before it moves
            // anything; only t also takes today.
            var back = self
            back.isCleared = false
            guard back.move(key, today: today) else { return false }
            if key == .character("t") { self = back } else { isCleared = false }
            return true
        }
        return move(key, today: today)
    }

    /// Picks a part, steps it, or jumps to today; false for a key that does none of these.
    private mutating func move(_ key: Key, today: Date) -> Bool {
        switch key {
        case .left, .character("h"), .backTab:
            part = Part(rawValue: max(0, part.rawValue - 1))!
        case .right, .character("l"):
            part = Part(rawValue: min(Part.allCases.count - 1, part.rawValue + 1))!
        case .up, .character("k"), .character("+"):
            step(1)
        case .down, .character("j"), .character("-"):
            step(-1)
        case .pageUp:
            step(10)
        case .pageDown:
            step(-10)
        case .character("t"):
            let cal = calendar
            let time = cal.dateComponents([.hour, .minute], from: date)
            var day = cal.dateComponents([.year, .month, .day], from: today)
            day.hour = time.hour
            day.minute = time.minute
            date = cal.date(from: day) ?? date
        default:
            return false
        }
        return true
    }

    private mutating func step(_ amount: Int) {
        let cal = calendar
        switch part {
        case .year, .month:
            // By the month's first day, then back to the chosen day as far as the month has it.
            var c = cal.dateComponents([.year, .month, .day, .hour, .minute], from: date)
            let day = chosenDay ?? c.day!
            chosenDay = day
            c.day = 1
            guard let first = cal.date(from: c),
                  let moved = cal.date(byAdding: part == .year ? .year : .month, value: amount, to: first),
                  let days = cal.range(of: .day, in: .month, for: moved) else { return }
            date = cal.date(byAdding: .day, value: min(day, days.count) - 1, to: moved) ?? date
        case .day, .hour, .minute:
            chosenDay = nil
            let component: Calendar.Component = part == .day ? .day : part == .hour ? .hour : .minute
            date = cal.date(byAdding: component, value: amount, to: date) ?? date
        }
    }

    /// A digit, or a whole date's separator, typed in a row; false for a key that is neither.
    private mutating func typeIntoRun(_ c: Character) -> Bool {
        let candidate = run + String(c)
        if WholeDate.isPrefix(candidate) {
            if run.isEmpty { beforeRun = RunStart(date: date, isCleared: isCleared) }
            run = candidate
            typeWholeDate()
            return true
        }
        guard let digit = c.wholeNumberValue else { return false }
        // Digits past a whole date's minute are not taken; before it has a separator,
        // digits type part by part.
        if WholeDate.hasSeparator(run) { return true }
        if run.isEmpty { beforeRun = RunStart(date: date, isCleared: isCleared) }
        run = candidate
        type(digit)
        return true
    }

    /// Sets the date from the whole date typed so far, from the date the run began with.
    private mutating func typeWholeDate() {
        guard WholeDate.hasSeparator(run), let start = beforeRun else { return }
        typed = ""
        let cal = calendar
        let fields = WholeDate.fields(run)
        var c = cal.dateComponents([.year, .month, .day, .hour, .minute], from: start.date)
        problem = nil
        let parts: [Part] = [.year, .month, .day, .hour, .minute]
        for (i, value) in fields.enumerated() {
            guard let value else { continue }
            switch parts[i] {
            case .year:
                if value >= 1 { c.year = value } else { problem = "there is no year 0" }
            case .month:
                if (1...12).contains(value) { c.month = value } else { problem = "there is no month \(value)" }
            case .day:
                let days = cal.date(from: DateComponents(year: c.year, month: c.month, day: 1))
                    .flatMap { cal.range(of: .day, in: .month, for: $0) }?.count ?? 31
                if (1...days).contains(value) { c.day = value } else {
                    problem = "\(Self.monthName(c.month ?? 1)) \(c.year ?? 0) has no day \(value)"
                }
            case .hour:
                if (0...23).contains(value) { c.hour = value } else { problem = "there is no hour \(value)" }
            case .minute:
                if (0...59).contains(value) { c.minute = value } else { problem = "there is no minute \(value)" }
            }
        }
        // The day the run began with may not be in the month typed (31 in November).
        if let first = cal.date(from: DateComponents(year: c.year, month: c.month, day: 1)),
           let days = cal.range(of: .day, in: .month, for: first), let day = c.day, day > days.count {
            c.day = days.count
        }
        if let typedDate = cal.date(from: c) { date = typedDate }
        isCleared = false
        chosenDay = nil
        // The part being typed is the one shown picked (after a separator, the one it begins).
        part = parts[min(parts.count, fields.count) - 1]
    }

    private static func monthName(_ month: Int) -> String {
        let names = ["January", "February", "March", "April", "May", "June", "July", "August",
                     "September", "October", "November", "December"]
        return names.indices.contains(month - 1) ? names[month - 1] : "month \(month)"
    }

    /// A digit typed into the current part: it replaces the part's value once the part is
    /// full (four digits for the year, two for the others), then the next part is picked.
    /// A value the part cannot take (month 13) leaves the date as it was.
    private mutating func type(_ digit: Int) {
        let width = part == .year ? 4 : 2
        typed += String(digit)
        guard typed.count == width, let value = Int(typed) else { return }
        typed = ""
        let cal = calendar
        var c = cal.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        switch part {
        case .year: c.year = value
        case .month: c.month = value
        case .day: c.day = value
        case .hour: c.hour = value
        case .minute: c.minute = value
        }
        let valid: Bool
        switch part {
        case .year: valid = value >= 1
        case .month: valid = (1...12).contains(value)
        case .day:
            let days = cal.date(from: DateComponents(year: c.year, month: c.month, day: 1)).flatMap { cal.range(of: .day, in: .month, for: $0) }
            valid = value >= 1 && value <= (days?.count ?? 31)
        case .hour: valid = (0...23).contains(value)
        case .minute: valid = (0...59).contains(value)
        }
        if part == .year || part == .month, let day = c.day,
           let first = cal.date(from: DateComponents(year: c.year, month: c.month, day: 1)),
           let days = cal.range(of: .day, in: .month, for: first) {
            c.day = min(day, days.count)
        }
        if valid, let typedDate = cal.date(from: c) {
            date = typedDate
            isCleared = false
            chosenDay = nil
        }
        part = Part(rawValue: min(Part.allCases.count - 1, part.rawValue + 1))!
    }
}

/// The shape of a whole date typed into the date editor: `YYYY-M-D H:MM`, with `-`, `/` or
/// `.` between the parts of the day and a space before the time; every part after the
/// year may have one or two digits.
enum WholeDate {
    /// Whether `text` can be the beginning of a whole date that has its first separator.
    static func isPrefix(_ text: String) -> Bool {
        let chars = Array(text)
        guard chars.count >= 5, chars.prefix(4).allSatisfy(\.isASCIIDigit) else { return false }
        // After the year: separators, each followed by one or two digits.
        let separators: [Set<Character>] = [["-", "/", "."], ["-", "/", "."], [" "], [":"]]
        var i = 4
        for allowed in separators {
            guard i < chars.count else { return true }
            guard allowed.contains(chars[i]) else { return false }
            i += 1
            var digits = 0
            while i < chars.count, chars[i].isASCIIDigit { digits += 1; i += 1 }
            if digits > 2 { return false }
            if i < chars.count && digits == 0 { return false }
        }
        return i == chars.count
    }

    static func hasSeparator(_ text: String) -> Bool { text.contains { !$0.isASCIIDigit } }

    /// The numbers typed for year, month, day, hour and minute, in order; nil for a part
    /// begun with its separator and no digit yet.
    static func fields(_ text: String) -> [Int?] {
        text.split(omittingEmptySubsequences: false) { !$0.isASCIIDigit }.map { Int($0) }
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
