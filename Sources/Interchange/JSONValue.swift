import Foundation
import ObjectGraph
import ObjectModel
import Predicates

/// A JSON value as TermData reads and writes it: predicate arguments typed as JSON and the
/// graph file format. Text is read by `JSONSyntax.parse` (strict, one pass) and written
/// through `Encodable`.
///
/// ```swift
/// let value = try JSONValue.parse("{\"$date\": \"2024-05-01\"}", what: "--arg 1")
/// try value.predicateValue()   // .date(2024-05-01 00:00:00 UTC)
/// ```
public enum JSONValue: Encodable, Equatable, Sendable {
    /// JSON `null`: no value.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written as an integer that fits `Int`.
    case int(Int)
    /// Any other number, when a `Double` holds all its digits.
    case double(Double)
    /// A number whose digits a `Double` cannot hold (a Decimal's), kept exactly.
    case decimal(Decimal)
    /// A string, its escapes already read.
    case string(String)
    /// An array of values, in order.
    case array([JSONValue])
    /// An object's members by key; the order they were written in is not kept.
    case object([String: JSONValue])

    /// Encodes the value as the JSON it stands for: `null`, a boolean, a number, a string, an
    /// array or an object.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .int(let i): try c.encode(i)
        case .double(let d): try c.encode(d)
        case .decimal(let d): try c.encode(d)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    /// Parses JSON text; `what` names it in the error.
    public static func parse(_ text: String, what: String) throws -> JSONValue {
        do {
            return try JSONSyntax.parse(Data(text.utf8))
        } catch {
            // A bare word is most likely a string given without its JSON quotes.
            let word = !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || "_.-@$".contains($0) }
            throw JSONValueError(.notJSON(what: what, text: text, isBareWord: word))
        }
    }

    /// JSON text with sorted keys, as `JSONEncoder` writes it (`.sortedKeys`,
    /// `.withoutEscapingSlashes`, and `.prettyPrinted` unless `pretty` is false).
    public static func text(_ value: JSONValue, pretty: Bool = true) throws -> String {
        String(decoding: try bytes(value, pretty: pretty), as: UTF8.self)
    }

    /// `text`, as UTF-8 bytes.
    public static func bytes(_ value: JSONValue, pretty: Bool = true) throws -> [UInt8] {
        var writer = JSONWriter(pretty: pretty)
        try writer.write(value)
        return writer.bytes
    }

    /// A predicate argument: numbers, strings, booleans, null, arrays, and `{"$date": "ISO-8601"}`.
    public func predicateValue() throws -> ObjectValue {
        switch self {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        // As a Double, as the store binds it, so that both evaluations compare the same value.
        case .decimal(let d): return Double(d.description).map(ObjectValue.double) ?? .decimal(d)
        case .string(let s): return .string(s)
        case .array(let a): return .array(try a.map { try $0.predicateValue() })
        case .object(let o):
            if o.count == 1, let value = o["$date"] {
                guard case .string(let text) = value else {
                    throw JSONValueError(.dateTagNeedsString)
                }
                guard let date = Self.date(text) else { throw JSONValueError(.notADate(text)) }
                return .date(date)
            }
            // A key with a dollar sign is taken for a mistyped tag ({"$Date": …}), not data.
            if let tag = o.keys.sorted().first(where: { $0.hasPrefix("$") }) {
                throw JSONValueError(tag == "$date" ? .dateTagNotAlone : .unknownTag(tag))
            }
            return .dictionary(try o.mapValues { try $0.predicateValue() })
        }
    }

    /// What kind of value this is, as messages name it: `null`, `a boolean`, `a number`,
    /// `a string`, `an array` or `an object`.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int, .double, .decimal: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
