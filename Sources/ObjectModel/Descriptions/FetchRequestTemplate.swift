/// A named fetch request stored in the model, whose predicate may hold `$VARIABLES`.
public struct FetchRequestTemplate: Sendable, Hashable {
    public var name: String
    public var entityName: String
    public var predicateFormat: String?
    public var fetchLimit: Int
    public var fetchBatchSize: Int
    public var includesSubentities: Bool
    public var includesPropertyValues: Bool
    public var includesPendingChanges: Bool
    public var returnsObjectsAsFaults: Bool
    public var returnsDistinctResults: Bool

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
