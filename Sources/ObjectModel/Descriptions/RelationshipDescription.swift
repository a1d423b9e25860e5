/// A relationship from one entity to another, with its inverse and delete rule.
///
/// ```swift
/// let todos = RelationshipDescription(name: "todos", destination: "ToDo",
///                                     inverse: "category", isToMany: true)
/// ```
public struct RelationshipDescription: Sendable, Hashable {
    public var name: String
    /// The name of the destination entity.
    public var destinationEntityName: String
    /// The name of the inverse relationship on the destination, if any.
    public var inverseName: String?
    /// Whether the relationship holds a set of objects rather than one.
    public var isToMany: Bool
    /// Whether a to-many relationship keeps its objects in order.
    public var isOrdered: Bool
    public var isOptional: Bool
    public var isTransient: Bool
    /// The fewest objects a non-empty to-many relationship may hold (0: no bound).
    public var minCount: Int
    /// The most objects a to-many relationship may hold (0: no bound).
    public var maxCount: Int
    public var deleteRule: DeleteRule
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    public var userInfo: [String: String]
    /// Model-file attributes kept for writing back (see `AttributeDescription`).
    public var xcodeAttributes: [String: String]

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
