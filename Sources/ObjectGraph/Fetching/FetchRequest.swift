import Foundation
import ObjectModel
import Predicates

/// What to fetch: an entity (with its sub-entities by default), which of its objects,
/// in what order, how many, and in what form.
///
/// ```swift
/// var request = FetchRequest(entityName: "ToDo")
/// request.predicate = try ObjectPredicate(format: "completed == NO AND dueDate < %@", Date())
/// request.sortDescriptors = [ObjectSortDescriptor(key: "dueDate")]
/// request.fetchLimit = 50
/// let items = try context.fetch(request)
/// ```
///
/// A request is `Sendable`: it can be built on one queue and run by a context on another.
/// A predicate holding an object (rather than its ID) must be run by that object's context.
///
/// `Result` is the class of the objects it returns, as in Core Data's
/// `NSFetchRequest<ResultType>`: `ManagedObject` for a request by entity name, a generated
/// class for a typed one (`Item.fetchRequest()`, `FetchRequest<Item>()`), whose fetch
/// returns `Item`s. Stores and controllers see every request as `FetchRequest<ManagedObject>`
/// (`untyped`).
public struct FetchRequest<Result: ManagedObject>: Sendable {
    /// What a fetch returns.
    public typealias ResultType = FetchResultType

    /// The name of the entity whose objects are fetched.
    public var entityName: String
    /// Which objects match; `nil` for every object of the entity.
    public var predicate: ObjectPredicate?
    /// The order of the results, first descriptor first; empty for no particular order.
    public var sortDescriptors: [ObjectSortDescriptor]
    /// The most objects to return; 0 for no limit.
    public var fetchLimit: Int
    /// How many matching objects to skip first.
    public var fetchOffset: Int
    /// How many objects to load at a time; 0 loads all at once.
    public var fetchBatchSize: Int
    /// What the fetch returns: objects (the default), object IDs, dictionaries or a count.
    public var resultType: ResultType
    /// Whether instances of sub-entities match too (the default).
    public var includesSubentities: Bool
    /// Whether the context's unsaved inserts, changes and deletes show in the results.
    public var includesPendingChanges: Bool
    /// Whether objects come back as faults (values loaded on first access).
    public var returnsObjectsAsFaults: Bool
    /// For dictionary results: attribute names, key paths and expression descriptions.
    public var propertiesToFetch: [FetchProperty]?
    /// For dictionary results: the properties whose values group the rows.
    public var propertiesToGroupBy: [FetchProperty]?
    /// For grouped dictionary results: which groups to keep.
    public var havingPredicate: ObjectPredicate?
    /// For dictionary results: drop duplicate dictionaries.
    public var returnsDistinctResults: Bool
    /// Relationship key paths whose destinations load together with the results.
    public var relationshipKeyPathsForPrefetching: [String]

    /// A copy of another request, for another result class.
    init<Other>(copying other: FetchRequest<Other>) {
        entityName = other.entityName
        predicate = other.predicate
        sortDescriptors = other.sortDescriptors
        fetchLimit = other.fetchLimit
        fetchOffset = other.fetchOffset
        fetchBatchSize = other.fetchBatchSize
        resultType = other.resultType
        includesSubentities = other.includesSubentities
        includesPendingChanges = other.includesPendingChanges
        returnsObjectsAsFaults = other.returnsObjectsAsFaults
        propertiesToFetch = other.propertiesToFetch
        propertiesToGroupBy = other.propertiesToGroupBy
        havingPredicate = other.havingPredicate
        returnsDistinctResults = other.returnsDistinctResults
        relationshipKeyPathsForPrefetching = other.relationshipKeyPathsForPrefetching
    }

    /// The same request for plain managed objects: what stores and controllers run.
    public var untyped: FetchRequest<ManagedObject> { FetchRequest<ManagedObject>(copying: self) }
}

