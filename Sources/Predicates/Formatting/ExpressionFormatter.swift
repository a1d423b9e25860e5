import Foundation

/// Writes expressions and predicates in the canonical format Core Data prints:
/// keywords in capitals, `==` for equality, strings in double quotes, booleans as `1`/`0`,
/// dates as `CAST(seconds, "NSDate")`, nested compounds and operands in parentheses.
enum ExpressionFormatter {
    static func format(_ p: ObjectPredicate) -> String {
        switch p {
        case .true: return "TRUEPREDICATE"
        case .false: return "FALSEPREDICATE"
        case .and(let ps): return compound(ps, "AND", empty: "TRUEPREDICATE")
        case .or(let ps): return compound(ps, "OR", empty: "FALSEPREDICATE")
        case .not(let operand): return "NOT " + nested(operand)
        case .comparison(let c): return format(c)
        }
    }

    private static func compound(_ ps: [ObjectPredicate], _ word: String, empty: String) -> String {
        if ps.isEmpty { return empty }
        if ps.count == 1 { return format(ps[0]) }
        return ps.map(nested).joined(separator: " \(word) ")
    }

    /// A subpredicate, parenthesised when it is itself AND or OR.
    private static func nested(_ p: ObjectPredicate) -> String {
        switch p {
        case .and(let ps) where ps.count > 1, .or(let ps) where ps.count > 1:
            return "(" + format(p) + ")"
        default:
            return format(p)
        }
    }

    static func format(_ c: ComparisonPredicate) -> String {
        let qualifier = c.modifier == .direct ? "" : c.modifier.rawValue + " "
        return qualifier + format(c.lhs) + " " + c.op.rawValue + c.options.formatSuffix + " " + format(c.rhs)
    }

    static func format(_ e: ObjectExpression) -> String {
        switch e {
        case .constant(let v):
            return format(constant: v)
        case .evaluatedObject:
            return "SELF"
        case .keyPath(let path):
            return format(keyPath: path)
        case .variable(let name):
            return "$" + name
        case .member(let base, let path):
            return operand(base) + "." + format(keyPath: path)
        case .aggregate(let elements):
            return "{" + elements.map(format).joined(separator: ", ") + "}"
        case .function(let name, let args):
            if args.count == 2, let symbol = ExpressionFunction.operatorSymbols[name] {
                return operand(args[0]) + " " + symbol + " " + operand(args[1])
            }
            return name + "(" + args.map(format).joined(separator: ", ") + ")"
        case .customFunction(let receiver, let selector, let args):
            // Apple writes a space before the comma that follows the selector.
            let head = "FUNCTION(" + format(receiver) + ", " + quoted(selector)
            if args.isEmpty { return head + ")" }
            return head + " , " + args.map(format).joined(separator: ", ") + ")"
        case .index(let base, let selector):
            let inside: String
            switch selector {
            case .first: inside = "FIRST"
            case .last: inside = "LAST"
            case .size: inside = "SIZE"
            case .expression(let i): inside = format(i)
            }
            return operand(base) + "[" + inside + "]"
        case .subquery(let collection, let variable, let predicate):
            return "SUBQUERY(" + format(collection) + ", $" + variable + ", " + format(predicate) + ")"
        case .cast(let value, let type):
            return "CAST(" + format(value) + ", " + quoted(type) + ")"
        case .ternary(let condition, let a, let b):
            return "TERNARY(" + format(condition) + ", " + format(a) + ", " + format(b) + ")"
        case .setOperation(let op, let a, let b):
            return operand(a) + " " + op.rawValue + " " + operand(b)
        }
    }

    /// An operand of an operator or the base of `.key`/`[i]`, parenthesised when it is
    /// itself an operation.
    private static func operand(_ e: ObjectExpression) -> String {
        switch e {
        case .setOperation:
            return "(" + format(e) + ")"
        case .function(let name, let args) where args.count == 2 && ExpressionFunction.operatorSymbols[name] != nil:
            return "(" + format(e) + ")"
        default:
            return format(e)
        }
    }

    /// A key path with reserved words escaped: `#size`, `item.#first`.
    static func format(keyPath: String) -> String {
        keyPath.split(separator: ".", omittingEmptySubsequences: false).map { part in
            ReservedWords.contains(String(part)) ? "#" + part : String(part)
        }.joined(separator: ".")
    }

    static func format(constant v: ObjectValue) -> String {
        switch v {
        case .null: return "nil"
        case .bool(let b): return b ? "1" : "0"
        case .int(let i): return String(i)
        case .double(let d): return format(number: d)
        case .decimal(let d): return "CAST(" + quoted(d.description) + ", \"NSDecimalNumber\")"
        case .string(let s): return quoted(s)
        case .date(let d): return "CAST(" + format(number: d.timeIntervalSinceReferenceDate) + ", \"NSDate\")"
        case .data(let d): return "<" + d.map { String(format: "%02x", $0) }.joined() + ">"
        case .uuid(let u): return quoted(u.uuidString)
        case .url(let u): return quoted(u.absoluteString)
        case .array(let a), .set(let a): return "{" + a.map { format(constant: $0) }.joined(separator: ", ") + "}"
        case .dictionary(let d):
            let entries = d.keys.sorted().map { quoted($0) + ": " + format(constant: d[$0]!) }
            return "{" + entries.joined(separator: ", ") + "}"
        case .object(let o):
            if let described = o as? CustomStringConvertible { return described.description }
            return "<" + o.keyValueTypeName + ">"
        }
    }

    /// A double as the shortest text that reads back as the same value; integral values
    /// print without a fraction, as Core Data prints them.
    static func format(number d: Double) -> String {
        if d.isInfinite { return d < 0 ? "-1e999" : "1e999" }
        if d.isNaN { return "nan" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
        return "\(d)"
    }

    /// A string in double quotes, with `"` and `\` escaped and control characters written
    /// as escapes.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

extension String {
    /// The string as a predicate writes it: in double quotes, `"` and `\` escaped, control
    /// characters as escapes (`\n`, `\u001b`), so that it stays on one line.
    public var predicateLiteral: String { ExpressionFormatter.quoted(self) }
}
