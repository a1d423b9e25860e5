import Foundation
import ObjectGraph
import ObjectModel

/// A property of an entity, under Core Data's name: what attributes and relationships share.
///
/// `@unchecked Sendable` (here and in the subclasses): every stored property is a `let` of
/// a `Sendable` value; the classes are open only because Core Data's are.
open class NSPropertyDescription: NSObject, @unchecked Sendable {
    /// The entity the property belongs to.
    public let entity: NSEntityDescription
    /// The property's name: the key its values are read and set by.
    public let name: String
    /// Whether the property may be left without a value (nil, or no objects for a to-many) when its
    /// object is saved.
    public let isOptional: Bool
    /// Whether the property's values live in memory only: tracked and undoable, never stored.
    public let isTransient: Bool
    /// The model's user info for the property.
    public var userInfo: [AnyHashable: Any]? { modelUserInfo }
    private let modelUserInfo: [String: String]
    /// The property's name in an earlier model version, for migration.
    public let renamingIdentifier: String?
    /// Text mixed into the property's version hash, to force a new model version.
    public let versionHashModifier: String?
    /// Whether the store keeps an index of the property's values.
    public let isIndexed: Bool

    init(name: String, entity: NSEntityDescription, isOptional: Bool, isTransient: Bool, isIndexed: Bool = false,
         userInfo: [String: String], renamingIdentifier: String?, versionHashModifier: String?) {
        self.entity = entity
        self.name = name
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.modelUserInfo = userInfo
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.isIndexed = isIndexed
        super.init()
    }

    /// Whether the other is a property of the same kind, with the same name, on an equal entity.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSPropertyDescription, type(of: other) == type(of: self) else { return false }
        return other.name == name && other.entity == entity
    }

    /// A hash of the name and entity, the same for equal properties.
    public override var hash: Int { name.hashValue ^ entity.hash }
}

/// An attribute's type, with Core Data's names and numbers.
public enum NSAttributeType: UInt, Sendable {
    /// No type (Xcode's "Undefined"); also an `NSExpressionDescription`'s result type until
    /// one is set.
    case undefinedAttributeType = 0
    /// A 16-bit signed integer.
    case integer16AttributeType = 100
    /// A 32-bit signed integer.
    case integer32AttributeType = 200
    /// A 64-bit signed integer.
    case integer64AttributeType = 300
    /// A decimal number, made as `NSDecimalNumber`.
    case decimalAttributeType = 400
    /// A 64-bit floating-point number.
    case doubleAttributeType = 500
    /// A 32-bit floating-point number.
    case floatAttributeType = 600
    /// A string, made as `NSString`.
    case stringAttributeType = 700
    /// A Boolean, made as an `NSNumber`.
    case booleanAttributeType = 800
    /// A point in time, made as `NSDate`.
    case dateAttributeType = 900
    /// Raw bytes, made as `NSData`.
    case binaryDataAttributeType = 1000
    /// A UUID, made as `NSUUID`.
    case UUIDAttributeType = 1100
    /// A URL, made as `NSURL`.
    case URIAttributeType = 1200
    /// A value of a class of its own (`attributeValueClassName`), stored as the bytes, number or
    /// string it is; no value transformer runs here.
    case transformableAttributeType = 1800
    /// An object ID, made as `NSManagedObjectID`.
    case objectIDAttributeType = 2000
    /// Xcode 15's composite attributes; the engine does not model them yet, so no attribute
    /// here has this type.
    case compositeAttributeType = 2100

    /// The type for the engine's.
    public init(_ type: AttributeType) {
        switch type {
        case .undefined: self = .undefinedAttributeType
        case .integer16: self = .integer16AttributeType
        case .integer32: self = .integer32AttributeType
        case .integer64: self = .integer64AttributeType
        case .decimal: self = .decimalAttributeType
        case .double: self = .doubleAttributeType
        case .float: self = .floatAttributeType
        case .string: self = .stringAttributeType
        case .boolean: self = .booleanAttributeType
        case .date: self = .dateAttributeType
        case .binary: self = .binaryDataAttributeType
        case .uuid: self = .UUIDAttributeType
        case .uri: self = .URIAttributeType
        case .transformable: self = .transformableAttributeType
        case .objectID: self = .objectIDAttributeType
        }
    }

    /// The engine's type.
    public var attributeType: AttributeType {
        switch self {
        case .undefinedAttributeType: return .undefined
        case .integer16AttributeType: return .integer16
        case .integer32AttributeType: return .integer32
        case .integer64AttributeType: return .integer64
        case .decimalAttributeType: return .decimal
        case .doubleAttributeType: return .double
        case .floatAttributeType: return .float
        case .stringAttributeType: return .string
        case .booleanAttributeType: return .boolean
        case .dateAttributeType: return .date
        case .binaryDataAttributeType: return .binary
        case .UUIDAttributeType: return .uuid
        case .URIAttributeType: return .uri
        case .transformableAttributeType: return .transformable
        case .objectIDAttributeType: return .objectID
        case .compositeAttributeType: return .undefined
        }
    }
}