extension FetchRequest where Result == ManagedObject {
    /// A request for an entity's objects by name; by default every object, unsorted, as faults,
    /// with sub-entities and unsaved changes.
    public init(
        entityName: String,
        predicate: ObjectPredicate? = nil,
        sortDescriptors: [ObjectSortDescriptor] = [],
        fetchLimit: Int = 0,
        fetchOffset: Int = 0,
        fetchBatchSize: Int = 0,
        resultType: ResultType = .managedObjects,
        includesSubentities: Bool = true,
        includesPendingChanges: Bool = true,
        returnsObjectsAsFaults: Bool = true,
        propertiesToFetch: [FetchProperty]? = nil,
        propertiesToGroupBy: [FetchProperty]? = nil,
        havingPredicate: ObjectPredicate? = nil,
        returnsDistinctResults: Bool = false,
        relationshipKeyPathsForPrefetching: [String] = []
    ) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
        self.fetchBatchSize = fetchBatchSize
        self.resultType = resultType
        self.includesSubentities = includesSubentities
        self.includesPendingChanges = includesPendingChanges
        self.returnsObjectsAsFaults = returnsObjectsAsFaults
        self.propertiesToFetch = propertiesToFetch
        self.propertiesToGroupBy = propertiesToGroupBy
        self.havingPredicate = havingPredicate
        self.returnsDistinctResults = returnsDistinctResults
        self.relationshipKeyPathsForPrefetching = relationshipKeyPathsForPrefetching
    }

    /// A request from one of the model's templates, with its `$VARIABLES` filled in.
    ///
    /// - Throws: a predicate error when the template's predicate does not parse or a
    ///   variable is missing; `ObjectGraphError.noFetchRequestTemplate` for an unknown template.
    public static func fromTemplate(named name: String, in model: ManagedObjectModel,
                                    variables: [String: ObjectValue] = [:]) throws -> FetchRequest<ManagedObject> {
        guard let template = model.fetchRequestTemplate(named: name) else {
            throw ObjectGraphError.noFetchRequestTemplate(name)
        }
        var request = FetchRequest(entityName: template.entityName,
                                   fetchLimit: template.fetchLimit,
                                   fetchBatchSize: template.fetchBatchSize,
                                   includesSubentities: template.includesSubentities,
                                   includesPendingChanges: template.includesPendingChanges,
                                   returnsObjectsAsFaults: template.returnsObjectsAsFaults,
                                   returnsDistinctResults: template.returnsDistinctResults)
        if let format = template.predicateFormat, !format.isEmpty {
            request.predicate = try ObjectPredicate(format: format).substitutingVariables(variables)
        }
        return request
    }
}

extension FetchRequest where Result: TypedObject {
    /// A request for the class's entity: `FetchRequest<Item>(predicate: ...)`.
    public init(predicate: ObjectPredicate? = nil, sortDescriptors: [ObjectSortDescriptor] = [],
                fetchLimit: Int = 0, fetchBatchSize: Int = 0) {
        var request = FetchRequest<ManagedObject>(entityName: Result.entityName, predicate: predicate, sortDescriptors: sortDescriptors,
                                                  fetchLimit: fetchLimit, fetchBatchSize: fetchBatchSize)
        request.resultType = .managedObjects
        self.init(copying: request)
    }
}

/// What a fetch returns.
public enum FetchResultType: Sendable, Hashable {
    /// Managed objects (faults unless `returnsObjectsAsFaults` is false).
    case managedObjects
    /// Object IDs only.
    case objectIDs
    /// Dictionaries of `propertiesToFetch`, or of every attribute.
    case dictionaries
    /// The number of matching objects, as one `.int`.
    case count
}

/// A column of a dictionary fetch: an attribute or key path, or a computed expression.
public enum FetchProperty: Sendable, Hashable {
    /// An attribute name or key path (`category.name`); the dictionary key is the path.
    case key(String)
    /// A named expression such as `min:(dueDate)`.
    case expression(ExpressionDescription)

    /// The key the value has in result dictionaries.
    public var name: String {
        switch self {
        case .key(let k): return k
        case .expression(let e): return e.name
        }
    }
}

/// A computed column: a name, an expression, and the type of its result.
///
/// ```swift
/// let earliest = ExpressionDescription(name: "earliest",
///     expression: try ObjectExpression(format: "min:(dueDate)"), resultType: .date)
/// ```
public struct ExpressionDescription: Sendable, Hashable {
    /// The key the computed value has in result dictionaries.
    public var name: String
    /// The expression that computes the value, such as `min:(dueDate)`.
    public var expression: ObjectExpression
    /// The attribute type the computed value is given.
    public var resultType: AttributeType

    /// A computed column from its name, its expression and the type of its result.
    public init(name: String, expression: ObjectExpression, resultType: AttributeType) {
        self.name = name
        self.expression = expression
        self.resultType = resultType
    }
}
