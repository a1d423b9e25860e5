import Foundation
import ObjectModel
import Predicates

extension SwiftClassGenerator {
    // MARK: Types and names

    /// Transformable, object ID and undefined values are kept as they are stored.
    static func usesObjectValue(_ type: AttributeType) -> Bool {
        [.transformable, .objectID, .undefined].contains(type)
    }

    static func swiftType(_ type: AttributeType) -> String {
        switch type {
        case .integer16: return "Int16"
        case .integer32: return "Int32"
        case .integer64: return "Int64"
        case .decimal: return "Decimal"
        case .double: return "Double"
        case .float: return "Float"
        case .string: return "String"
        case .boolean: return "Bool"
        case .date: return "Date"
        case .binary: return "Data"
        case .uuid: return "UUID"
        case .uri: return "URL"
        case .transformable, .objectID, .undefined: return "ObjectValue"
        }
    }

    /// Whether a number or Boolean asks to be a plain Swift value (`usesScalarValueType`).
    static func isScalar(_ attribute: AttributeDescription) -> Bool {
        attribute.xcodeAttributes["usesScalarValueType"] == "YES"
            && [.integer16, .integer32, .integer64, .double, .float, .boolean].contains(attribute.type)
    }

    /// A default value as Swift source, when the type has a literal for it: one the compiler
    /// takes (an integer within its type's range, a finite number) and that cannot fail
    /// when it runs (a URL that parses, a decimal that is a number).
    static func literal(_ value: ObjectValue, type: AttributeType) -> String? {
        switch (type, value) {
        case (.integer16, .int(let i)): return Int16(exactly: i).map { "\($0)" }
        case (.integer32, .int(let i)): return Int32(exactly: i).map { "\($0)" }
        case (.integer64, .int(let i)): return "\(i)"
        case (.double, .double(let d)): return d.isFinite ? "\(d)" : nil
        case (.float, .double(let d)): return d.isFinite && Float(d).isFinite ? "\(d)" : nil
        case (.boolean, .bool(let b)): return b ? "true" : "false"
        case (.string, .string(let s)): return literal(s)
        case (.decimal, .decimal(let d)):
            guard !d.isNaN, Decimal(string: "\(d)", locale: Locale(identifier: "en_US_POSIX")) != nil else { return nil }
            return "Decimal(string: \(literal("\(d)")), locale: Locale(identifier: \"en_US_POSIX\"))!"
        case (.date, .date(let d)):
            return d.timeIntervalSinceReferenceDate.isFinite ? "Date(timeIntervalSinceReferenceDate: \(d.timeIntervalSinceReferenceDate))" : nil
        case (.uuid, .uuid(let u)): return "UUID(uuidString: \(literal(u.uuidString)))!"
        case (.uri, .url(let u)): return URL(string: u.absoluteString) == nil ? nil : "URL(string: \(literal(u.absoluteString)))!"
        default: return nil
        }
    }

    /// Whether a default of the attribute's own kind has no literal (an integer past its
    /// type's range, a number that is not finite, a URL that does not parse): generated
    /// code would not compile, or would stop at its first read.
    static func isOutOfReach(_ value: ObjectValue, type: AttributeType) -> Bool {
        switch (type, value) {
        case (.integer16, .int), (.integer32, .int), (.double, .double), (.float, .double), (.decimal, .decimal),
             (.date, .date), (.uri, .url):
            return literal(value, type: type) == nil
        default:
            return false
        }
    }

