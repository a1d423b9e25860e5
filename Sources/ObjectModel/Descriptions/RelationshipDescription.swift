/// A relationship from one entity to another, with its inverse and delete rule.
///
/// ```swift
/// let todos = RelationshipDescription(name: "todos", destination: "ToDo",
///                                     inverse: "category", isToMany: true)
/// ```
public struct RelationshipDescription: Sendable, Hashable {
    /// The relationship's name: the key its destinations are read and set by.
    public var name: String
    /// The name of the destination entity.
    public var destinationEntityName: String
    /// The name of the inverse relationship on the destination, if any.
    public var inverseName: String?
    /// Whether the relationship holds a set of objects rather than one.
    public var isToMany: Bool
    /// Whether a to-many relationship keeps its objects in order.
    public var isOrdered: Bool
    /// Whether the relationship may be empty (no object, or no members) when the object is saved.
    public var isOptional: Bool
    /// Transient relationships are tracked and undoable but never stored.
    public var isTransient: Bool
    /// The fewest objects a non-empty to-many relationship may hold (0: no bound).
    public var minCount: Int
    /// The most objects a to-many relationship may hold (0: no bound).
    public var maxCount: Int
    /// What deleting an object does to the destinations of this relationship.
    public var deleteRule: DeleteRule
    /// The relationship's name in an earlier model version, for migration.
    public var renamingIdentifier: String?
    /// Text mixed into the relationship's version hash to force a new version.
    public var versionHashModifier: String?
    /// The entries the model file gives the relationship (Xcode's User Info), kept as text and written back.
    public var userInfo: [String: String]
    /// Model-file attributes kept for writing back (see `AttributeDescription`).
    public var xcodeAttributes: [String: String]

    /// A relationship to the `destination` entity: to-one, optional and nullifying unless given;
    /// a nil `maxCount` is 1 for a to-one and no bound for a to-many.
    public init(
        name: String,
        destination: String,
        inverse: String? = nil,
        isToMany: Bool = false,
        isOrdered: Bool = false,
        isOptional: Bool = true,
        isTransient: Bool = false,
        minCount: Int = 0,
        maxCount: Int? = nil,
        deleteRule: DeleteRule = .nullify,
        renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil,
        userInfo: [String: String] = [:],
        xcodeAttributes: [String: String] = [:]
    ) {
        self.name = name
        self.destinationEntityName = destination
        self.inverseName = inverse
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.minCount = minCount
        self.maxCount = maxCount ?? (isToMany ? 0 : 1)
        self.deleteRule = deleteRule
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.userInfo = userInfo
        self.xcodeAttributes = xcodeAttributes
    }
}
