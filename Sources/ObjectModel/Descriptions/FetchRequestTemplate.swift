/// A named fetch request stored in the model, whose predicate may hold `$VARIABLES`.
public struct FetchRequestTemplate: Sendable, Hashable {
    /// The template's name, which `FetchRequest.fromTemplate(named:in:variables:)` finds it by.
    public var name: String
    /// The entity whose objects the request fetches.
    public var entityName: String
    /// The predicate in the format language, `$VARIABLES` unfilled; nil or empty for every object.
    public var predicateFormat: String?
    /// The most objects the request returns; 0 for no limit.
    public var fetchLimit: Int
    /// How many objects the request loads at a time; 0 loads all at once.
    public var fetchBatchSize: Int
    /// Whether instances of sub-entities match too.
    public var includesSubentities: Bool
    /// Core Data's setting for loading values with the objects, kept from the model file and
    /// written back; a request made from the template does not use it.
    public var includesPropertyValues: Bool
    /// Whether the context's unsaved inserts, changes and deletes show in the results.
    public var includesPendingChanges: Bool
    /// Whether objects come back as faults, their values loaded on first access.
    public var returnsObjectsAsFaults: Bool
    /// For dictionary results, whether duplicate dictionaries are dropped.
    public var returnsDistinctResults: Bool

    /// A template for the objects of `entityName` (those matching `predicateFormat`, if given):
    /// no limit, sub-entities and pending changes included, objects as faults, unless given.
    public init(
        name: String,
        entityName: String,
        predicateFormat: String? = nil,
        fetchLimit: Int = 0,
        fetchBatchSize: Int = 0,
        includesSubentities: Bool = true,
        includesPropertyValues: Bool = true,
        includesPendingChanges: Bool = true,
        returnsObjectsAsFaults: Bool = true,
        returnsDistinctResults: Bool = false
    ) {
        self.name = name
        self.entityName = entityName
        self.predicateFormat = predicateFormat
        self.fetchLimit = fetchLimit
        self.fetchBatchSize = fetchBatchSize
        self.includesSubentities = includesSubentities
        self.includesPropertyValues = includesPropertyValues
        self.includesPendingChanges = includesPendingChanges
        self.returnsObjectsAsFaults = returnsObjectsAsFaults
        self.returnsDistinctResults = returnsDistinctResults
    }
}
