import Foundation

/// A model that cannot be used: a broken model file or an inconsistent description.
///
/// The message names the file and line where the XML gives one, then the entity and the
/// property:
///
/// ```
/// ToDo.xcdatamodeld/ToDo.xcdatamodel/contents:9: entity 'ToDo', relationship 'category': destination entity 'Categry' does not exist
/// ```
public struct ModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: Sendable, Hashable {
        /// No file or folder is at the path.
        case fileNotFound
        /// The file is there but cannot be read, for the reason given (permission, size, damage).
        case unreadable(String)
        /// The file is not well-formed XML, for the reason given.
        case malformedXML(String)
        /// The file or folder is not a Core Data model, for the reason given.
        case notAModel(String)
        /// An XML element lacks an attribute the model needs, such as a relationship's `destinationEntity`.
        case missingXMLAttribute(element: String, attribute: String)
        /// An XML attribute holds a value it cannot take, such as a regular expression that does not compile.
        case invalidXMLValue(attribute: String, value: String)
        /// An `attributeType` that names no `AttributeType`.
        case unknownAttributeType(String)
        /// A `deletionRule` that names no `DeleteRule`.
        case unknownDeleteRule(String)
        /// A value that does not fit the attribute's type: a default, minimum or maximum in the file,
        /// or the default value of a description.
        case invalidValue(attribute: String, value: String, type: AttributeType)
        /// Two entities have the same name.
        case duplicateEntity
        /// An entity defines a property twice, or one with the name of an inherited property.
        case duplicateProperty
        /// The entity's parent, named here, is not in the model.
        case missingParentEntity(String)
        /// Entities that are their own ancestors: the chain of names, back to where it began.
        case inheritanceCycle([String])
        /// A relationship's destination entity, named here, is not in the model.
        case missingDestinationEntity(String)
        /// A relationship's inverse, `name`, is not a relationship of its `destination` entity.
        case missingInverse(name: String, destination: String)
        /// A relationship's inverse does not lead back to the relationship's entity (or one of its kin).
        case inverseMismatch(name: String, destination: String)
        /// A fetched property, fetch request template or configuration names an entity not in the model.
        case unknownEntity(String)
        /// A uniqueness constraint, compound index or fetch index names a property the entity does not have.
        case unknownAttribute(String)
        /// A model bundle, or a list of versions, holds no version.
        case noVersions
        /// The version named as current is not among the versions.
        case missingCurrentVersion(String)
        /// A fetched property's or fetch request template's predicate that does not parse.
        case invalidPredicate(String, reason: String)
        /// An entity or property name that is not an identifier: stores name tables and
        /// columns after it, and key paths reach it.
        case invalidName(String)
        /// Two entity names that differ only in case, which a SQLite store would keep in one
        /// table.
        case entityNamesDifferOnlyInCase(String, String)
        /// A compiled model's binary property list that cannot be read (the byte where it fails).
        case malformedBinaryPropertyList(String)
        /// A compiled model's archive whose objects are not a model's.
        case malformedArchive(String)
        /// Two models being merged that both define an entity (or a fetch request template)
        /// of one name: where each comes from.
        case definedInBoth(what: String, first: String, second: String)
        /// Text in a model that an XML file cannot hold (a control character other than tab
        /// and line breaks): the element it is in, and the character.
        case unwritableInXML(element: String, character: Unicode.Scalar)
    }

    /// What is wrong, with the details the message gives.
    public var kind: Kind
    /// The file the problem is in, when it comes from a file.
    public var file: String?
    /// The line in `file`, when the XML parser gives one.
    public var line: Int?
    /// The entity at fault, when there is one.
    public var entity: String?
    /// The property at fault, or the fetch request template or configuration; nil when none is.
    public var property: String?

    /// An error of this kind, with the file, line, entity and property where they are known.
    public init(_ kind: Kind, file: String? = nil, line: Int? = nil, entity: String? = nil, property: String? = nil) {
        self.kind = kind
        self.file = file
        self.line = line
        self.entity = entity
        self.property = property
    }

    /// The error as one line: the file and line where known, the entity and property, then the message.
    public var description: String {
        var parts: [String] = []
        if let file {
            parts.append(line.map { "\(file):\($0)" } ?? file)
        }
        var subject: [String] = []
        if let entity { subject.append("entity \(Self.quoted(entity))") }
        if let property { subject.append("property \(Self.quoted(property))") }
        if !subject.isEmpty { parts.append(subject.joined(separator: ", ")) }
        parts.append(message)
        return parts.joined(separator: ": ")
    }

    /// The problem alone, without file or subject.
    public var message: String {
        switch kind {
        case .fileNotFound: return "no such model file or folder"
        case .unreadable(let why): return "cannot be read: \(why)"
        case .malformedXML(let why): return "malformed XML: \(why)"
        case .notAModel(let why): return "not a Core Data model: \(why)"
        case .missingXMLAttribute(let element, let attribute):
            return "<\(element)> lacks the required attribute '\(attribute)'"
        case .invalidXMLValue(let attribute, let value):
            return "'\(value)' is not a valid value for '\(attribute)'"
        case .unknownAttributeType(let t):
            let known = AttributeType.allCases.map(\.xcodeName).joined(separator: ", ")
            return "unknown attribute type '\(t)' (known: \(known))"
        case .unknownDeleteRule(let r):
            return "unknown delete rule '\(r)' (known: Nullify, Cascade, Deny, No Action)"
        case .invalidValue(let attribute, let value, let type):
            return "\(attribute) '\(value)' does not fit type \(type.xcodeName)"
        case .duplicateEntity: return "the entity is defined twice"
        case .duplicateProperty: return "the property is defined twice (or clashes with an inherited one)"
        case .missingParentEntity(let p): return "parent entity '\(p)' does not exist"
        case .inheritanceCycle(let chain): return "inheritance cycle: \(chain.joined(separator: " -> "))"
        case .missingDestinationEntity(let d): return "destination entity '\(d)' does not exist"
        case .missingInverse(let name, let destination):
            return "inverse relationship '\(name)' does not exist on entity '\(destination)'"
        case .inverseMismatch(let name, let destination):
            return "inverse relationship '\(destination).\(name)' does not point back to this entity"
        case .unknownEntity(let e): return "entity '\(e)' does not exist"
        case .unknownAttribute(let a): return "attribute '\(a)' does not exist"
        case .noVersions: return "the model bundle holds no .xcdatamodel version"
        case .invalidPredicate(let format, let reason): return "the predicate \"\(format)\" does not parse: \(reason)"
        case .invalidName:
            return "the name is not an identifier: a name starts with a letter and holds only letters, digits and _"
        case .entityNamesDifferOnlyInCase(let a, let b):
            return "the entities '\(a)' and '\(b)' differ only in case; a SQLite store names its tables in capitals, so one name must change"
        case .malformedBinaryPropertyList(let why): return "malformed binary property list: \(why)"
        case .malformedArchive(let why): return "malformed compiled model: \(why)"
        case .definedInBoth(let what, let first, let second):
            return "the \(what) is defined both in \(first) and in \(second); models merge only when their names differ"
        case .missingCurrentVersion(let v): return "the current version '\(v)' is not in the bundle"
        case .unwritableInXML(let element, let character):
            return String(format: "%@ holds U+%04X, a control character an XML file cannot hold; nothing was written", element, character.value)
        }
    }

    /// A name as the message shows it: quoted, with control characters escaped.
    static func quoted(_ name: String) -> String {
        "'" + name.unicodeScalars.map { $0.properties.generalCategory == .control ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined() + "'"
    }

    func located(file: String?, line: Int?) -> ModelError {
        var copy = self
        if copy.file == nil { copy.file = file }
        if copy.line == nil { copy.line = line }
        return copy
    }
}
