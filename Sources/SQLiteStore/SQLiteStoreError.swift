import Foundation

/// A failure particular to the SQLite store.
public enum SQLiteStoreError: Error, Equatable, CustomStringConvertible {
    /// The file's tables do not fit the model.
    case schemaMismatch(String)
    /// A predicate, sort or fetch that has no SQL form (the message names the construct).
    case unsupportedInSQL(String)
    /// A key in a predicate, sort or property list that the entity does not have.
    case unknownKey(entity: String, key: String)
    /// SQLite stopped a fetch: a predicate's function refused a value (a `MATCHES` pattern
    /// that is not a regular expression), or the file could not be read.
    case fetchFailed(String)
    /// The metadata property list in `Z_METADATA` cannot be read: the file is damaged.
    case unreadableMetadata(String)

    public var description: String {
        switch self {
        case .schemaMismatch(let what): return "the store does not fit the model: \(what)"
        case .unsupportedInSQL(let what): return "cannot fetch from a SQLite store: \(what)"
        case .unknownKey(let entity, let key): return "entity \(entity) has no key '\(key)'"
        case .fetchFailed(let why): return why
        case .unreadableMetadata(let why): return why
        }
    }
}