/// An attribute of an entity, under Core Data's name.
///
/// ```swift
/// let title = entity.attributesByName["title"]!
/// title.attributeType == .stringAttributeType && !title.isOptional
/// ```
open class NSAttributeDescription: NSPropertyDescription, @unchecked Sendable {
    /// The attribute in the engine's terms.
    public let engineAttribute: AttributeDescription

    init(_ attribute: AttributeDescription, of entity: NSEntityDescription) {
        engineAttribute = attribute
        super.init(name: attribute.name, entity: entity, isOptional: attribute.isOptional, isTransient: attribute.isTransient,
                   isIndexed: attribute.isIndexed, userInfo: attribute.userInfo, renamingIdentifier: attribute.renamingIdentifier,
                   versionHashModifier: attribute.versionHashModifier)
    }

    /// The type of the attribute's values.
    public var attributeType: NSAttributeType { NSAttributeType(engineAttribute.type) }

    /// The model's default value, as Core Data code reads values (`String`, `Int`, `Date`, …).
    public var defaultValue: Any? { CocoaValue.any(engineAttribute.defaultValue) }

    /// The name of the class values are made as ("NSString", "NSNumber", "NSDate", …).
    public var attributeValueClassName: String? {
        switch engineAttribute.type {
        case .integer16, .integer32, .integer64, .double, .float, .boolean: return "NSNumber"
        case .decimal: return "NSDecimalNumber"
        case .string: return "NSString"
        case .date: return "NSDate"
        case .binary: return "NSData"
        case .uuid: return "NSUUID"
        case .uri: return "NSURL"
        case .transformable: return engineAttribute.customClassName
        case .objectID: return "NSManagedObjectID"
        case .undefined: return nil
        }
    }

    /// The name of a transformable attribute's value transformer, as the model gives it;
    /// nothing here runs it.
    public var valueTransformerName: String? { engineAttribute.valueTransformerName }

    /// Whether a SQLite store may keep large binary or transformable values in files beside the
    /// database (Xcode's "Allows External Storage").
    public var allowsExternalBinaryDataStorage: Bool { engineAttribute.allowsExternalBinaryDataStorage }
}

/// What deleting an object does to the objects a relationship leads to, with Core Data's
/// names and numbers.
public enum NSDeleteRule: UInt, Sendable {
    /// Do nothing: the destinations keep their reference to the deleted object.
    case noActionDeleteRule = 0
    /// Remove the deleted object from each destination's inverse; the destinations survive.
    case nullifyDeleteRule = 1
    /// Delete the destinations too, applying their own rules in turn.
    case cascadeDeleteRule = 2
    /// Refuse the deletion at save while the relationship holds objects not deleted too.
    case denyDeleteRule = 3
}

/// A relationship of an entity, under Core Data's name.
open class NSRelationshipDescription: NSPropertyDescription, @unchecked Sendable {
    /// The relationship in the engine's terms.
    public let engineRelationship: RelationshipDescription

    init(_ relationship: RelationshipDescription, of entity: NSEntityDescription) {
        engineRelationship = relationship
        super.init(name: relationship.name, entity: entity, isOptional: relationship.isOptional,
                   isTransient: relationship.isTransient, userInfo: relationship.userInfo,
                   renamingIdentifier: relationship.renamingIdentifier, versionHashModifier: relationship.versionHashModifier)
    }

    /// The entity the relationship leads to.
    public var destinationEntity: NSEntityDescription? {
        entity.model?.entity(named: engineRelationship.destinationEntityName).map { NSEntityDescription($0, in: entity.model) }
    }

    /// The relationship back, on the destination entity.
    public var inverseRelationship: NSRelationshipDescription? {
        guard let destination = destinationEntity, let inverseName = engineRelationship.inverseName,
              let inverse = destination.engineEntity.relationship(named: inverseName) else { return nil }
        return NSRelationshipDescription(inverse, of: destination)
    }

    /// Whether the relationship holds a set of objects rather than one.
    public var isToMany: Bool { engineRelationship.isToMany }

    /// Whether a to-many relationship keeps its objects in order.
    public var isOrdered: Bool { engineRelationship.isOrdered }

    /// The fewest objects a non-empty to-many relationship may hold when saved; 0 for no minimum.
    public var minCount: Int { engineRelationship.minCount }

    /// The most objects a to-many relationship may hold when saved; 0 for no maximum.
    public var maxCount: Int { engineRelationship.maxCount }

    /// What deleting the source object does to the objects the relationship leads to.
    public var deleteRule: NSDeleteRule {
        switch engineRelationship.deleteRule {
        case .noAction: return .noActionDeleteRule
        case .nullify: return .nullifyDeleteRule
        case .cascade: return .cascadeDeleteRule
        case .deny: return .denyDeleteRule
        }
    }
}
