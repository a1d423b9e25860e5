import Foundation
import ObjectModel
import Predicates

/// A class for one entity, with a typed property for each of the entity's properties: what
/// `termdata model M.xcdatamodeld --swift DIR` generates. Register it, and fetches, inserts
/// and relationships give its instances.
///
/// ```swift
/// coordinator.register(Item.self)
/// let item = try context.insert(Item.self)
/// item.name = "Water the plants"
/// let open = try context.fetch(Item.fetchRequest())      // Items
/// ```
public protocol TypedObject: ManagedObject {
    /// The entity the class is for.
    static var entityName: String { get }
    /// The model key each property's key path stands for (`\Item.name` → "name"), inherited
    /// properties included, so that Swift's `#Predicate` and `SortDescriptor` can be turned
    /// into the model's terms. Generated classes list every property; a class written by hand
    /// may leave it empty, and then its key paths are refused by name.
    static var modelKeyPaths: [AnyKeyPath: String] { get }
}

extension TypedObject {
    /// None by default: a class that maps no key path has its key paths refused.
    public static var modelKeyPaths: [AnyKeyPath: String] { [:] }

    /// The model key a property stands for, or an error naming the key path (a computed
    /// property, an optional chain, a class that maps none).
    static func mappedKey<Value>(_ keyPath: KeyPath<Self, Value>) throws -> String {
        guard let key = modelKeyPaths[keyPath] else {
            throw FetchUtilityError.unknownKey(entity: entityName, key: "\(keyPath) (not a property \(Self.self) maps to the model)")
        }
        return key
    }

    /// The model key a property's key path stands for: `ToDoItem.modelKey(\.dueDate)` is "dueDate".
    ///
    /// Traps when the class does not map the property to the model (a computed property, or a
    /// class whose `modelKeyPaths` is empty).
    public static func modelKey<Value>(_ keyPath: KeyPath<Self, Value>) -> String {
        guard let key = modelKeyPaths[keyPath] else {
            preconditionFailure("\(keyPath) is not a property of entity \(entityName) that \(Self.self) maps to the model")
        }
        return key
    }
}

extension TypedObject {
    /// A request for the class's entity, returning instances of the class (as Core Data's
    /// generated `fetchRequest()` does): `try context.fetch(Item.fetchRequest())`.
    public static func fetchRequest() -> FetchRequest<Self> { FetchRequest<Self>() }
}

extension PersistentStoreCoordinator {
    /// Makes the objects of the class's entity (and of its sub-entities without a class of
    /// their own) instances of the class.
    public func register<T: TypedObject>(_ type: T.Type) {
        register(type, forEntityName: type.entityName)
    }

    /// Registers each class for its entity.
    public func register(_ types: [any TypedObject.Type]) {
        for type in types { register(type, forEntityName: type.entityName) }
    }

    /// Throws unless every object a request for `entityName` can return (sub-entities too,
    /// when asked) is made as `T` or a subclass of it.
    func checkClass<T: ManagedObject>(_ type: T.Type, forEntityName entityName: String, includesSubentities: Bool = true) throws {
        guard type != ManagedObject.self else { return }
        guard let entity = model.entity(named: entityName) else { throw ObjectGraphError.unknownEntity(entityName) }
        for kind in includesSubentities ? entity.kindNames : [entity.name] {
            let made = objectClass(forEntityName: kind)
            guard made is T.Type else {
                throw ObjectGraphError.classNotRegistered(entity: kind, requested: "\(T.self)", made: "\(made)")
            }
        }
    }
}

extension ManagedObjectContext {
    /// A new object of a registered class, inserted: `try context.insert(Item.self)`.
    ///
    /// - Throws: `ObjectGraphError.classNotRegistered` when the entity's objects are not
    ///   made as that class; the errors of `insertObject(forEntityName:)`.
    public func insert<T: TypedObject>(_ type: T.Type) throws -> T {
        try coordinator.checkClass(type, forEntityName: type.entityName, includesSubentities: false)
        return try insertObject(forEntityName: type.entityName) as! T
    }

