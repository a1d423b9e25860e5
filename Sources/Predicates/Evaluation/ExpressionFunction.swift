import Foundation

/// A predefined function of the expression language, named by its selector.
///
/// In a format string a function is written `name(args)` or `name:(args)`: `sum(scores)`,
/// `average:(prices)`, `now()`. Arithmetic operators are functions too: `a + b` is
/// `add:to:`, `a ** b` is `raise:toPower:`.
///
/// ```swift
/// try ObjectExpression(format: "max({1, 5, 3})").evaluate(with: .null)   // 5
/// ExpressionFunction.named("avg")?.name                                   // "average:"
/// ```
public struct ExpressionFunction: Sendable {
    /// The selector: `sum:`, `add:to:`, `now`.
    public let name: String
    /// How many arguments it takes.
    public let arity: ClosedRange<Int>
    let body: @Sendable ([ObjectValue]) throws -> ObjectValue

    init(_ name: String, _ arity: ClosedRange<Int>, _ body: @escaping @Sendable ([ObjectValue]) throws -> ObjectValue) {
        self.name = name
        self.arity = arity
        self.body = body
    }

    /// Applies the function to argument values.
    ///
    /// ```swift
    /// try ExpressionFunction.named("sqrt:")!.apply([16])   // 4.0
    /// ```
    public func apply(_ arguments: [ObjectValue]) throws -> ObjectValue {
        guard arity.contains(arguments.count) else {
            throw PredicateEvaluationError(.invalidArgument,
                                           "\(name) takes \(arityDescription), got \(arguments.count)", key: name)
        }
        do {
            return try body(arguments)
        } catch let failure as FunctionFailure {
            throw PredicateEvaluationError(.invalidArgument, "\(name) \(failure.message)")
        }
    }

    var arityDescription: String {
        if arity.lowerBound == arity.upperBound {
            return arity.lowerBound == 1 ? "1 argument" : "\(arity.lowerBound) arguments"
        }
        return arity.upperBound == Int.max ? "at least \(arity.lowerBound) argument(s)"
            : "\(arity.lowerBound) to \(arity.upperBound) arguments"
    }

    /// The function with this name: the selector (`sum:`), the name without its colon
    /// (`sum`), or an older alias (`avg`), in any case.
    public static func named(_ name: String) -> ExpressionFunction? {
        if let f = all[name] { return f }
        if let f = all[name + ":"] { return f }
        let key = name.lowercased()
        if let canonical = lowercasedNames[key] ?? lowercasedNames[key + ":"] { return all[canonical] }
        return nil
    }

    /// Selectors written as infix operators, with their symbols.
    public static let operatorSymbols: [String: String] = [
        "add:to:": "+", "from:subtract:": "-", "multiply:by:": "*", "divide:by:": "/",
        "raise:toPower:": "**", "bitwiseAnd:with:": "&", "bitwiseOr:with:": "|",
        "bitwiseXor:with:": "^", "leftshift:by:": "<<", "rightshift:by:": ">>",
    ]

    /// Every predefined function by selector.
    public static let all: [String: ExpressionFunction] = {
        var table: [String: ExpressionFunction] = [:]
        for f in definitions { table[f.name] = f }
        return table
    }()

    private static let lowercasedNames: [String: String] = {
        var table: [String: String] = [:]
        for f in definitions { table[f.name.lowercased()] = f.name }
        table["avg"] = "average:"
        table["avg:"] = "average:"
        return table
    }()

    /// The negation of a numeric constant, used for `-5`; nil when not a number.
    static func negate(_ v: ObjectValue) -> ObjectValue? {
        switch v {
        case .int(let i):
            let (r, overflow) = (0).subtractingReportingOverflow(i)
            return overflow ? .double(-Double(i)) : .int(r)
        case .double(let d): return .double(-d)
        case .decimal(let d): return .decimal(-d)
        default: return nil
        }
    }

