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

    private let attributeIndex: [String: Int]
    private let relationshipIndex: [String: Int]

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
        var ai: [String: Int] = [:]
        for (i, a) in attributes.enumerated() { ai[a.name] = i }
        attributeIndex = ai
        var ri: [String: Int] = [:]
        for (i, r) in relationships.enumerated() { ri[r.name] = i }
        relationshipIndex = ri
    }

    public var name: String { declaration.name }
    public var isAbstract: Bool { declaration.isAbstract }
    public var parentName: String? { declaration.parentName }
    /// The top of the entity's inheritance tree (the entity itself when it has no parent).
    public var rootName: String { ancestorNames.last ?? name }

    /// An attribute, own or inherited.
    public func attribute(named name: String) -> AttributeDescription? {
        attributeIndex[name].map { attributes[$0] }
    }

    /// A relationship, own or inherited.
    public func relationship(named name: String) -> RelationshipDescription? {
        relationshipIndex[name].map { relationships[$0] }
    }

    /// A fetched property, own or inherited.
    public func fetchedProperty(named name: String) -> FetchedPropertyDescription? {
        fetchedProperties.first { $0.name == name }
    }

    /// The position of an attribute in `attributes`.
    public func attributeIndex(of name: String) -> Int? { attributeIndex[name] }

    /// The position of a relationship in `relationships`.
    public func relationshipIndex(of name: String) -> Int? { relationshipIndex[name] }

    /// Whether the entity has a property of this name.
    public func hasProperty(_ name: String) -> Bool {
        attributeIndex[name] != nil || relationshipIndex[name] != nil || fetchedProperty(named: name) != nil
    }

    /// Whether the entity is `name` or descends from it.
    public func isKind(of name: String) -> Bool {
        self.name == name || ancestorNames.contains(name)
    }

    /// The attributes a store keeps (not transient).
    public var storedAttributes: [AttributeDescription] { attributes.filter { !$0.isTransient } }

    public static func == (lhs: Entity, rhs: Entity) -> Bool {
        lhs.declaration == rhs.declaration && lhs.ancestorNames == rhs.ancestorNames
            && lhs.subentityNames == rhs.subentityNames
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(declaration) }

    public var description: String { "Entity(\(name))" }
}

/// An attribute's type and flags, without its name, default or rules.
public struct AttributeTraits: Sendable, Hashable {
    public let type: AttributeType
    public let isOptional: Bool
    public let isTransient: Bool
    /// Whether the attribute has bounds or a pattern a value must meet.
    public let hasValueRules: Bool
}