    /// The objects a typed request matches, as its class, made when read as `fetch` makes them.
    ///
    /// - Throws: `ObjectGraphError.classNotRegistered` when an object the request can return
    ///   is not made as that class; the errors of `fetch`.
    public func fetch<T: ManagedObject>(_ request: FetchRequest<T>) throws -> TypedFetchedObjects<T> {
        try checkResultClass(of: request)
        return TypedFetchedObjects(try fetch(request.untyped))
    }

    /// Throws unless every object a typed request can return is made as its class (for
    /// controllers that take typed requests and run them later).
    public func checkResultClass<T: ManagedObject>(of request: FetchRequest<T>) throws {
        try coordinator.checkClass(T.self, forEntityName: request.entityName, includesSubentities: request.includesSubentities)
    }

    /// How many objects a typed request matches.
    public func count<T: ManagedObject>(for request: FetchRequest<T>) throws -> Int {
        try count(for: request.untyped)
    }

    /// The IDs of the objects a typed request matches.
    public func fetchObjectIDs<T: ManagedObject>(_ request: FetchRequest<T>) throws -> [ManagedObjectID] {
        try fetchObjectIDs(request.untyped)
    }
}

/// The results of a typed fetch: `FetchedObjects` seen as the request's class. Objects are
/// made as they are read, as there.
public struct TypedFetchedObjects<Element: ManagedObject>: RandomAccessCollection, CustomStringConvertible {
    /// The results as plain managed objects.
    public let objects: FetchedObjects

    /// Results the fetch checked to be instances of `Element`.
    init(_ objects: FetchedObjects) { self.objects = objects }

    /// The position of the first result.
    public var startIndex: Int { objects.startIndex }
    /// The position after the last result.
    public var endIndex: Int { objects.endIndex }
    /// The result at a position, as the request's class; made as it is read.
    public subscript(position: Int) -> Element {
        let object = objects[position]
        // The fetch checked the classes; one registered since (for a sub-entity) is checked here.
        if type(of: object) == Element.self { return unsafeDowncast(object, to: Element.self) }
        guard let typed = object as? Element else {
            preconditionFailure("\(object.objectID) was made as \(type(of: object)) before \(Element.self) was registered for its entity; register the classes before the first fetch")
        }
        return typed
    }
    /// The IDs of the results, in order; reading them makes no object.
    public var objectIDs: [ManagedObjectID] { objects.objectIDs }
    /// The results as the plain managed objects' results describe them.
    public var description: String { objects.description }
}

extension ManagedObjectContext {
    // The fetch utilities of the "Fetch, Clarus, Fetch" article, typed: a class and key paths
    // in place of an entity name and keys.

    /// Every object of a class's entity (and its sub-entities): `try context.objects(ToDoItem.self)`.
    public func objects<T: TypedObject>(_ type: T.Type) throws -> TypedFetchedObjects<T> {
        try fetch(T.fetchRequest())
    }

    /// The objects whose property equals a value: `try context.objects(Book.self, matching: \.publisher, "BookCo")`.
    public func objects<T: TypedObject, Value: ObjectValueConvertible>(_ type: T.Type, matching keyPath: KeyPath<T, Value>,
                                                                      _ value: Value) throws -> TypedFetchedObjects<T> {
        try checkResultClass(of: T.fetchRequest())
        return TypedFetchedObjects(try objects(forEntityName: T.entityName, matchingKey: try T.mappedKey(keyPath), value: value))
    }

    /// The one object whose property equals a value, or nil when there is none.
    ///
    /// - Throws: `FetchUtilityError.moreThanOneObject` when several match.
    public func object<T: TypedObject, Value: ObjectValueConvertible>(_ type: T.Type, matching keyPath: KeyPath<T, Value>,
                                                                     _ value: Value) throws -> T? {
        try checkResultClass(of: T.fetchRequest())
        return try object(forEntityName: T.entityName, matchingKey: try T.mappedKey(keyPath), value: value).map { $0 as! T }
    }
}
