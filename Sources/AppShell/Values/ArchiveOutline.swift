import Foundation
import ObjectModel
import Predicates
import TerminalUI

/// A property list, or an object graph a keyed archiver wrote into one (a transformable
/// attribute's value, most often: `NSSecureUnarchiveFromData` archives arrays, dictionaries,
/// strings, numbers, dates, URLs), as an indented outline.
///
/// The archive is read, never run: Foundation's classes are shown as the values they hold,
/// any other class by its name and its archived fields. A hostile archive is shown as far as
/// it is sound: a reference back to an object being shown is named as a cycle, a reference
/// to nothing says so, nesting past `maximumDepth` and outlines past `maximumLines` stop
/// with a note, so that no archive makes the outline grow without end.
///
/// ```swift
/// let lines = try ArchiveOutline.lines(of: data)   // "NSArray, 2 items", "  [0] \"Milk\"", …
/// ```
public struct ArchiveOutline {
    public static let maximumDepth = 48
    public static let maximumLines = 4_000
    /// The most elements of one collection listed.
    public static let maximumElements = 1_000

    /// The outline of a property list, binary or XML; throws where the bytes are no property list.
    public static func lines(of data: Data) throws -> [TextViewer.Line] {
        let isXML = XMLPropertyList.looksLikeOne(data)
        let top = isXML ? try XMLPropertyList.read(data) : try BinaryPropertyList.read(data)
        var outline = ArchiveOutline(objects: [])
        if let archive = top.dictionary, archive["$archiver"] != nil || archive["$top"] != nil,
           let objects = archive["$objects"]?.elements {
            outline.objects = objects
            let archiver = archive["$archiver"]?.string ?? "an unnamed archiver"
            outline.lines.append(TextViewer.Line("Keyed archive (\(archiver)\(isXML ? ", XML" : "")), \(objects.count) archived objects", kind: .heading))
            let roots = (archive["$top"]?.dictionary ?? [:]).sorted { $0.key < $1.key }
            if roots.isEmpty { outline.note("The archive names no top object", depth: 0) }
            for (key, value) in roots {
                outline.walk(value, label: roots.count == 1 && key == "root" ? nil : key, depth: 0, path: [])
            }
        } else {
            outline.lines.append(TextViewer.Line(isXML ? "Property list (XML)" : "Property list", kind: .heading))
            outline.walk(top, label: nil, depth: 0, path: [])
        }
        return outline.lines
    }

    private var objects: [PropertyListValue]
    private var lines: [TextViewer.Line] = []
    private var isFull: Bool { lines.count >= Self.maximumLines }

    private init(objects: [PropertyListValue]) { self.objects = objects }

    private mutating func emit(_ text: String, label: String?, depth: Int, kind: TextViewer.Line.Kind = .text) {
        guard !isFull else { return }
        let indent = String(repeating: "  ", count: depth)
        lines.append(TextViewer.Line(indent + (label.map { "\($0): " } ?? "") + text, kind: kind))
        if isFull {
            lines.append(TextViewer.Line("… the outline stops at \(Self.maximumLines) lines", kind: .note))
        }
    }

    private mutating func note(_ text: String, depth: Int) { emit(text, label: nil, depth: depth, kind: .note) }

    /// Shows one value under `label`; `path` holds the archived objects being shown around it.
    private mutating func walk(_ value: PropertyListValue, label: String?, depth: Int, path: Set<Int>) {
        guard !isFull else { return }
        guard depth < Self.maximumDepth else {
            emit("… nested deeper than \(Self.maximumDepth) levels: not shown", label: label, depth: depth, kind: .note)
            return
        }
        switch value {
        case .uid(let index):
            guard objects.indices.contains(index) else {
                emit("a reference to object #\(index), which the archive does not hold", label: label, depth: depth, kind: .note)
                return
            }
            guard !path.contains(index) else {
                emit("↺ a reference back to object #\(index), which holds it (a cycle)", label: label, depth: depth, kind: .note)
                return
            }
            let object = objects[index]
            if case .string("$null") = object {
                emit("nil", label: label, depth: depth)
            } else if case .dictionary(let fields) = object, fields["$class"] != nil {
                archived(fields, label: label, depth: depth, path: path.union([index]))
            } else {
                walk(object, label: label, depth: depth, path: path.union([index]))
            }
        case .array(let elements), .set(let elements):
            let kind = if case .set = value { "set" } else { "array" }
            emit("\(kind), \(Self.count(elements.count, "item"))", label: label, depth: depth)
            list(elements, depth: depth + 1, path: path)
        case .dictionary(let entries):
            emit("dictionary, \(Self.count(entries.count, "entry", "entries"))", label: label, depth: depth)
            for (key, value) in entries.sorted(by: { $0.key < $1.key }).prefix(Self.maximumElements) {
                walk(value, label: Self.quoted(key), depth: depth + 1, path: path)
            }
            if entries.count > Self.maximumElements {
                note("… \(entries.count - Self.maximumElements) more entries", depth: depth + 1)
            }
        default:
            emit(Self.scalar(value), label: label, depth: depth)
        }
    }

    private mutating func list(_ elements: [PropertyListValue], depth: Int, path: Set<Int>) {
        for (i, element) in elements.prefix(Self.maximumElements).enumerated() {
            walk(element, label: "[\(i)]", depth: depth, path: path)
        }
        if elements.count > Self.maximumElements {
            note("… \(elements.count - Self.maximumElements) more items", depth: depth)
        }
    }

