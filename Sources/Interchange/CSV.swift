import Foundation
import ObjectModel

/// Comma-separated values: fields quoted when they hold a comma, quote or line break.
/// No value is an empty field and an empty string a quoted one (`""`), so the two stay
/// apart. Text that a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`,
/// a tab or a carriage return) is written after a `'`, which spreadsheets take as "this is
/// text" (OWASP's advice for CSV injection); numbers are written as they are.
///
/// ```swift
/// CSV.line([.string("a,b"), .null, .string("")])   // "a,b",,""
/// CSV.line([.string("=1+1"), .int(-2)])           // '=1+1,-2
/// ```
public enum CSV {
    /// A line of plain fields, such as the header.
    public static func line(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",")
    }

    /// A line of values.
    public static func line(_ values: [JSONValue]) -> String {
        values.map { value in
            switch value {
            case .string(""): return "\"\""
            case .string(let s): return field(inert(s))
            default: return field(text(value))
            }
        }.joined(separator: ",")
    }

    /// Text a spreadsheet would take for a formula, made plain text for it with a leading `'`.
    static func inert(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, formulaStarts.contains(first) else { return text }
        return "'" + text
    }

    private static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    private static func field(_ f: String) -> String {
        f.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
            ? "\"" + f.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : f
    }

    /// A value's text as a field holds it, before quoting: empty for `null`, `true` or `false`,
    /// numbers as Swift writes them, a string as it is (no leading `'`), an array or object as compact JSON.
    public static func text(_ value: JSONValue) -> String {
        switch value {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return String(d)
        case .decimal(let d): return d.description
        case .string(let s): return s
        case .array, .object: return (try? JSONValue.text(value, pretty: false)) ?? ""
        }
    }
}

extension CSV {
    /// The CSV of one entity's objects in a graph file: a header of `@id`, the stored
    /// attributes and the to-one relationships, then a line per object of `kinds` (the
    /// entity and its concrete sub-entities), in file order.
    public static func lines(of graph: GraphFile, entity: Entity, kinds: [String]) -> [String] {
        let keys = ["@id"] + entity.storedAttributes.map(\.name) + entity.relationships.filter { !$0.isToMany && !$0.isTransient }.map(\.name)
        var lines = [line(keys)]
        for kind in kinds {
            for object in graph.entities[kind] ?? [] { lines.append(line(keys.map { object[$0] ?? .null })) }
        }
        return lines
    }
}
