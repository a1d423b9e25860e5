import Foundation

/// A failure particular to the PostgreSQL store.
public enum PostgresStoreError: Error, Equatable, CustomStringConvertible {
    /// The store's URL or the environment cannot name a server.
    case badLocation(String)
    /// The server cannot be reached, or went away: the message says which and what to check.
    case unreachable(location: String, reason: String)
    /// The server refused a statement; `detail` is its message.
    case server(String)
    /// A predicate, sort or fetch that has no SQL form (the message names the construct).
    case unsupportedInSQL(String)
    /// A key in a predicate, sort or property list that the entity does not have.
    case unknownKey(entity: String, key: String)
    /// A value PostgreSQL cannot hold.
    case unstorableValue(String)
    /// The store's rows do not fit the model (a row whose `Z_ENT` names no concrete entity).
    case schemaMismatch(String)
    /// Another client migrated the store after this one opened it: a save is not written, a
    /// read that no longer fits the tables is refused.
    case migratedMeanwhile(location: String, differingEntities: [String])

    public var description: String {
        switch self {
        case .badLocation(let why): return "not a PostgreSQL store location: \(why)"
        case .unreachable(let location, let reason): return "cannot reach the PostgreSQL server of \(location): \(reason)"
        case .server(let detail): return detail
        case .unsupportedInSQL(let what): return "cannot fetch from a PostgreSQL store: \(what)"
        case .unknownKey(let entity, let key): return "entity \(entity) has no key '\(key)'"
        case .unstorableValue(let why): return why
        case .schemaMismatch(let what): return "the store does not fit the model: \(what)"
        case .migratedMeanwhile(let location, let entities):
            return "\(location): another client migrated the store to another version of the model after it was opened here "
                + "(entities differing: \(entities.joined(separator: ", "))); nothing was saved or read: open the store again with that version"
        }
    }
}
