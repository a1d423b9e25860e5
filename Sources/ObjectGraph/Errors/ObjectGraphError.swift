import Foundation
import ObjectModel
import Predicates

/// A failure in the object graph that is not a validation failure.
public enum ObjectGraphError: Error, Equatable, CustomStringConvertible {
    /// The model has no entity of that name.
    case unknownEntity(String)
    /// Abstract entities have no instances of their own.
    case abstractEntity(String)
    /// A value does not fit the attribute or relationship it was given to.
    case typeMismatch(entity: String, key: String, expected: String, value: ObjectValue)
    /// Objects of two contexts cannot be related.
    case crossContextRelationship(entity: String, key: String)
    /// The object was deleted and saved, or its context reset.
    case objectNotInContext(entity: String, objectID: String)
    /// The object's row is not in its store (deleted elsewhere).
    case objectNotFound(entity: String, objectID: String)
    /// No store holds the entity, or the coordinator has no stores.
    case noStoreForEntity(String)
    /// The object ID names a store the coordinator does not have.
    case unknownStore(String)
    /// A store file that cannot be read.
    case storeFormat(file: String, reason: String)
    /// A store that is read-only was asked to save.
    case readOnlyStore(String)
    /// A store whose model version hashes do not match the model's.
    case incompatibleStore(file: String, differingEntities: [String])
    /// The operation is not supported by the store.
    case unsupported(String)
    /// A store whose primary keys for an entity (or its inheritance tree) reached the
    /// largest 64-bit number: no object of it can be added.
    case primaryKeysExhausted(file: String, entity: String)

    public var description: String {
        switch self {
        case .unknownEntity(let e): return "the model has no entity '\(e)'"
        case .abstractEntity(let e): return "entity '\(e)' is abstract and cannot be instantiated"
        case .typeMismatch(let e, let k, let expected, let value):
            if let problem = AttributeType(xcodeName: expected)?.rangeProblem(value) { return "\(e).\(k): \(problem)" }
            return "\(e).\(k) expects \(expected), not \(value.typeName) \(ValidationFailure.render(value))"
        case .crossContextRelationship(let e, let k):
            return "\(e).\(k): objects of different contexts cannot be related"
        case .objectNotInContext(let e, let id): return "\(e) \(id) no longer belongs to a context"
        case .objectNotFound(let e, let id): return "\(e) \(id) is not in its store (deleted elsewhere?)"
        case .noStoreForEntity(let e): return "no store holds entity '\(e)'"
        case .unknownStore(let s): return "the coordinator has no store '\(s)'"
        case .storeFormat(let f, let r): return "\(f): \(r)"
        case .readOnlyStore(let s): return "store \(s) is read-only"
        case .incompatibleStore(let f, let entities):
            return "\(f): the store was written with another version of the model (entities differing: \(entities.joined(separator: ", ")))"
        case .unsupported(let what): return what
        case .primaryKeysExhausted(let f, let e):
            return "\(f): every primary key for \(e) has been used (up to \(Int64.max)); no \(e) can be added to this store"
        }
    }
}

extension ObjectGraphError: MissingObjectError {
    public var isMissingObject: Bool {
        if case .objectNotFound = self { return true }
        return false
    }
}
