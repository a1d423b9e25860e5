import Foundation
import Predicates

/// An entity as it stands in a model: its declaration plus everything inheritance gives
/// it, with lookups by name.
///
/// ```swift
/// let employee = model.entity(named: "Employee")!
/// employee.attribute(named: "firstName")   // inherited from Person
/// employee.isKind(of: "Person")            // true
/// ```
public final class Entity: Sendable, Hashable, CustomStringConvertible {
    /// What the model file says of the entity itself.
    public let declaration: EntityDescription
    /// Attributes, inherited first (root first), then the entity's own.
    public let attributes: [AttributeDescription]
    /// Relationships, inherited first, then the entity's own.
    public let relationships: [RelationshipDescription]
    /// Fetched properties, inherited first, then the entity's own.
    public let fetchedProperties: [FetchedPropertyDescription]
    /// The entity's ancestors, nearest first.
    public let ancestorNames: [String]
    /// Direct sub-entities, in model order.
    public let subentityNames: [String]
    /// The entity and all its descendants, the entity first.
    public let kindNames: [String]
    /// A number unique in the model: the position of the entity in name order, from 1.
    public let number: Int
    /// Every attribute's default value, in `attributes` order: a new object's values.
    public let defaultAttributeValues: [ObjectValue]
    /// What saving and validating ask of every attribute, in `attributes` order, so that the
    /// per-object paths read flags rather than copy descriptions.
    public let attributeTraits: [AttributeTraits]
    /// What changing an object asks of every relationship, in `relationships` order, read
    /// without copying a description (a copy retains each of its strings).
    public let relationshipTraits: [RelationshipTraits]
    /// The derived attributes (inherited ones included), each with its expression parsed: what
    /// a save computes.
    public let derivedAttributes: [DerivedAttribute]
    /// Whether any attribute is transformable: where none is (most entities), the accessors
    /// that convert a transformable's value skip looking.
    public let hasTransformableAttributes: Bool

    private let attributeIndex: NameIndex
    private let relationshipIndex: NameIndex

    init(
        declaration: EntityDescription,
        attributes: [AttributeDescription],
        relationships: [RelationshipDescription],
        fetchedProperties: [FetchedPropertyDescription],
        ancestorNames: [String],
        subentityNames: [String],
        kindNames: [String],
        number: Int
    ) {
        self.declaration = declaration
        self.attributes = attributes
        self.relationships = relationships
        self.fetchedProperties = fetchedProperties
        self.ancestorNames = ancestorNames
        self.subentityNames = subentityNames
        self.kindNames = kindNames
        self.number = number
        self.defaultAttributeValues = attributes.map(\.defaultValue)
        self.attributeTraits = attributes.map {
            AttributeTraits(type: $0.type, isOptional: $0.isOptional, isTransient: $0.isTransient,
                            hasValueRules: $0.minimum != nil || $0.maximum != nil || $0.regularExpression != nil)
        }
        self.relationshipTraits = relationships.map {
            RelationshipTraits(name: $0.name, inverseName: $0.inverseName, isToMany: $0.isToMany, isOrdered: $0.isOrdered)
        }
        // The model checks every derivation expression parses before it makes its entities.
        self.derivedAttributes = attributes.enumerated().compactMap { index, attribute in
            guard let text = attribute.derivationExpression, let expression = try? ObjectExpression(format: text) else { return nil }
            return DerivedAttribute(index: index, name: attribute.name, type: attribute.type, expression: expression)
        }
        hasTransformableAttributes = attributes.contains { $0.type == .transformable }
        attributeIndex = NameIndex(attributes.map(\.name))
        relationshipIndex = NameIndex(relationships.map(\.name))
    }

    /// The entity's name, as its declaration gives it.
    public var name: String { declaration.name }
    /// Whether the entity has no instances of its own, only of its sub-entities.
    public var isAbstract: Bool { declaration.isAbstract }
    /// The name of the entity's direct parent; nil for an entity without one.
    public var parentName: String? { declaration.parentName }
    /// The top of the entity's inheritance tree (the entity itself when it has no parent).
    public var rootName: String { ancestorNames.last ?? name }

    /// An attribute, own or inherited.
    public func attribute(named name: String) -> AttributeDescription? {
        attributeIndex.index(of: name).map { attributes[$0] }
    }

    /// A relationship, own or inherited.
    public func relationship(named name: String) -> RelationshipDescription? {
        relationshipIndex.index(of: name).map { relationships[$0] }
    }

