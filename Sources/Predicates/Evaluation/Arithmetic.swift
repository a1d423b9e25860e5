import Foundation

/// Arithmetic on number values, keeping integers exact where it can: integers stay
/// integers until they would overflow, any decimal makes the result decimal, anything
/// else is a double. Nil in gives nil out, as SQL's NULL does (`a + b == nil` holds where
/// either is nil), so that a store that computes in SQL answers as memory does.
enum Arithmetic {
    private enum Kind { case integer, decimal, double }

    private static func kind(_ a: ObjectValue, _ b: ObjectValue) throws -> Kind {
        for v in [a, b] where !v.isNumeric {
            throw FunctionFailure("needs numbers, got \(v.typeName)")
        }
        if case .decimal = a { return .decimal }
        if case .decimal = b { return .decimal }
        if case .double = a { return .double }
        if case .double = b { return .double }
        return .integer
    }

    private static func integerOp(
        _ a: ObjectValue, _ b: ObjectValue,
        _ op: (Int, Int) -> (Int, Bool), _ fallback: (Double, Double) -> Double
    ) -> ObjectValue {
        let (x, y) = (a.intValue!, b.intValue!)
        let (r, overflow) = op(x, y)
        return overflow ? .double(fallback(Double(x), Double(y))) : .int(r)
    }

    static func add(_ a: ObjectValue, _ b: ObjectValue) throws -> ObjectValue {
        if a.isNull || b.isNull { return .null }
        switch try kind(a, b) {
        case .integer: return integerOp(a, b, { $0.addingReportingOverflow($1) }, +)
        case .decimal: return .decimal(a.decimalValue! + b.decimalValue!)
        case .double: return .double(a.doubleValue! + b.doubleValue!)
        }
    }

    static func subtract(_ a: ObjectValue, _ b: ObjectValue) throws -> ObjectValue {
        if a.isNull || b.isNull { return .null }
        switch try kind(a, b) {
        case .integer: return integerOp(a, b, { $0.subtractingReportingOverflow($1) }, -)
        case .decimal: return .decimal(a.decimalValue! - b.decimalValue!)
        case .double: return .double(a.doubleValue! - b.doubleValue!)
        }
    }

    static func multiply(_ a: ObjectValue, _ b: ObjectValue) throws -> ObjectValue {
        if a.isNull || b.isNull { return .null }
        switch try kind(a, b) {
        case .integer: return integerOp(a, b, { $0.multipliedReportingOverflow(by: $1) }, *)
        case .decimal: return .decimal(a.decimalValue! * b.decimalValue!)
        case .double: return .double(a.doubleValue! * b.doubleValue!)
        }
    }

    /// Division gives a double (a decimal when either side is one): `7 / 2` is 3.5.
    static func divide(_ a: ObjectValue, _ b: ObjectValue) throws -> ObjectValue {
        if a.isNull || b.isNull { return .null }
        switch try kind(a, b) {
        case .decimal:
            guard b.decimalValue! != 0 else { throw FunctionFailure("cannot divide by zero") }
            return .decimal(a.decimalValue! / b.decimalValue!)
        case .integer, .double:
            return .double(a.doubleValue! / b.doubleValue!)
        }
    }

    static func modulus(_ a: ObjectValue, _ b: ObjectValue) throws -> ObjectValue {
        if a.isNull || b.isNull { return .null }
        switch try kind(a, b) {
        case .integer:
            let (x, y) = (a.intValue!, b.intValue!)
            guard y != 0 else { throw FunctionFailure("cannot divide by zero") }
            let (r, overflow) = x.remainderReportingOverflow(dividingBy: y)
            return .int(overflow ? 0 : r)
        case .decimal, .double:
            return .double(fmod(a.doubleValue!, b.doubleValue!))
        }
    }

    static func rounded(_ v: ObjectValue, _ rule: FloatingPointRoundingRule) throws -> ObjectValue {
        switch v {
        case .int, .bool: return .int(v.intValue!)
        case .double(let d): return .double(d.rounded(rule))
        case .decimal(let d):
            var input = d
            var result = Decimal()
            let mode: NSDecimalNumber.RoundingMode
            switch rule {
            case .down: mode = .down
            case .up: mode = .up
            default: mode = d < 0 ? .up : .down
            }
            NSDecimalRound(&result, &input, 0, mode)
            return .decimal(result)
        default: throw FunctionFailure("needs a number, got \(v.typeName)")
        }
    }

    static func absolute(_ v: ObjectValue) throws -> ObjectValue {
        switch v {
        case .int(let i): return i == Int.min ? .double(-Double(i)) : .int(abs(i))
        case .bool: return .int(v.intValue!)
        case .double(let d): return .double(abs(d))
        case .decimal(let d): return .decimal(d < 0 ? -d : d)
        default: throw FunctionFailure("needs a number, got \(v.typeName)")
        }
    }

    static func sum(_ values: [ObjectValue]) throws -> ObjectValue {
        var total: ObjectValue = .int(0)
        for v in values { total = try add(total, v) }
        return total
    }

    static func average(_ values: [ObjectValue]) throws -> ObjectValue {
        guard !values.isEmpty else { return .null }
        let total = try sum(values)
        if case .decimal(let d) = total { return .decimal(d / Decimal(values.count)) }
        return .double(total.doubleValue! / Double(values.count))
    }

    static func median(_ values: [ObjectValue]) throws -> ObjectValue {
        guard !values.isEmpty else { return .null }
        let sorted = values.sorted { ObjectValue.compare($0, $1) == .orderedAscending }
        let mid = sorted.count / 2
        if sorted.count % 2 == 1 { return sorted[mid] }
        return .double((sorted[mid - 1].doubleValue! + sorted[mid].doubleValue!) / 2)
    }

    /// The population standard deviation.
    static func standardDeviation(_ values: [ObjectValue]) throws -> ObjectValue {
        guard !values.isEmpty else { return .null }
        let xs = values.map { $0.doubleValue! }
        let mean = xs.reduce(0, +) / Double(xs.count)
        let variance = xs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(xs.count)
        return .double(variance.squareRoot())
    }
}
