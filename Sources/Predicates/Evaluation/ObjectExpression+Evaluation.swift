import Foundation

extension ObjectExpression {
    /// The value of the expression for an object, with variables bound.
    ///
    /// ```swift
    /// try ObjectExpression(format: "items.@sum.price").evaluate(with: order)
    /// try ObjectExpression(format: "$source.name").evaluate(with: .null, variables: ["source": row])
    /// ```
    ///
    /// - Throws: `PredicateEvaluationError` naming the key and type that failed.
    public func evaluate(with object: ObjectValue, variables: [String: ObjectValue] = [:]) throws -> ObjectValue {
        try value(in: EvaluationContext(object: object, variables: variables))
    }

    /// The value of the expression for any key-value source.
    public func evaluate(with object: some KeyValueCoding, variables: [String: ObjectValue] = [:]) throws -> ObjectValue {
        try evaluate(with: ObjectValue(keyValueSource: object), variables: variables)
    }

    func value(in context: EvaluationContext) throws -> ObjectValue {
        switch self {
        case .constant(let v):
            return v
        case .evaluatedObject:
            return context.object
        case .keyPath(let path):
            return try ObjectKeyPath.value(of: path, in: context.object)
        case .variable(let name):
            guard let v = context.variables[name] else {
                throw PredicateEvaluationError(.missingVariable, "no value for variable $\(name)", key: name)
            }
            return v
        case .member(let base, let path):
            return try ObjectKeyPath.value(of: path, in: base.value(in: context))
        case .aggregate(let elements):
            return .array(try elements.map { try $0.value(in: context) })
        case .function(let name, let args):
            guard let f = ExpressionFunction.all[name] else {
                throw PredicateEvaluationError(.unsupportedFunction, "no function named \(name)", key: name)
            }
            return try f.apply(args.map { try $0.value(in: context) })
        case .customFunction(let receiver, let selector, let args):
            let target = try receiver.value(in: context)
            guard case .object(let o) = target, let performer = o as? ExpressionFunctionTarget else {
                throw PredicateEvaluationError(
                    .unsupportedFunction,
                    "FUNCTION cannot perform \(selector) on \(target.typeName)",
                    key: selector, typeName: target.typeName)
            }
            return try performer.performFunction(selector, arguments: args.map { try $0.value(in: context) })
        case .index(let base, let selector):
            return try index(base.value(in: context), selector, context)
        case .subquery(let collection, let variable, let predicate):
            let items = try ObjectKeyPath.elements(of: collection.value(in: context), for: "SUBQUERY")
            return .array(try items.filter { try predicate.matches(context.binding(variable, to: $0)) })
        case .cast(let v, let type):
            return try ObjectExpression.cast(v.value(in: context), to: type)
        case .ternary(let condition, let a, let b):
            return try condition.matches(context) ? a.value(in: context) : b.value(in: context)
        case .setOperation(let op, let a, let b):
            let lhs = try ObjectKeyPath.elements(of: a.value(in: context), for: op.rawValue)
            let rhs = try ObjectKeyPath.elements(of: b.value(in: context), for: op.rawValue)
            switch op {
            case .union: return .uniqueSet(lhs + rhs)
            case .intersect:
                let keep = Set(rhs)
                return .uniqueSet(lhs.filter { keep.contains($0) })
            case .minus:
                let drop = Set(rhs)
                return .uniqueSet(lhs.filter { !drop.contains($0) })
            }
        }
    }

    private func index(_ base: ObjectValue, _ selector: IndexSelector, _ context: EvaluationContext) throws -> ObjectValue {
        if case .dictionary(let d) = base {
            switch selector {
            case .size: return .int(d.count)
            case .expression(let e):
                let key = try e.value(in: context)
                guard case .string(let k) = key else {
                    throw PredicateEvaluationError(.typeMismatch, "a dictionary index must be a string, got \(key.typeName)",
                                                   typeName: key.typeName)
                }
                return d[k] ?? .null
            case .first, .last:
                throw PredicateEvaluationError(.typeMismatch, "FIRST and LAST need an array, got Dictionary",
                                               typeName: "Dictionary")
            }
        }
        if base.isNull { return .null }
        if case .object = base, case .expression(let e) = selector {
            // An object is indexed by key: $object[$key], $object.$key.
            let key = try e.value(in: context)
            guard case .string(let k) = key else {
                throw PredicateEvaluationError(.typeMismatch, "an object index must be a key string, got \(key.typeName)",
                                               typeName: base.typeName)
            }
            return try ObjectKeyPath.read(k, from: base)
        }
        let items = try ObjectKeyPath.elements(of: base, for: "an index")
        switch selector {
        case .first: return items.first ?? .null
        case .last: return items.last ?? .null
        case .size: return .int(items.count)
        case .expression(let e):
            let i = try e.value(in: context)
            guard let n = i.intValue else {
                throw PredicateEvaluationError(.typeMismatch, "an array index must be an integer, got \(i.typeName)",
                                               typeName: i.typeName)
            }
            guard n >= 0, n < items.count else {
                throw PredicateEvaluationError(.indexOutOfRange, "index \(n) is outside \(base.typeName) of \(items.count)",
                                               typeName: base.typeName)
            }
            return items[n]
        }
    }

    /// `CAST`: numbers to dates as seconds since 2001-01-01, and between numbers and strings.
    static func cast(_ value: ObjectValue, to type: String) throws -> ObjectValue {
        func failure() -> PredicateEvaluationError {
            PredicateEvaluationError(.typeMismatch, "cannot CAST \(value.typeName) to \(type)", typeName: value.typeName)
        }
        if value.isNull { return .null }
        switch type {
        case "NSDate":
            if case .date = value { return value }
            if value.isNumeric, let s = value.doubleValue { return .date(Date(timeIntervalSinceReferenceDate: s)) }
            if case .string(let s) = value, let n = Double(s) { return .date(Date(timeIntervalSinceReferenceDate: n)) }
            throw failure()
        case "NSNumber", "NSDecimalNumber":
            let decimal = type == "NSDecimalNumber"
            switch value {
            case .bool(let b): return decimal ? .decimal(b ? 1 : 0) : .int(b ? 1 : 0)
            case .int, .double, .decimal:
                return decimal ? .decimal(value.decimalValue ?? 0) : value
            case .date(let d):
                let s = d.timeIntervalSinceReferenceDate
                return decimal ? .decimal(Decimal(s)) : .double(s)
            case .string(let s):
                let trimmed = s.trimmingCharacters(in: .whitespaces)
                if decimal, let d = Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX")), !d.isNaN {
                    return .decimal(d)
                }
                if let i = Int(trimmed) { return .int(i) }
                if let d = Double(trimmed) { return .double(d) }
                throw failure()
            default: throw failure()
            }
        case "NSString":
            switch value {
            case .string: return value
            case .bool(let b): return .string(b ? "1" : "0")
            case .int(let i): return .string(String(i))
            case .double(let d): return .string(ExpressionFormatter.format(number: d))
            case .decimal(let d): return .string(d.description)
            case .date(let d): return .string(ExpressionFormatter.format(number: d.timeIntervalSinceReferenceDate))
            case .uuid(let u): return .string(u.uuidString)
            case .url(let u): return .string(u.absoluteString)
            default: throw failure()
            }
        default:
            throw PredicateEvaluationError(.typeMismatch, "CAST knows no type \(type)", key: type)
        }
    }
}

extension ObjectExpression {
    /// The key path, for error messages.
    var keyPathName: String? {
        switch self {
        case .keyPath(let p): return p
        case .member(_, let p): return p
        default: return nil
        }
    }
}
