import Foundation
import Predicates

/// What `ManagedObjectContext.execute(_:)` returns, by the request's result type.
public enum FetchResult {
    /// The matching objects, for a `.managedObjects` request.
    case objects(FetchedObjects)
    /// The IDs of the matching objects, for an `.objectIDs` request.
    case objectIDs([ManagedObjectID])
    /// A dictionary per row (or group), keyed by property name, for a `.dictionaries` request.
    case dictionaries([[String: ObjectValue]])
    /// The number of matching objects, for a `.count` request.
    case count(Int)
}