    /// Text from the model as it may stand in a `//` comment: on one line, controls escaped.
    static func commentText(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator, .format: out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `items` as the methods of a to-many name it: `Items` (`addToItems`).
    static func capitalized(_ name: String) -> String {
        name.prefix(1).uppercased() + name.dropFirst()
    }

    /// A Swift string literal.
    static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                out += scalar.properties.generalCategory == .control ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
            }
        }
        return out + "\""
    }

    /// A property name as Swift source: a keyword in backquotes.
    static func identifier(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static",
        "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as",
        "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "Type", "Protocol", "some", "any",
        "consume", "copy", "discard", "each", "borrowing", "consuming", "actor", "macro", "package",
    ]

    /// What a generated class inherits or declares that takes no argument: a property of the
    /// same name would hide it or fail to compile.
    static let memberNames: Set<String> = [
        "entity", "objectID", "managedObjectContext", "isFault", "isInserted", "isDeleted", "isUpdated", "hasChanges",
        "isValid", "identity", "keyValueTypeName", "keyValueEntityName", "description", "hashValue", "changedValues",
        "objectValue", "entityName", "fetchRequest", "awakeFromInsert", "awakeFromFetch", "prepareForDeletion",
        "willSave", "didSave", "validateForInsert", "validateForUpdate", "validateForDelete", "fireFault",
    ]

    /// Refuses two members of one class with one name: a property, or the `addTo…` and
    /// `removeFrom…` methods of a to-many (`items` and `Items` both make `addToItems`), among
    /// the entity's own properties and those it inherits.
    func checkMemberNames(of entity: Entity) throws {
        var owners: [String: String] = [:]
        let own = Set(entity.declaration.attributes.map(\.name) + entity.declaration.relationships.map(\.name)
                      + entity.declaration.fetchedProperties.map(\.name))
        func claim(_ member: String, by property: String) throws {
            if let other = owners[member], other != property {
                let culprit = own.contains(property) ? property : other
                throw CodegenError(entity: entity.name, property: culprit,
                                   reason: "the generated member \(member) would be both \(other)'s and \(property)'s; rename one of them")
            }
            owners[member] = property
        }
        let properties = entity.attributes.map(\.name) + entity.relationships.map(\.name) + entity.fetchedProperties.map(\.name)
        for name in properties { try claim(name, by: name) }
        for relationship in entity.relationships where relationship.isToMany {
            let capitalized = Self.capitalized(relationship.name)
            try claim("addTo" + capitalized, by: relationship.name)
            try claim("removeFrom" + capitalized, by: relationship.name)
        }
    }

    /// Names a class cannot take without hiding a type the generated code uses.
    static let reservedClassNames: Set<String> = [
        "ManagedObject", "TypedObject", "FetchRequest", "ObjectValue", "PersistentStoreCoordinator", "Foundation",
        "ObjectGraph", "Predicates", "String", "Bool", "Int", "Int16", "Int32", "Int64", "Double", "Float", "Decimal",
        "Date", "Data", "UUID", "URL", "Set", "Array", "Optional", "Sequence", "CollectionOfOne", "Locale",
    ]

    func checkClassName(_ name: String, entity: Entity) throws {
        if let problem = SwiftIdentifier.problem(with: name) {
            throw CodegenError(entity: entity.name, reason: "its class name '\(Self.commentText(name))' is not a Swift type name: \(problem)")
        }
        guard ManagedObjectModel.isValidName(name), !Self.keywords.contains(name) else {
            throw CodegenError(entity: entity.name, reason: "its class name '\(name)' is not a Swift type name")
        }
        guard !Self.reservedClassNames.contains(name) else {
            throw CodegenError(entity: entity.name, reason: "its class name '\(name)' would hide the type of that name the generated code uses; give the entity another class name")
        }
    }

    func checkPropertyName(_ name: String, entity: Entity) throws {
        if let problem = SwiftIdentifier.problem(with: name) {
            throw CodegenError(entity: entity.name, property: Self.commentText(name), reason: "the name is not a Swift name: \(problem)")
        }
        guard !Self.memberNames.contains(name) else {
            throw CodegenError(entity: entity.name, property: name,
                               reason: "the name is a member every managed object has (\(name)); rename the property, or set the entity's code generation to manual and write the class yourself")
        }
    }
}
