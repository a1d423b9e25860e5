/// An entity: a kind of object in the model, with its own properties and those it
/// inherits from its parent.
///
/// A description lists the properties the entity declares itself; once the entity is
/// part of a `ManagedObjectModel`, `attributes(in:)`-style lookups on the model include
/// inherited ones.
///
/// ```swift
/// let category = EntityDescription(name: "Category", attributes: [
///     AttributeDescription(name: "name", type: .string, isOptional: false),
/// ])
/// ```
public struct EntityDescription: Sendable, Hashable {
    public var name: String
    /// The class that represents instances in generated code (kept for writing back).
    public var className: String?
    /// Abstract entities have no instances of their own, only of their sub-entities.
    public var isAbstract: Bool
    /// The name of the parent entity whose properties this entity inherits.
    public var parentName: String?
    /// The attributes this entity declares (not the inherited ones).
    public var attributes: [AttributeDescription]
    /// The relationships this entity declares (not the inherited ones).
    public var relationships: [RelationshipDescription]
    public var fetchedProperties: [FetchedPropertyDescription]
    /// The entity's name in an earlier model version, for migration.
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    /// Sets of attribute names whose values together must be unique.
    public var uniquenessConstraints: [[String]]
    /// Sets of attribute names the store indexes together.
    public var compoundIndexes: [[String]]
    public var userInfo: [String: String]
    public var xcodeAttributes: [String: String]

    public init(
        name: String,
        className: String? = nil,
        isAbstract: Bool = false,
        parent: String? = nil,
        attributes: [AttributeDescription] = [],
        relationships: [RelationshipDescription] = [],
        fetchedProperties: [FetchedPropertyDescription] = [],
        renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil,
        uniquenessConstraints: [[String]] = [],
        compoundIndexes: [[String]] = [],
        userInfo: [String: String] = [:],
        xcodeAttributes: [String: String] = [:]
    ) {
        self.name = name
        self.className = className
        self.isAbstract = isAbstract
        self.parentName = parent
        self.attributes = attributes
        self.relationships = relationships
        self.fetchedProperties = fetchedProperties
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.uniquenessConstraints = uniquenessConstraints
        self.compoundIndexes = compoundIndexes
        self.userInfo = userInfo
        self.xcodeAttributes = xcodeAttributes
    }

    /// The names of the properties this entity declares, in declaration order.
    public var declaredPropertyNames: [String] {
        attributes.map(\.name) + relationships.map(\.name) + fetchedProperties.map(\.name)
    }
}
