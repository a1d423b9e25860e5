import Foundation

/// A date being edited one part at a time: ←/→ pick year, month, day, hour or minute,
/// ↑/↓ (or k/j, +/-) change it, digits type it (the part moves on when it is full), `t`
/// jumps to today keeping the time, Backspace or Delete clears the date (no value) and an
/// arrow brings it back. Stepping the month or year keeps the day that was chosen: from
/// 31 October, a month on is 30 November and another 31 December.
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
        if case .character(let c) = key, let digit = c.wholeNumberValue, c.isASCII {
            type(digit)
            return true
        }
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
