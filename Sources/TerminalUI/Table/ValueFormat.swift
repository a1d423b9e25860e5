import Foundation

/// How a column or field turns a `CellValue` into text.
///
///     TableColumn("due", title: "Due", format: .date(showsTime: true))
///     TableColumn("price", title: "Price", format: .decimal(places: 2))
public struct ValueFormat: @unchecked Sendable {
    private let render: (CellValue) -> String

    /// A format that writes each value with `render`.
    public init(_ render: @escaping (CellValue) -> String) {
        self.render = render
    }

    /// The text this format gives `value`.
    public func string(for value: CellValue) -> String { render(value) }

    /// Each type in its plain form: dates as `2026-11-21 14:05`, booleans as `✓`, decimals with two places.
    public static let automatic = ValueFormat { value in
        switch value {
        case .empty: return ""
        case let .text(text): return text
        case let .integer(n): return String(n)
        case let .decimal(d): return formatDecimal(d, places: 2)
        case let .date(date): return DateText.string(from: date, showsTime: true)
        case let .bool(flag): return flag ? "✓" : "·"
        }
    }

    /// Decimals with a fixed number of places.
    public static func decimal(places: Int) -> ValueFormat {
        ValueFormat { value in
            if case let .decimal(d) = value { return formatDecimal(d, places: places) }
            return automatic.string(for: value)
        }
    }

    /// Dates with or without the time of day.
    public static func date(showsTime: Bool) -> ValueFormat {
        ValueFormat { value in
            if case let .date(date) = value { return DateText.string(from: date, showsTime: showsTime) }
            return automatic.string(for: value)
        }
    }

    /// Booleans as `[x]` and `[ ]`.
    public static let checkbox = ValueFormat { value in
        if case let .bool(flag) = value { return flag ? "[x]" : "[ ]" }
        return automatic.string(for: value)
    }

    static func formatDecimal(_ value: Double, places: Int) -> String {
        String(format: "%.\(max(0, places))f", value)
    }
}
