import Foundation

/// A date being edited one part at a time: ←/→ pick year, month, day, hour or minute,
/// ↑/↓ (or k/j, +/-) change it, digits type it (the part moves on when it is full), `t`
/// jumps to today keeping the time, Backspace or Delete with nothing being typed clears the
/// date (no value) and an arrow brings it back. Stepping the month or year keeps the day that was chosen: from
/// 31 October, a month on is 30 November and another 31 December.
///
/// What is typed in a row is read as a whole: digits part by part from the picked part
/// (`3` then any other key is day 3), `2026-11-21 19:00`, `2026/3/7` or
/// `2026-11-21T19:00` as a whole date from any part (the time kept when left out), `18:30`
/// as the time; a two-digit year is this century's. After a separator, letters belong to
/// what is typed (`2026-12-24 18:00 extra` is refused whole), not to the keys above. Backspace takes back the last character
/// typed. What cannot be a date (month 13, 30 February, `12-24`) is named by `problem`
/// until the date is changed another way, and none of what was typed is taken: the date
/// keeps what it had.
///
///     var state = DateEditingState(date: someDate)
///     state.apply(.up)   // one day later (the day is picked first)
public struct DateEditingState: Hashable, Sendable {
    /// A part of the date that arrows step and digits type, in the order ←/→ move through them.
    public enum Part: Int, CaseIterable, Sendable {
        /// The year, month, day of the month, hour (0–23) and minute, in the order they are shown.
        case year, month, day, hour, minute
    }

    /// The date being edited; while `isCleared` it is kept, for an arrow to bring back.
    public private(set) var date: Date
    /// The part that arrows step and digits type; the day at first.
    public var part: Part = .day
    /// Whether the date was cleared: the value is none.
    public private(set) var isCleared = false
    /// Why what was typed cannot be taken as it stands ("there is no month 13").
    public private(set) var problem: String?
    private let timeZone: TimeZone
    /// The day of the month chosen before a month or year step shortened it.
    private var chosenDay: Int?
    /// The digits typed so far into the current part.
    private var typed = ""
    /// What was typed in a row: digits, and the separators of a whole date or a time.
    private var run = ""
    /// The state the run began from; what it means is worked out from there at each key.
    private var runStart: RunStart?
    /// A refusal of four digits typed from a part after the year (`2026` from the day is day
    /// 20 and no hour 26), held back while a separator could still make them a year.
    private var heldProblem: String?

    private struct RunStart: Hashable, Sendable {
        var date: Date
        var isCleared: Bool
        var part: Part
        var chosenDay: Int?
        var problem: String?
    }

    /// Edit `date` as it reads in `timeZone`, starting on the day.
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

    /// The state as it stands once what is being typed is finished: a part's first digit
    /// alone (`3`) taken as the part's value.
    public var finished: DateEditingState {
        var state = self
        state.finishRun()
        return state
    }

