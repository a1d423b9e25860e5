/// A fetched property: a weak, one-way relationship defined by a fetch request.
///
/// Its predicate may use `$FETCH_SOURCE` (the owning object) and `$FETCHED_PROPERTY`.
public struct FetchedPropertyDescription: Sendable, Hashable {
    /// The property's name: the key its results are read by.
    public var name: String
    /// The entity the fetch request looks in.
    public var entityName: String
    /// The fetch request's predicate in the format language, or `nil` for all objects.
    public var predicateFormat: String?
    /// The model file's optional flag, kept so that writing the model back preserves it.
    public var isOptional: Bool
    /// The entries the model file gives the property (Xcode's User Info), kept as text and written back.
    public var userInfo: [String: String]
    /// Model-file attributes with no meaning for the object graph, kept so that writing the
    /// model back preserves them.
    public var xcodeAttributes: [String: String]

    /// A fetched property named `name` that fetches the objects of `entityName`: all of them, or
    /// those matching `predicateFormat`.
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
