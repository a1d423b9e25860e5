import Foundation

extension ObjectExpression {
    /// Parses a standalone expression, such as a migration's value expression.
    ///
    /// ```swift
    /// let e = try ObjectExpression(format: "$source.name")
    /// try e.evaluate(with: .null, variables: ["source": ["name": "Milk"]])   // "Milk"
    /// ```
    public init(format: String, argumentArray: [ObjectValue] = []) throws {
        var parser = try Parser(source: format, arguments: argumentArray)
        self = try parser.parseExpressionFormat()
    }

    /// Parses a standalone expression with variadic arguments.
    public init(format: String, _ arguments: any ObjectValueConvertible...) throws {
        try self.init(format: format, argumentArray: arguments.map(\.objectValue))
    }

    /// The type names `CAST` accepts.
    static let castTypes: Set<String> = ["NSDate", "NSNumber", "NSString", "NSDecimalNumber"]

    /// `{a, b}` with constant elements becomes a constant array, so that the aggregate
    /// literal and an array argument are the same expression.
    static func aggregateFolding(_ elements: [ObjectExpression]) -> ObjectExpression {
        var values: [ObjectValue] = []
        values.reserveCapacity(elements.count)
        for e in elements {
            guard case .constant(let v) = e else { return .aggregate(elements) }
            values.append(v)
        }
        return .constant(.array(values))
    }

    /// `CAST(number, "NSDate")` is a date constant and `CAST("1.5", "NSDecimalNumber")` a
    /// decimal constant: the forms in which those constants are printed.
    static func castFolding(_ value: ObjectExpression, type: String) -> ObjectExpression {
        switch (value, type) {
        case (.constant(let v), "NSDate"):
            if v.isNumeric, let seconds = v.doubleValue {
                return .constant(.date(Date(timeIntervalSinceReferenceDate: seconds)))
            }
        case (.constant(.string(let s)), "NSDecimalNumber"):
            if let d = Decimal(string: s, locale: Locale(identifier: "en_US_POSIX")), !d.isNaN {
                return .constant(.decimal(d))
            }
        default:
            break
        }
        return .cast(value, type: type)
    }
}