    /// Apply a key; returns whether it was a date-editing key.
    @discardableResult
    public mutating func apply(_ key: Key, today: Date = Date()) -> Bool {
        if case .character(let c) = key, typeIntoRun(c) { return true }
        if key == .backspace, !run.isEmpty {
            run.removeLast()
            readRun()
            return true
        }
        finishRun()
        if key == .backspace || key == .delete {
            isCleared = true
            problem = nil
            return true
        }
        if isCleared {
            // A key of the editor brings a cleared date back as it was, before it moves
            // anything; only t also takes today.
            var back = self
            back.isCleared = false
            guard back.move(key, today: today) else { return false }
            if key == .character("t") { self = back } else { isCleared = false }
            problem = nil
            return true
        }
        let before = date
        guard move(key, today: today) else { return false }
        // Picking another part keeps the message; changing the date answers it.
        if date != before || key == .character("t") { problem = nil }
        return true
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

    // MARK: Typing

    /// A digit, a separator typed after digits, or anything typed after a separator; false
    /// for any other character. Once a separator is typed the run is a date or a time being
    /// written, and what follows is read as part of it: `2026-12-24 18:00 extra` is no date
    /// (and is refused), not a date followed by the keys e, x, t (today), r and a.
    private mutating func typeIntoRun(_ c: Character) -> Bool {
        let separated = run.contains { !$0.isNumber }
        guard separated || (c.isASCII && (c.isNumber || (!run.isEmpty && TypedDate.separators.contains(c)))) else { return false }
        if run.isEmpty {
            runStart = RunStart(date: date, isCleared: isCleared, part: part, chosenDay: chosenDay, problem: problem)
        }
        run.append(c)
        readRun()
        return true
    }

    /// Works out the run from the state it began with.
    private mutating func readRun() {
        guard let start = runStart else { return }
        date = start.date
        isCleared = start.isCleared
        part = start.part
        chosenDay = start.chosenDay
        typed = ""
        problem = nil
        heldProblem = nil
        let digitsOnly = run.allSatisfy(\.isNumber)
        if run.isEmpty {
            // All typed was taken back: as it was before, its message too.
            problem = start.problem
            runStart = nil
            return
        } else if digitsOnly {
            for c in run { type(c.wholeNumberValue!) }
        } else if let fields = TypedDate.wholeDate(run) {
            set(fields, parts: Part.allCases)
        } else if let fields = TypedDate.time(run) {
            set(fields, parts: [.hour, .minute])
        } else {
            problem = "“\(run)” is not a date: type 2026-12-24 18:00, or 18:30 for the time"
        }
        guard problem != nil else { return }
        date = start.date
        isCleared = start.isCleared
        if digitsOnly, run.count == 4, start.part != .year {
            heldProblem = problem
            problem = nil
        }
    }

    /// Ends what is being typed: a part begun and not filled takes what was typed.
    private mutating func finishRun() {
        if let held = heldProblem { problem = held }
        heldProblem = nil
        if runStart != nil, problem == nil, !typed.isEmpty, let value = Int(typed) {
            if part != .year {
                take(value)
            } else if typed.count == 2 {
                take(2000 + value)
            } else {
                problem = "a year has four digits"
            }
        }
        if problem != nil, let start = runStart {
            date = start.date
            isCleared = start.isCleared
        }
        typed = ""
        run = ""
        runStart = nil
    }

    /// A digit typed into the current part: it replaces the part's value once the part is
    /// full (four digits for the year, two for the others), then the next part is picked.
    private mutating func type(_ digit: Int) {
        let width = part == .year ? 4 : 2
        typed += String(digit)
        guard typed.count == width, let value = Int(typed) else { return }
        typed = ""
        take(value)
        part = Part(rawValue: min(Part.allCases.count - 1, part.rawValue + 1))!
    }

    /// The numbers of a whole date or a time, part by part; nil for a part begun with its
    /// separator and no digit yet, which keeps its value.
    private mutating func set(_ fields: [Int?], parts: [Part]) {
        for (value, p) in zip(fields, parts) {
            guard let value else { continue }
            part = p
            take(value)
        }
        // The part being typed is the one shown picked (after a separator, the one it begins).
        part = parts[min(fields.count, parts.count) - 1]
    }

    /// Sets the current part to `value`, or names why it cannot be and leaves the date.
    private mutating func take(_ value: Int) {
        let cal = calendar
        var c = cal.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func days(year: Int?, month: Int?) -> Int {
            cal.date(from: DateComponents(year: year, month: month, day: 1))
                .flatMap { cal.range(of: .day, in: .month, for: $0) }?.count ?? 31
        }
        switch part {
        case .year:
            guard value >= 1 else { problem = "there is no year 0"; return }
            c.year = value
        case .month:
            guard (1...12).contains(value) else { problem = "there is no month \(value)"; return }
            c.month = value
        case .day:
            let count = days(year: c.year, month: c.month)
            guard (1...count).contains(value) else {
                problem = "\(Self.monthNames[(c.month ?? 1) - 1]) \(c.year ?? 0) has no day \(value)"
                return
            }
            c.day = value
        case .hour:
            guard (0...23).contains(value) else { problem = "there is no hour \(value)"; return }
            c.hour = value
        case .minute:
            guard (0...59).contains(value) else { problem = "there is no minute \(value)"; return }
            c.minute = value
        }
        // A new month or year may not have the day (31 in November): its last day instead.
        if part == .year || part == .month, let day = c.day {
            c.day = min(day, days(year: c.year, month: c.month))
        }
        if let typedDate = cal.date(from: c) {
            date = typedDate
            isCleared = false
            chosenDay = nil
        }
    }

    private static let monthNames = ["January", "February", "March", "April", "May", "June", "July",
                                     "August", "September", "October", "November", "December"]
}

/// The shapes a date or a time is typed in: `YYYY-M-D H:MM` (`-`, `/` or `.` between the
/// parts of the day, a space or `T` before the time, seconds allowed and ignored) and
/// `H:MM`; every part after the year may have one or two digits.
enum TypedDate {
    static let separators: Set<Character> = ["-", "/", ".", " ", "T", ":"]

    /// The year, month, day, hour and minute of a whole date or the beginning of one that
    /// has its first separator; nil for a part begun and not typed yet.
    static func wholeDate(_ text: String) -> [Int?]? {
        fields(text, firstDigits: 4...4, separators: [["-", "/", "."], ["-", "/", "."], [" ", "T"], [":"], [":"]])
            .map { Array($0.prefix(5)) }
    }

    /// The hour and minute of `18:30`, or of its beginning `18:`.
    static func time(_ text: String) -> [Int?]? {
        fields(text, firstDigits: 1...2, separators: [[":"]])
    }

    private static func fields(_ text: String, firstDigits: ClosedRange<Int>, separators: [Set<Character>]) -> [Int?]? {
        let chars = Array(text)
        var i = 0
        while i < chars.count, chars[i].isNumber { i += 1 }
        guard firstDigits.contains(i), i < chars.count else { return nil }
        var fields: [Int?] = [Int(String(chars[0..<i]))]
        for allowed in separators {
            guard i < chars.count else { break }
            guard allowed.contains(chars[i]) else { return nil }
            i += 1
            let start = i
            while i < chars.count, chars[i].isNumber { i += 1 }
            guard i - start <= 2, i == chars.count || i > start else { return nil }
            fields.append(i > start ? Int(String(chars[start..<i])) : nil)
        }
        return i == chars.count ? fields : nil
    }
}
