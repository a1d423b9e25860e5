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
    /// The entity's name: what the model, fetch requests and relationships name it by.
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
    /// The fetched properties this entity declares (not the inherited ones).
    public var fetchedProperties: [FetchedPropertyDescription]
    /// The entity's name in an earlier model version, for migration.
    public var renamingIdentifier: String?
    /// Text mixed into the entity's version hash to force a new version.
    public var versionHashModifier: String?
    /// Sets of attribute names whose values together must be unique.
    public var uniquenessConstraints: [[String]]
    /// Sets of attribute names the store indexes together.
    public var compoundIndexes: [[String]]
    /// The entity's fetch indexes (Xcode's Fetch Indexes), in the model file's order.
    public var fetchIndexes: [FetchIndexDescription]
    /// The entries the model file gives the entity (Xcode's User Info), kept as text and written back.
    public var userInfo: [String: String]
    /// Model-file attributes with no meaning for the object graph (such as `codeGenerationType`),
    /// kept so that writing the model back preserves them.
    public var xcodeAttributes: [String: String]

    /// An entity of this name declaring these properties: concrete and without a parent unless given.
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
        fetchIndexes: [FetchIndexDescription] = [],
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
        self.fetchIndexes = fetchIndexes
        self.userInfo = userInfo
        self.xcodeAttributes = xcodeAttributes
    }

    /// The names of the properties this entity declares, in declaration order.
    public var declaredPropertyNames: [String] {
        attributes.map(\.name) + relationships.map(\.name) + fetchedProperties.map(\.name)
    }
}
