import Foundation
import ObjectGraph
import ObjectModel
import Predicates

/// What a fetch can return: managed objects, their IDs, dictionaries, or a count.
public protocol NSFetchRequestResult: AnyObject {}

extension ManagedObject: NSFetchRequestResult {}
extension ManagedObjectID: NSFetchRequestResult {}
extension NSDictionary: NSFetchRequestResult {}
extension NSNumber: NSFetchRequestResult {}

/// What a fetch returns, with Core Data's names and numbers.
public struct NSFetchRequestResultType: OptionSet, Sendable {
    /// Core Data's number for the result type.
    public let rawValue: UInt
    /// The result type with Core Data's number.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Managed objects, made as the request's class (the default).
    public static let managedObjectResultType = NSFetchRequestResultType([])
    /// The matching objects' IDs, as `NSManagedObjectID`s.
    public static let managedObjectIDResultType = NSFetchRequestResultType(rawValue: 1)
    /// One `NSDictionary` for each result, of the `propertiesToFetch` (or of every attribute).
    public static let dictionaryResultType = NSFetchRequestResultType(rawValue: 2)
    /// One `NSNumber`: how many objects match.
    public static let countResultType = NSFetchRequestResultType(rawValue: 4)
}

/// A request a context hands to its stores: what fetch and batch requests share.
///
/// Mutable, as Core Data's requests are: build one on the queue that runs it (not
/// `Sendable`; what crosses queues is the engine's `FetchRequest`, a value).
open class NSPersistentStoreRequest: NSObject {
    /// The stores to search; nil for all.
    open var affectedStores: [NSPersistentStore]?
}

/// A fetch under Core Data's name: an entity, a predicate, an order, limits, and what to
/// return.
///
/// ```swift
/// let request = NSFetchRequest<Item>(entityName: "Item")
/// request.predicate = NSPredicate(format: "done == NO AND title CONTAINS[cd] %@", "milk")
/// request.sortDescriptors = [NSSortDescriptor(key: "created", ascending: false)]
/// request.fetchLimit = 20
/// let items = try context.fetch(request)          // [Item]
/// ```
///
/// `ResultType` is not constrained to `NSFetchRequestResult`, as Apple's is: Swift lets a
/// protocol stand for itself as a generic argument (`NSFetchRequest<NSFetchRequestResult>`)
/// only for Objective-C protocols.
open class NSFetchRequest<ResultType>: NSPersistentStoreRequest {
    /// The entity whose objects are fetched (with its sub-entities unless `includesSubentities` is off).
    open var entityName: String?
    /// Which of the entity's objects are fetched; `nil` for all. A block predicate
    /// (`NSPredicate(block:)`) makes the fetch throw.
    open var predicate: NSPredicate?
    /// The order of the results, the first descriptor deciding first.
    open var sortDescriptors: [NSSortDescriptor]?
    /// At most this many results; 0 for no limit.
    open var fetchLimit = 0
    /// How many matching objects to skip before the first result.
    open var fetchOffset = 0
    /// Objects load their values this many at a time as they are read; 0 loads them with the fetch.
    open var fetchBatchSize = 0
    /// What the fetch returns: managed objects (the default), object IDs, dictionaries or a count.
    open var resultType = NSFetchRequestResultType.managedObjectResultType
    /// Whether objects of the entity's sub-entities match too (the default).
    open var includesSubentities = true
    /// Whether unsaved changes in the context count (inserted objects that match, deleted ones left out).
    open var includesPendingChanges = true
    /// Whether objects come back as faults, their values loaded on first access (the default).
    open var returnsObjectsAsFaults = true
    /// Kept for code that sets it: values are read with the objects here.
    open var includesPropertyValues = true
    /// Kept for code that sets it.
    open var shouldRefreshRefetchedObjects = false
    /// For dictionary results: attribute names, key paths, `NSPropertyDescription`s or
    /// `NSExpressionDescription`s.
    open var propertiesToFetch: [Any]?
    /// For dictionary results: what to group by, as `propertiesToFetch`.
    open var propertiesToGroupBy: [Any]?
    /// For grouped dictionary results: which groups to keep.
    open var havingPredicate: NSPredicate?
    /// For dictionary results: whether duplicate dictionaries are dropped.
    open var returnsDistinctResults = false
    /// Relationship key paths whose destination objects load together with the results.
    open var relationshipKeyPathsForPrefetching: [String]?

    /// A request with no entity yet: set `entityName` or `entity` before it runs.
    public override init() { super.init() }

    /// A request for an entity's objects.
    public convenience init(entityName: String) {
        self.init()
        self.entityName = entityName
    }