    /// An archived object: Foundation's collections and values as what they hold, any other
    /// class by name with its fields.
    private mutating func archived(_ fields: [String: PropertyListValue], label: String?, depth: Int, path: Set<Int>) {
        let className = self.className(fields["$class"])
        func field(_ key: String) -> PropertyListValue? {
            guard let value = fields[key] else { return nil }
            if case .uid(let index) = value, objects.indices.contains(index), !path.contains(index),
               case let object = objects[index], object.dictionary?["$class"] == nil, object.elements == nil {
                return object
            }
            return value
        }
        switch className {
        case "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet":
            let elements = fields["NS.objects"]?.elements ?? []
            emit("\(className), \(Self.count(elements.count, "item"))", label: label, depth: depth)
            list(elements, depth: depth + 1, path: path)
        case "NSDictionary", "NSMutableDictionary":
            let keys = fields["NS.keys"]?.elements ?? [], values = fields["NS.objects"]?.elements ?? []
            emit("\(className), \(Self.count(min(keys.count, values.count), "entry", "entries"))", label: label, depth: depth)
            if keys.count != values.count {
                note("its \(keys.count) keys and \(values.count) values do not pair up", depth: depth + 1)
            }
            // A dictionary has no order: its entries by key, so that the same dictionary reads the same.
            let entries = zip(keys, values).prefix(Self.maximumElements).map { (keyText($0.0, path: path), $0.1) }
            for (key, value) in entries.sorted(by: { $0.0 < $1.0 }) {
                walk(value, label: key, depth: depth + 1, path: path)
            }
            if min(keys.count, values.count) > Self.maximumElements {
                note("… \(min(keys.count, values.count) - Self.maximumElements) more entries", depth: depth + 1)
            }
        case "NSString", "NSMutableString":
            if let s = field("NS.string")?.string {
                emit(Self.quoted(s), label: label, depth: depth)
            } else if case .data(let bytes)? = field("NS.bytes"), let s = String(data: bytes, encoding: .utf8) {
                emit(Self.quoted(s), label: label, depth: depth)
            } else {
                unknown(className, fields, label: label, depth: depth, path: path)
            }
        case "NSDate":
            if case .real(let t)? = field("NS.time") {
                emit(Self.scalar(.date(Date(timeIntervalSinceReferenceDate: t))), label: label, depth: depth)
            } else {
                unknown(className, fields, label: label, depth: depth, path: path)
            }
        case "NSData", "NSMutableData":
            if case .data(let bytes)? = field("NS.data") {
                emit(Self.scalar(.data(bytes)), label: label, depth: depth)
            } else {
                unknown(className, fields, label: label, depth: depth, path: path)
            }
        case "NSURL":
            let relative = field("NS.relative")?.string
            let base = field("NS.base")?.string
            if let relative {
                emit("URL " + (base.flatMap { URL(string: relative, relativeTo: URL(string: $0))?.absoluteString } ?? relative),
                     label: label, depth: depth)
            } else {
                unknown(className, fields, label: label, depth: depth, path: path)
            }
        case "NSUUID":
            if case .data(let bytes)? = field("NS.uuidbytes"), bytes.count == 16 {
                let uuid = bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
                emit("UUID \(uuid.uuidString)", label: label, depth: depth)
            } else {
                unknown(className, fields, label: label, depth: depth, path: path)
            }
        case "NSNull":
            emit("NSNull", label: label, depth: depth)
        default:
            unknown(className, fields, label: label, depth: depth, path: path)
        }
    }

    /// An object of a class this outline does not know: its name and its archived fields.
    private mutating func unknown(_ className: String, _ fields: [String: PropertyListValue], label: String?, depth: Int,
                                  path: Set<Int>) {
        let shown = fields.filter { $0.key != "$class" }.sorted { $0.key < $1.key }
        emit("\(className) (read, not run), \(Self.count(shown.count, "field"))", label: label, depth: depth)
        for (key, value) in shown.prefix(Self.maximumElements) {
            walk(value, label: key, depth: depth + 1, path: path)
        }
    }

    private func className(_ reference: PropertyListValue?) -> String {
        guard case .uid(let index)? = reference, objects.indices.contains(index),
              let info = objects[index].dictionary else { return "an object of no named class" }
        return info["$classname"]?.string ?? "an object of no named class"
    }

    /// A dictionary key shown inline: a string quoted, anything else in brackets.
    private func keyText(_ key: PropertyListValue, path: Set<Int>) -> String {
        var key = key
        if case .uid(let index) = key, objects.indices.contains(index) { key = objects[index] }
        if let s = key.string { return Self.quoted(s) }
        if let fields = key.dictionary, fields["$class"] != nil {
            if case .uid(let index)? = fields["NS.string"], objects.indices.contains(index), let s = objects[index].string {
                return Self.quoted(s)
            }
            return "<\(className(fields["$class"]))>"
        }
        return "<\(Self.scalar(key))>"
    }

    static func scalar(_ value: PropertyListValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .real(let d): return String(d)
        case .string(let s): return quoted(s)
        case .date(let d): return ValueInspector.dateText(d)
        case .data(let d): return "data, \(count(d.count, "byte"))"
        case .uid(let u): return "object #\(u)"
        case .array(let a): return "array, \(count(a.count, "item"))"
        case .set(let a): return "set, \(count(a.count, "item"))"
        case .dictionary(let d): return "dictionary, \(count(d.count, "entry", "entries"))"
        }
    }

    /// A string in quotes, its line breaks and other control characters escaped, so that an
    /// outline line stays one line.
    static func quoted(_ s: String) -> String { s.predicateLiteral }

    static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        n == 1 ? "1 \(singular)" : "\(n) \(plural ?? singular + "s")"
    }
}