    private static let definitions: [ExpressionFunction] = [
        // Statistics over a collection (or over the arguments themselves).
        ExpressionFunction("sum:", 1...Int.max) { try Arithmetic.sum(numbers(flatten($0), "sum:")) },
        ExpressionFunction("count:", 1...Int.max) { .int(flatten($0).count) },
        ExpressionFunction("min:", 1...Int.max) { extreme(flatten($0), .orderedAscending) },
        ExpressionFunction("max:", 1...Int.max) { extreme(flatten($0), .orderedDescending) },
        ExpressionFunction("average:", 1...Int.max) { try Arithmetic.average(numbers(flatten($0), "average:")) },
        ExpressionFunction("median:", 1...Int.max) { try Arithmetic.median(numbers(flatten($0), "median:")) },
        ExpressionFunction("mode:", 1...Int.max) { mode(flatten($0).filter { !$0.isNull }) },
        ExpressionFunction("stddev:", 1...Int.max) { try Arithmetic.standardDeviation(numbers(flatten($0), "stddev:")) },
        // Arithmetic.
        ExpressionFunction("add:to:", 2...2) { try Arithmetic.add($0[0], $0[1]) },
        ExpressionFunction("from:subtract:", 2...2) { try Arithmetic.subtract($0[0], $0[1]) },
        ExpressionFunction("multiply:by:", 2...2) { try Arithmetic.multiply($0[0], $0[1]) },
        ExpressionFunction("divide:by:", 2...2) { try Arithmetic.divide($0[0], $0[1]) },
        ExpressionFunction("modulus:by:", 2...2) { try Arithmetic.modulus($0[0], $0[1]) },
        ExpressionFunction("raise:toPower:", 2...2) { .double(pow(try number($0[0]), try number($0[1]))) },
        ExpressionFunction("sqrt:", 1...1) { .double(try number($0[0]).squareRoot()) },
        ExpressionFunction("log:", 1...1) { .double(log10(try number($0[0]))) },
        ExpressionFunction("ln:", 1...1) { .double(log(try number($0[0]))) },
        ExpressionFunction("exp:", 1...1) { .double(exp(try number($0[0]))) },
        ExpressionFunction("floor:", 1...1) { try Arithmetic.rounded($0[0], .down) },
        ExpressionFunction("ceiling:", 1...1) { try Arithmetic.rounded($0[0], .up) },
        ExpressionFunction("trunc:", 1...1) { try Arithmetic.rounded($0[0], .towardZero) },
        ExpressionFunction("abs:", 1...1) { try Arithmetic.absolute($0[0]) },
        // Integers and bits.
        ExpressionFunction("bitwiseAnd:with:", 2...2) { .int(try integer($0[0]) & integer($0[1])) },
        ExpressionFunction("bitwiseOr:with:", 2...2) { .int(try integer($0[0]) | integer($0[1])) },
        ExpressionFunction("bitwiseXor:with:", 2...2) { .int(try integer($0[0]) ^ integer($0[1])) },
        ExpressionFunction("leftshift:by:", 2...2) { .int(try integer($0[0]) << integer($0[1])) },
        ExpressionFunction("rightshift:by:", 2...2) { .int(try integer($0[0]) >> integer($0[1])) },
        ExpressionFunction("onesComplement:", 1...1) { .int(~(try integer($0[0]))) },
        // Strings.
        ExpressionFunction("uppercase:", 1...1) { try text($0[0]) { $0.uppercased() } },
        ExpressionFunction("lowercase:", 1...1) { try text($0[0]) { $0.lowercased() } },
        ExpressionFunction("canonical:", 1...1) {
            try text($0[0]) { ComparisonOptions([.caseInsensitive, .diacriticInsensitive]).fold($0) }
        },
        ExpressionFunction("length:", 1...1) {
            guard case .string(let s) = $0[0] else { throw FunctionFailure("needs a string, got \($0[0].typeName)") }
            return .int(s.utf16.count)
        },
        // Values of the moment.
        ExpressionFunction("random", 0...0) { _ in .double(Double.random(in: 0..<1)) },
        ExpressionFunction("randomn:", 1...1) {
            let n = try integer($0[0])
            guard n > 0 else { throw FunctionFailure("needs a positive bound, got \(n)") }
            return .int(Int.random(in: 0..<n))
        },
        ExpressionFunction("now", 0...0) { _ in .date(Date()) },
        // A hint to stores; the value itself.
        ExpressionFunction("noindex:", 1...1) { $0[0] },
    ]

    /// One collection argument stands for its elements; otherwise the arguments are the values.
    private static func flatten(_ args: [ObjectValue]) -> [ObjectValue] {
        if args.count == 1 {
            switch args[0] {
            case .array(let a), .set(let a): return a
            case .dictionary(let d): return Array(d.values)
            default: break
            }
        }
        return args
    }

    private static func numbers(_ values: [ObjectValue], _ name: String) throws -> [ObjectValue] {
        var result: [ObjectValue] = []
        for v in values where !v.isNull {
            guard v.isNumeric else { throw FunctionFailure("needs numbers, got \(v.typeName)") }
            result.append(v)
        }
        return result
    }

    private static func number(_ v: ObjectValue) throws -> Double {
        guard let d = v.doubleValue else { throw FunctionFailure("needs a number, got \(v.typeName)") }
        return d
    }

    private static func integer(_ v: ObjectValue) throws -> Int {
        guard let i = v.intValue else { throw FunctionFailure("needs an integer, got \(v.typeName)") }
        return i
    }

    private static func text(_ v: ObjectValue, _ transform: (String) -> String) throws -> ObjectValue {
        switch v {
        case .string(let s): return .string(transform(s))
        case .null: return .null
        default: throw FunctionFailure("needs a string, got \(v.typeName)")
        }
    }

    private static func extreme(_ values: [ObjectValue], _ wanted: ComparisonResult) -> ObjectValue {
        var best: ObjectValue = .null
        for v in values where !v.isNull {
            if best.isNull || ObjectValue.compare(v, best) == wanted { best = v }
        }
        return best
    }

    private static func mode(_ values: [ObjectValue]) -> ObjectValue {
        var counts: [ObjectValue: Int] = [:]
        var order: [ObjectValue] = []
        for v in values {
            if counts[v] == nil { order.append(v) }
            counts[v, default: 0] += 1
        }
        let top = counts.values.max() ?? 0
        return .array(order.filter { counts[$0] == top })
    }
}
