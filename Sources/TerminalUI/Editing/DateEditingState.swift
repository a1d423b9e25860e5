import Foundation

/// A date being edited one part at a time: ←/→ pick year, month, day, hour or minute,
/// ↑/↓ (or k/j, +/-) change it, `t` jumps to today keeping the time.
///
///     var state = DateEditingState(date: someDate)
///     state.apply(.up)   // one day later (the day is picked first)
public struct DateEditingState: Hashable, Sendable {
    public enum Part: Int, CaseIterable, Sendable {
        case year, month, day, hour, minute
    }

    public private(set) var date: Date
    public var part: Part = .day
    private let timeZone: TimeZone

    public init(date: Date, timeZone: TimeZone = .current) {
        self.date = date
        self.timeZone = timeZone
    }

    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// The text shown: `2026-11-21 14:05`.
    public var text: String {
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
        let component: Calendar.Component
        switch part {
        case .year: component = .year
        case .month: component = .month
        case .day: component = .day
        case .hour: component = .hour
        case .minute: component = .minute
        }
        date = calendar.date(byAdding: component, value: amount, to: date) ?? date
    }
}
