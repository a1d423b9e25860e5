import Foundation
import ObjectGraph
import ObjectModel
import Predicates
import TerminalUI

extension CellValue {
    /// How a value of the object graph shows in a cell: objects by their name (or entity
    /// and key), collections by their size.
    public init(_ value: ObjectValue) {
        switch value {
        case .null: self = .empty
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .integer(i)
        case .double(let d): self = .decimal(d)
        case .decimal(let d): self = .decimal(NSDecimalNumber(decimal: d).doubleValue)
        case .string(let s): self = .text(s)
        case .date(let d): self = .date(d)
        case .data(let d): self = .text("\(d.count) bytes")
        case .uuid(let u): self = .text(u.uuidString)
        case .url(let u): self = .text(u.absoluteString)
        case .array(let a), .set(let a): self = .text(a.count == 1 ? "1 item" : "\(a.count) items")
        case .dictionary(let d): self = .text("\(d.count) entries")
        case .object(let o):
            self = .text((o as? ManagedObject).map(Self.displayName) ?? "\(o.identity)")
        }
    }

    /// How an object's value at a key shows in a cell: a transformable attribute's as the value
    /// its transformer reads from the bytes (`[Milk, Bread]`), or its size in bytes where there
    /// is none to read; any other as `init(_:)` shows it.
    public init(_ object: ManagedObject, keyPath: String) {
        guard !keyPath.contains("."), object.entity.attribute(named: keyPath)?.type == .transformable,
              case .data(let bytes)? = try? object.value(forKey: keyPath) else {
            self.init((try? object.value(forKeyPath: keyPath)) ?? .null)
            return
        }
        guard let value = try? object.transformedValue(forKey: keyPath) else {
            self = .text("\(bytes.count) bytes")
            return
        }
        self = .text(Self.inline(value))
    }

    /// A value on one line, collections with their members, cut at about `limit` characters.
    public static func inline(_ value: ObjectValue, limit: Int = 80) -> String {
        var text = ""
        func add(_ value: ObjectValue) {
            guard text.count < limit else { return }
            switch value {
            case .array(let items), .set(let items):
                text += "["
                for (i, item) in items.enumerated() {
                    if text.count >= limit { break }
                    if i > 0 { text += ", " }
                    add(item)
                }
                text += "]"
            case .dictionary(let entries):
                text += "{"
                for (i, key) in entries.keys.sorted().enumerated() {
                    if text.count >= limit { break }
                    text += (i > 0 ? ", " : "") + key + ": "
                    add(entries[key]!)
                }
                text += "}"
            case .null: text += "nil"
            case .date(let d): text += d.formatted(.iso8601)
            default:
                if case .text(let s) = CellValue(value) { text += s } else { text += ValidationFailure.render(value) }
            }
        }
        add(value)
        return text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
    }

    /// A short name for an object: its `name` or `title` attribute, else its first string
    /// attribute, else entity and key. A reference that leads nowhere says so: to an object
    /// deleted and not yet saved ("Sales (deleted)"), or to a row no longer in the store
    /// ("Department 4 (missing)"), which a No Action delete rule can leave behind.
    public static func displayName(_ object: ManagedObject) -> String {
        switch Reach(object) {
        case .missing: return "\(keyName(object)) (missing)"
        case .deleted: return "\(plainName(object)) (deleted)"
        case .present: return plainName(object)
        }
    }

    /// Whether an object a relationship leads to is there to show.
    public enum Reach {
        /// In the context and the store.
        case present
        /// Deleted in this context, not yet saved.
        case deleted
        /// Not in the store: deleted and saved, here or elsewhere. Shown by entity and key
        /// alike, whether this context knew its values or not.
        case missing

        public init(_ object: ManagedObject) {
            if object.isDeleted {
                self = .deleted
            } else if !object.isValid {
                self = .missing
            } else if object.isFault, (try? object.managedObjectContext?.existingObject(with: object.objectID)) == nil {
                self = .missing
            } else {
                self = .present
            }
        }
    }

    /// `name`, `title` or `label`; else the first stored string attribute (a person's
    /// `firstName`); else entity and key — whether or not the object is still there.
    public static func plainName(_ object: ManagedObject) -> String {
        let entity = object.entity
        var keys = ["name", "title", "label"].filter { entity.attribute(named: $0) != nil }
        if keys.isEmpty, let first = entity.attributes.first(where: { $0.type == .string && !$0.isTransient }) {
            keys = [first.name]
        }
        for key in keys {
            if let s = try? object.value(forKey: key).stringValue, !s.isEmpty { return s }
        }
        return keyName(object)
    }

    /// An object by entity and primary key ("Department 4"), as the store knows it.
    public static func keyName(_ object: ManagedObject) -> String {
        "\(object.entity.name) \(object.objectID.primaryKey.map(String.init) ?? "(new)")"
    }

    /// The labels of a choice among objects: their display names, with `(2)`, `(3)`… after
    /// a name already listed, so that each label picks one object.
    ///
    ///     CellValue.choiceLabels(for: [home, work, otherHome])   // ["Home", "Work", "Home (2)"]
    public static func choiceLabels(for objects: [ManagedObject]) -> [String] {
        var seen: [String: Int] = [:]
        return objects.map { object in
            let name = displayName(object)
            let n = (seen[name] ?? 0) + 1
            seen[name] = n
            return n == 1 ? name : "\(name) (\(n))"
        }
    }

    /// The value to store in an attribute of a type, from what an editor produced.
    ///
    /// - Throws: `ObjectGraphError.typeMismatch` when the text does not read as the type.
    public func objectValue(for attribute: AttributeDescription, entity: String) throws -> ObjectValue {
        let value: ObjectValue?
        switch self {
        case .empty: value = .null
        case .bool(let b): value = attribute.type.coerce(.bool(b))
        case .integer(let i): value = attribute.type.coerce(.int(i))
        case .decimal(let d):
            value = attribute.type == .decimal ? Decimal(string: String(d)).map(ObjectValue.decimal) : attribute.type.coerce(.double(d))
        case .date(let d): value = attribute.type.coerce(.date(d))
        case .text(let s):
            if attribute.type == .string { value = .string(s) } else if s.isEmpty { value = .null } else { value = attribute.type.parseValue(s) }
        }
        guard let value else {
            throw ObjectGraphError.typeMismatch(entity: entity, key: attribute.name, expected: attribute.type.xcodeName,
                                                value: ObjectValue(cellValue: self))
        }
        return value
    }
}

extension ObjectValue {
    init(cellValue: CellValue) {
        switch cellValue {
        case .empty: self = .null
        case .text(let s): self = .string(s)
        case .integer(let i): self = .int(i)
        case .decimal(let d): self = .double(d)
        case .date(let d): self = .date(d)
        case .bool(let b): self = .bool(b)
        }
    }
}

extension EditorKind {
    /// The editor that fits an attribute's type.
    public init(for attribute: AttributeDescription) {
        switch attribute.type {
        case .integer16, .integer32, .integer64: self = .integer
        case .decimal, .double, .float: self = .decimal
        case .boolean: self = .toggle
        case .date: self = .date
        case .string, .uuid, .uri: self = .text
        default: self = .readOnly
        }
    }
}
