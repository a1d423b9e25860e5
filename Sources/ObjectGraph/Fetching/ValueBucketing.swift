import Foundation
import ObjectModel
import Predicates

/// How values are put into ranges before they are counted (`ValueCounts(keyPath:…bucketing:)`):
/// numbers in ranges of one width, dates by calendar periods. The store does the work: each
/// value's range is one `CASE` expression of the range bounds, searched in halves, grouped by
/// SQL like any value.
public enum ValueBucketing: Sendable, Equatable, CustomStringConvertible {
    /// Numbers in ranges of one width at its multiples: `.width(10)` counts 0 ..< 10, 10 ..< 20, …
    case width(Double)
    /// Dates by calendar periods of the current time zone.
    case period(DatePeriod)

    /// A calendar period dates are counted by, in the current time zone: a `year`, `month`, `week`
    /// (starting as the locale has it), `day` or `hour`; the raw value is its written form.
    public enum DatePeriod: String, Sendable, CaseIterable {
        /// The periods, longest first: each case counts the dates of one calendar year, month,
        /// week, day or hour.
        case year, month, week, day, hour
    }

    /// The most ranges a count makes; a narrower bucketing is refused.
    public static let maximumBuckets = 1_000

    /// The bucketing in words: `ranges of 10`, `by month`.
    public var description: String {
        switch self {
        case .width(let w): "ranges of \(Self.number(w))"
        case .period(let p): "by \(p.rawValue)"
        }
    }

    /// A bucketing from its written form: a number is a width, `year` … `hour` a period.
    public init?(_ text: String) {
        if let period = DatePeriod(rawValue: text.lowercased()) {
            self = .period(period)
        } else if let width = Double(text), width > 0, width.isFinite {
            self = .width(width)
        } else {
            return nil
        }
    }

    /// A round width (1, 2 or 5 times a power of ten) that makes about `count` ranges of the
    /// values from `low` to `high`; whole numbers for integers.
    public static func roundWidth(from low: Double, to high: Double, about count: Int, integers: Bool) -> Double {
        let raw = max(high - low, integers ? 1 : Double.ulpOfOne) / Double(max(1, count))
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        let width = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? raw
        return integers ? max(1, width.rounded(.up)) : width
    }

    /// The lower bounds of the ranges from the least value to the greatest, with the upper
    /// bound of the last one.
    ///
    /// - Throws: `ValueBucketing.Refusal` when the values are not of the kind the
    ///   bucketing takes, or the ranges would be more than `maximumBuckets`.
    public func bounds(from minimum: ObjectValue, to maximum: ObjectValue, type: AttributeType) throws -> [ObjectValue] {
        switch self {
        case .width(let width):
            guard type.isNumeric, let low = minimum.doubleValue, let high = maximum.doubleValue else {
                throw Refusal("ranges of a width need numbers, not \(type.rawValue) values")
            }
            let first = (low / width).rounded(.down), last = (high / width).rounded(.down)
            guard last - first < Double(Self.maximumBuckets) else { throw tooMany(Int(last - first) + 1) }
            let integral = type.isInteger && width == width.rounded()
            return stride(from: first, through: last + 1, by: 1).map { step in
                integral ? .int(Int(step * width)) : .double(step * width)
            }
        case .period(let period):
            guard type == .date, case .date(let low) = minimum, case .date(let high) = maximum else {
                throw Refusal("periods need dates, not \(type.rawValue) values")
            }
            let calendar = Self.calendar
            let component = period.component
            guard var start = calendar.dateInterval(of: component, for: low)?.start else { return [] }
            var bounds: [ObjectValue] = [.date(start)]
            while start <= high {
                guard bounds.count <= Self.maximumBuckets,
                      let next = calendar.date(byAdding: component, value: 1, to: start) else { throw tooMany(nil) }
                start = next
                bounds.append(.date(start))
            }
            return bounds
        }
    }

    /// Why values cannot be put into these ranges.
    public struct Refusal: Error, CustomStringConvertible {
        /// Why the values cannot be put into the ranges, in words.
        public let description: String
        init(_ description: String) { self.description = description }
    }

    private func tooMany(_ count: Int?) -> Refusal {
        Refusal("\(description) makes \(count.map(String.init) ?? "more than \(Self.maximumBuckets)") ranges; "
                        + "at most \(Self.maximumBuckets) are counted, choose wider ones")
    }

    /// The expression of a value's range: its lower bound (nil for nil), searched in halves,
    /// so that each value takes about log₂ of the ranges' number of comparisons.
    public static func expression(_ keyPath: String, bounds: [ObjectValue]) -> ObjectExpression {
        func range(_ lower: Int, _ upper: Int) -> ObjectExpression {
            guard upper - lower > 1 else { return .constant(bounds[lower]) }
            let middle = (lower + upper) / 2
            return .ternary(.comparison(ComparisonPredicate(.keyPath(keyPath), .lessThan, .constant(bounds[middle]))),
                            range(lower, middle), range(middle, upper))
        }
        guard bounds.count > 1 else { return .constant(.null) }
        let isNil = ObjectPredicate.comparison(ComparisonPredicate(.keyPath(keyPath), .equalTo, .constant(.null)))
        return .ternary(isNil, .constant(.null), range(0, bounds.count - 1))
    }

    /// How a range reads: `10 – 20`, `2026`, `2026-11`, `week of 2026-11-23`, `2026-11-29`,
    /// `2026-11-29 14:00`.
    public func label(from lower: ObjectValue, to upper: ObjectValue) -> String {
        switch self {
        case .width:
            return "\(lower.doubleValue.map(Self.number) ?? "?") – \(upper.doubleValue.map(Self.number) ?? "?")"
        case .period(let period):
            guard case .date(let date) = lower else { return "?" }
            let parts = Self.calendar.dateComponents([.year, .month, .day, .hour], from: date)
            let (y, m, d, h) = (parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0)
            let day = String(format: "%04d-%02d-%02d", y, m, d)
            switch period {
            case .year: return String(format: "%04d", y)
            case .month: return String(format: "%04d-%02d", y, m)
            case .week: return "week of \(day)"
            case .day: return day
            case .hour: return day + String(format: " %02d:00", h)
            }
        }
    }

    /// A number as short as it reads: 10, 2.5, 0.001.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%g", value)
    }

    /// Periods fall in the user's time zone, weeks start as the locale has them.
    static var calendar: Calendar {
        var calendar = Calendar.current
        calendar.timeZone = .current
        return calendar
    }
}

extension ValueBucketing.DatePeriod {
    var component: Calendar.Component {
        switch self {
        case .year: .year
        case .month: .month
        case .week: .weekOfYear
        case .day: .day
        case .hour: .hour
        }
    }
}
