import Foundation
import ObjectModel
import Predicates

/// How attribute values are written in the XML store's files, and read back with the
/// model's attribute type deciding what they become.
enum StoredValueCoding {
    // MARK: Text (XML store)

    /// The text of a value, and the name of its kind.
    static func text(of value: ObjectValue) -> (kind: String, text: String)? {
        switch value {
        case .null: return nil
        case .bool(let b): return ("bool", b ? "1" : "0")
        case .int(let i): return ("int", String(i))
        case .double(let d): return ("double", "\(d)")
        case .decimal(let d): return ("decimal", "\(d)")
        case .string(let s): return ("string", s)
        case .date(let d): return ("date", "\(d.timeIntervalSinceReferenceDate)")
        case .data(let d): return ("data", d.base64EncodedString())
        case .uuid(let u): return ("uuid", u.uuidString)
        case .url(let u): return ("url", u.absoluteString)
        case .array, .set, .dictionary, .object: return nil
        }
    }

    /// The value a text stands for, as the attribute's type wants it.
    static func value(fromText text: String, kind: String, type: AttributeType) -> ObjectValue? {
        let raw: ObjectValue?
        switch kind {
        case "bool": raw = .bool(text == "1" || text.lowercased() == "true")
        case "int": raw = Int(text).map(ObjectValue.int)
        case "double": raw = Double(text).map(ObjectValue.double)
        case "decimal": raw = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")).map(ObjectValue.decimal)
        case "string": raw = .string(text)
        case "date": raw = Double(text).map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case "data": raw = Data(base64Encoded: text).map(ObjectValue.data)
        case "uuid": raw = UUID(uuidString: text).map(ObjectValue.uuid)
        case "url": raw = URL(string: text).map(ObjectValue.url)
        default: raw = nil
        }
        return raw.flatMap { type.coerce($0) }
    }

    // MARK: References

    /// `Entity:pk`, how both files name another object.
    static func reference(_ id: ManagedObjectID) -> String {
        "\(id.entityName):\(id.primaryKey ?? 0)"
    }

    static func objectID(fromReference text: Substring, store: String) -> ManagedObjectID? {
        guard let colon = text.lastIndex(of: ":"), let key = Int64(text[text.index(after: colon)...]) else { return nil }
        return ManagedObjectID(entityName: String(text[..<colon]), storeIdentifier: store, reference: .permanent(key))
    }
}