    /// A request for what an engine request asks.
    convenience init(_ request: FetchRequest<ManagedObject>) {
        self.init(entityName: request.entityName)
        predicate = request.predicate.map { NSPredicate($0) }
        sortDescriptors = request.sortDescriptors.isEmpty ? nil : request.sortDescriptors.map { NSSortDescriptor($0) }
        fetchLimit = request.fetchLimit
        fetchOffset = request.fetchOffset
        fetchBatchSize = request.fetchBatchSize
        includesSubentities = request.includesSubentities
        includesPendingChanges = request.includesPendingChanges
        returnsObjectsAsFaults = request.returnsObjectsAsFaults
        returnsDistinctResults = request.returnsDistinctResults
        relationshipKeyPathsForPrefetching = request.relationshipKeyPathsForPrefetching.isEmpty ? nil : request.relationshipKeyPathsForPrefetching
    }

    /// The entity, as a description (setting it sets `entityName`).
    open var entity: NSEntityDescription? {
        get { entityDescription.flatMap { $0.engineEntity.name == entityName ? $0 : nil } }
        set { entityName = newValue?.engineEntity.name; entityDescription = newValue }
    }
    private var entityDescription: NSEntityDescription?

    /// The request in the engine's terms. A request without an entity, or with a property
    /// to fetch of a kind Core Data does not take, is a programming error, as in Core Data.
    public var fetchRequest: FetchRequest<ManagedObject> {
        guard let entityName else { preconditionFailure("an NSFetchRequest needs an entity (entityName) before it is run") }
        return FetchRequest(
            entityName: entityName,
            predicate: predicate?.objectPredicate,
            sortDescriptors: (sortDescriptors ?? []).map(\.objectSortDescriptor),
            fetchLimit: fetchLimit, fetchOffset: fetchOffset, fetchBatchSize: fetchBatchSize,
            resultType: engineResultType,
            includesSubentities: includesSubentities, includesPendingChanges: includesPendingChanges,
            returnsObjectsAsFaults: returnsObjectsAsFaults,
            propertiesToFetch: propertiesToFetch.map { $0.map(Self.fetchProperty) },
            propertiesToGroupBy: propertiesToGroupBy.map { $0.map(Self.fetchProperty) },
            havingPredicate: havingPredicate?.objectPredicate,
            returnsDistinctResults: returnsDistinctResults,
            relationshipKeyPathsForPrefetching: relationshipKeyPathsForPrefetching ?? [])
    }

    private var engineResultType: FetchResultType {
        switch resultType {
        case .managedObjectIDResultType: return .objectIDs
        case .dictionaryResultType: return .dictionaries
        case .countResultType: return .count
        default: return .managedObjects
        }
    }

    private static func fetchProperty(_ property: Any) -> FetchProperty {
        switch property {
        case let name as String: return .key(name)
        case let name as NSString: return .key(name as String)
        case let expression as NSExpressionDescription: return .expression(expression.engineDescription)
        case let description as NSPropertyDescription: return .key(description.name)
        default: preconditionFailure("a property to fetch is a name, an NSPropertyDescription or an NSExpressionDescription, not a \(type(of: property))")
        }
    }

    /// The request in one line: its entity, predicate, sort descriptors, limit and result type.
    open override var description: String {
        "<NSFetchRequest: entity: \(entityName ?? "(none)"); predicate: (\(predicate?.predicateFormat ?? "null")); "
            + "sortDescriptors: (\((sortDescriptors ?? []).map(\.description).joined(separator: ", "))); limit: \(fetchLimit); type: \(resultType.rawValue)>"
    }
}

/// A computed column of a dictionary fetch: a name, an expression (`sum:`, `max:`, …), and
/// the type of its result.
///
/// ```swift
/// let total = NSExpressionDescription()
/// total.name = "total"
/// total.expression = NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "amount")])
/// total.expressionResultType = .doubleAttributeType
/// ```
open class NSExpressionDescription: NSObject {
    /// The key the computed value has in each result dictionary.
    open var name = ""
    /// What computes the value, such as `sum:` of a key path; a fetch without one is a
    /// programming error.
    open var expression: NSExpression?
    /// The attribute type of the computed value; `.undefinedAttributeType` until it is set.
    open var expressionResultType = NSAttributeType.undefinedAttributeType

    /// A description with no name or expression yet; set both before a fetch uses it.
    public override init() { super.init() }

    /// The column in the engine's terms; one without an expression is a programming error.
    var engineDescription: ExpressionDescription {
        guard let expression else { preconditionFailure("NSExpressionDescription \(name) has no expression") }
        return ExpressionDescription(name: name, expression: expression.objectExpression, resultType: expressionResultType.attributeType)
    }
}
