import Foundation
import Predicates

/// What `ManagedObjectContext.execute(_:)` returns, by the request's result type.
public enum FetchResult {
    case objects(FetchedObjects)
    case objectIDs([ManagedObjectID])
    case dictionaries([[String: ObjectValue]])
    case count(Int)
}
