/// A fetched property: a weak, one-way relationship defined by a fetch request.
///
/// Its predicate may use `$FETCH_SOURCE` (the owning object) and `$FETCHED_PROPERTY`.
public struct FetchedPropertyDescription: Sendable, Hashable {
    public var name: String
    /// The entity the fetch request looks in.
    public var entityName: String
    /// The fetch request's predicate in the format language, or `nil` for all objects.
    public var predicateFormat: String?
    public var isOptional: Bool
    public var userInfo: [String: String]
    public var xcodeAttributes: [String: String]

    public init(
        name: String,
        entityName: String,
        predicateFormat: String? = nil,
        isOptional: Bool = true,
        userInfo: [String: String] = [:],
        xcodeAttributes: [String: String] = [:]
    ) {
        self.name = name
        self.entityName = entityName
        self.predicateFormat = predicateFormat
        self.isOptional = isOptional
        self.userInfo = userInfo
        self.xcodeAttributes = xcodeAttributes
    }
}
