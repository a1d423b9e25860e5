import Foundation
import ObjectModel
import Predicates

/// A fetch utility's failure: the request was not what the caller meant.
public enum FetchUtilityError: Error, Equatable, CustomStringConvertible {
    /// `object(forEntityName:matchingKey:value:)` found more than one object.
    case moreThanOneObject(entity: String, key: String, count: Int)
    /// A key the entity does not have.
    case unknownKey(entity: String, key: String)

    public var description: String {
        switch self {
        case .moreThanOneObject(let entity, let key, let count):
            return "expected at most one \(entity) for \(key), found \(count)"
        case .unknownKey(let entity, let key):
            return "entity \(entity) has no key '\(key)'"
        }
    }
}

/// The fetch utilities of the "Fetch, Clarus, Fetch" article: every object of an entity,
/// the objects with a key's value, the one object with a key's value, and the objects
/// matching several keys' values joined by AND or OR. They work with any store.
///
/// ```swift
/// let books = try context.objects(forEntityName: "Book", matchingKey: "publisher", value: "BookCo")
/// let one = try context.object(forEntityName: "Book", matchingKey: "isbn", value: "0-13-110362-8")
/// ```
extension ManagedObjectContext {
    /// Every object of an entity (and its sub-entities).
    ///
    /// - Throws: `ObjectGraphError.unknownEntity`, or the store's error.
    public func objects(forEntityName name: String) throws -> FetchedObjects {
        try fetch(FetchRequest(entityName: name))
    }

    /// The objects whose `key` equals `value`.
    ///
    /// - Throws: `ObjectGraphError.unknownEntity`, `FetchUtilityError.unknownKey`, or the store's error.
    public func objects(forEntityName name: String, matchingKey key: String,
                        value: any ObjectValueConvertible) throws -> FetchedObjects {
        try checkKeys([key], of: name)
        return try fetch(FetchRequest(entityName: name, predicate: .comparison(key, .equalTo, value)))
    }

    /// The one object whose `key` equals `value`, or `nil` when there is none.
    ///
    /// - Throws: `FetchUtilityError.moreThanOneObject` when several match.
    public func object(forEntityName name: String, matchingKey key: String,
                       value: any ObjectValueConvertible) throws -> ManagedObject? {
        let found = try objects(forEntityName: name, matchingKey: key, value: value)
        if found.count > 1 { throw FetchUtilityError.moreThanOneObject(entity: name, key: key, count: found.count) }
        return found.first
    }

    /// The objects whose keys equal the given values, all of them (AND) or any (OR).
    ///
    /// An empty dictionary matches every object.
    public func objects(forEntityName name: String, matchingKeysAndValues keysAndValues: [String: any ObjectValueConvertible],
                        usingOR: Bool = false) throws -> FetchedObjects {
        try checkKeys(Array(keysAndValues.keys), of: name)
        var request = FetchRequest(entityName: name)
        if !keysAndValues.isEmpty { request.predicate = .matching(keysAndValues, usingOR: usingOR) }
        return try fetch(request)
    }

    private func checkKeys(_ keys: [String], of name: String) throws {
        guard let entity = model.entity(named: name) else { throw ObjectGraphError.unknownEntity(name) }
        for key in keys.sorted() {
            let first = String(key.split(separator: ".").first ?? "")
            if !entity.hasProperty(first) { throw FetchUtilityError.unknownKey(entity: name, key: key) }
        }
    }
}