    /// A fetched property, own or inherited.
    public func fetchedProperty(named name: String) -> FetchedPropertyDescription? {
        fetchedProperties.first { $0.name == name }
    }

    /// The position of an attribute in `attributes`.
    public func attributeIndex(of name: String) -> Int? { attributeIndex.index(of: name) }

    /// The position of a relationship in `relationships`.
    public func relationshipIndex(of name: String) -> Int? { relationshipIndex.index(of: name) }

    /// Whether the entity has a property of this name.
    public func hasProperty(_ name: String) -> Bool {
        attributeIndex.index(of: name) != nil || relationshipIndex.index(of: name) != nil || fetchedProperty(named: name) != nil
    }

    /// Whether the entity is `name` or descends from it.
    public func isKind(of name: String) -> Bool {
        self.name == name || ancestorNames.contains(name)
    }

    /// The attributes a store keeps (not transient).
    public var storedAttributes: [AttributeDescription] { attributes.filter { !$0.isTransient } }

    /// Whether two entities have the same declaration, ancestors and sub-entities.
    public static func == (lhs: Entity, rhs: Entity) -> Bool {
        lhs.declaration == rhs.declaration && lhs.ancestorNames == rhs.ancestorNames
            && lhs.subentityNames == rhs.subentityNames
    }

    /// Hashes the entity's declaration.
    public func hash(into hasher: inout Hasher) { hasher.combine(declaration) }

    /// The entity as `Entity(ToDo)`.
    public var description: String { "Entity(\(name))" }
}

/// An attribute's type and flags, without its name, default or rules.
public struct AttributeTraits: Sendable, Hashable {
    /// The type of the attribute's values.
    public let type: AttributeType
    /// Whether the value may be nil when the object is saved.
    public let isOptional: Bool
    /// Whether the attribute is tracked but never stored.
    public let isTransient: Bool
    /// Whether the attribute has bounds or a pattern a value must meet.
    public let hasValueRules: Bool
}

/// A derived attribute of an entity: where its value is, and the expression it is computed from.
public struct DerivedAttribute: Sendable {
    /// The attribute's position in its entity's `attributes`.
    public let index: Int
    /// The attribute's name.
    public let name: String
    /// The attribute's type, which the computed value is converted to.
    public let type: AttributeType
    /// The parsed `derivationExpression`.
    public let expression: ObjectExpression
}

/// What the per-change paths ask of a relationship.
public struct RelationshipTraits: Sendable, Hashable {
    /// The relationship's name: the key its destinations are set by.
    public let name: String
    /// The name of the inverse relationship on the destination, if any.
    public let inverseName: String?
    /// Whether the relationship holds a set of objects rather than one.
    public let isToMany: Bool
    /// Whether a to-many relationship keeps its objects in order.
    public let isOrdered: Bool
}

/// The positions of property names, found with a cheap hash of their bytes: every value
/// read or written by key looks its name up, and names are short, where the standard
/// dictionary's seeded hash costs several hundred instructions per lookup.
struct NameIndex: Sendable {
    private let names: [String]
    /// Open addressing: a position in `names`, or -1 for an empty slot.
    private let slots: [Int]
    private let mask: Int

    init(_ names: [String]) {
        self.names = names
        var size = 4
        while size < names.count * 2 { size *= 2 }
        var slots = Array(repeating: -1, count: size)
        for (position, name) in names.enumerated() {
            var slot = Self.hash(name) & (size - 1)
            // A repeated name keeps its last position, as a dictionary built in order would.
            while slots[slot] >= 0 && names[slots[slot]] != name { slot = (slot + 1) & (size - 1) }
            slots[slot] = position
        }
        self.slots = slots
        self.mask = size - 1
    }

    func index(of name: String) -> Int? {
        var slot = Self.hash(name) & mask
        while true {
            let position = slots[slot]
            if position < 0 { return nil }
            if names[position] == name { return position }
            slot = (slot + 1) & mask
        }
    }

    /// FNV-1a over the UTF-8 bytes, folded. The bytes are read from the string's own
    /// storage (a property name is small and stored inline) rather than through the
    /// UTF-8 view's iterator, which costs several times as much per byte.
    private static func hash(_ name: String) -> Int {
        var name = name
        return name.withUTF8 { bytes in
            var h: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in bytes { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            return Int(truncatingIfNeeded: h ^ (h >> 29))
        }
    }
}
