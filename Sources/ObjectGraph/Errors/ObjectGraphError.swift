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
    /// A store written with another model altogether: no entity in common.
    case otherModel(file: String, storeEntities: [String], modelEntities: [String])
    /// A store that is read-only was asked to save.
    case readOnlyStore(String)
    /// A store whose model version hashes do not match the model's.
    case incompatibleStore(file: String, differingEntities: [String])
    /// A typed fetch or insert whose entity's objects are made as another class.
    case classNotRegistered(entity: String, requested: String, made: String)
    /// A store of an earlier model version that automatic migration was asked for and cannot reach.
    case cannotMigrate(file: String, reason: String)
    /// The model has no fetch request template of that name.
    case noFetchRequestTemplate(String)
    /// The model has no configuration of that name.
    case noConfiguration(String)
    /// A store of this type keeps its objects in a file and was given no URL.
    case storeNeedsFile(StoreType)
    /// No factory for this store type is registered with the coordinator.
    case storeTypeNotRegistered(StoreType)
    /// No way to read this store type's metadata without opening it is registered.
    case noMetadataReader(StoreType)
    /// The coordinator already has a store with this identifier.
    case storeAlreadyAdded(String)
    /// A value of this kind (a dictionary, say) is no attribute value a store can hold.
    case notStorable(typeName: String)
    /// This store type keeps nothing in a file, so it has no file format.
    case noFileFormat(StoreType)
    /// A store file whose bytes are damaged: what the engine said, and how to check it.
    case storeDamaged(file: String, detail: String)
    /// The store's path names no file any more: removed or moved since the store was opened.
    case storeFileMissing(file: String)
    /// The store's path names another file than the one opened: a restore, a sync or a
    /// checkout put one there.
    case storeFileReplaced(file: String)
    /// Work was stopped before it finished (Esc, Ctrl-C, `interruptWork`); nothing changed.
    case stopped
    /// The file at a store's path is another store (another UUID), not a copy of the one opened.
    case otherStoreAtPath(file: String)
    /// A store whose primary keys for an entity (or its inheritance tree) reached the
    /// largest 64-bit number: no object of it can be added.
    case primaryKeysExhausted(file: String, entity: String)
    /// The store runs fetches in memory: it has no statement or plan to show.
    case noQueryPlan(StoreType)
    /// A transformable attribute's value could not be turned into the value it holds (or a
    /// value into bytes to store) by its transformer, for the reason given; the stored bytes
    /// are left as they are.
    case transformFailed(entity: String, key: String, transformer: String, reason: String)

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
        case .otherModel(let f, let stored, let model):
            return "\(f) was written with another model: it holds \(stored.joined(separator: ", ")), and the model given has "
                + "\(model.joined(separator: ", ")) (give the store's own model with --model)"
        case .incompatibleStore(let f, let entities):
            return "\(f): the store was written with another version of the model (entities differing: \(entities.joined(separator: ", ")))"
        case .classNotRegistered(let entity, let requested, let made):
            return "\(entity) objects are made as \(made), not \(requested): register the class before the first fetch or insert "
                + "(coordinator.register(\(requested).self), or the generated classes' register(in:))"
        case .cannotMigrate(let f, let reason): return "\(f) cannot be migrated: \(reason)"
        case .noFetchRequestTemplate(let name): return "the model has no fetch request template '\(name)'"
        case .noConfiguration(let name): return "the model has no configuration '\(name)'"
        case .storeNeedsFile(let type): return "\(type == .xml ? "an" : "a") \(type == .xml ? "XML" : type.rawValue.lowercased()) store needs a file URL"
        case .storeTypeNotRegistered(let type): return "no store type '\(type)' is registered"
        case .noMetadataReader(let type): return "no metadata reader for store type '\(type)'"
        case .storeAlreadyAdded(let identifier): return "a store with UUID \(identifier) is already added"
        case .notStorable(let typeName): return "a \(typeName) cannot be stored as an attribute value"
        case .noFileFormat(let type): return "\(type) stores have no file format"
        case .storeDamaged(let f, let detail):
            return "\(f) is damaged (\(detail)); check it with: sqlite3 '\(f)' 'PRAGMA integrity_check', and restore a backup if it lists problems"
        case .storeFileMissing(let f):
            return "\(f) is no longer there (removed or moved since it was opened): nothing was saved, and the changes are still here"
        case .storeFileReplaced(let f):
            return "\(f) is another file than the one opened (replaced by a restore, a sync or a checkout): "
                + "nothing was saved, and the changes are still here"
        case .stopped:
            return "stopped before it finished"
        case .otherStoreAtPath(let f):
            return "\(f) is now another store, not a copy of the one opened: save the changes as a new store instead"
        case .primaryKeysExhausted(let f, let e):
            return "\(f): every primary key for \(e) has been used (up to \(Int64.max)); no \(e) can be added to this store"
        case .transformFailed(let e, let k, let transformer, let reason):
            return "\(e).\(k) (transformer \(transformer)): \(reason)"
        case .noQueryPlan(let type):
            return "the \(type.rawValue) store reads its objects in memory: it has no statement or plan to show (SQLite and PostgreSQL stores do)"
        }
    }
}

extension ObjectGraphError: MissingObjectError {
    public var isMissingObject: Bool {
        if case .objectNotFound = self { return true }
        return false
    }
}

extension ObjectGraphError {
    /// The error for a store whose version hashes do not fit the model: another version of
    /// it, or, with no entity name in common, another model altogether.
    public static func mismatch(file: String, storeHashes: [String: Data], model: ManagedObjectModel) -> ObjectGraphError {
        let stored = Set(storeHashes.keys), names = Set(model.entityNames)
        if !stored.isEmpty, stored.isDisjoint(with: names) {
            return .otherModel(file: file, storeEntities: stored.sorted(), modelEntities: names.sorted())
        }
        return .incompatibleStore(file: file, differingEntities: model.entitiesDiffering(fromVersionHashes: storeHashes))
    }
}
