import Foundation
import OrderedCollections
import ObjectModel
import Predicates
import Synchronization

extension ManagedObjectContext {
    // MARK: Inserting

    /// Inserts a new object of an entity, with the model's default values.
    ///
    /// - Throws: `ObjectGraphError.unknownEntity` or `.abstractEntity`.
    @discardableResult
    public func insertObject(forEntityName name: String) throws -> ManagedObject {
        checkQueue()
        guard let (entity, type) = kind(named: name) else { throw ObjectGraphError.unknownEntity(name) }
        guard !entity.isAbstract else { throw ObjectGraphError.abstractEntity(name) }
        let object = insertNew(entity, type, id: .temporary(entityName: entity.name), values: entity.defaultAttributeValues)
        object.awakeFromInsert()
        return object
    }

    /// A new object in the inserted state, with empty relationships: registered, in the change
    /// sets, and recorded for undo and the observers.
    func insertNew(_ entity: Entity, _ type: ManagedObject.Type, id: ManagedObjectID, values: [ObjectValue]) -> ManagedObject {
        let object = type.init(entity: entity, objectID: id, context: self)
        enterInserted(object, values: values)
        return object
    }

    /// Inserts an object made by its class's initializer rather than by the context (Core
    /// Data's `Item(context:)` and `insert(_:)`): a new object with a temporary ID, of an
    /// entity of this context's model, in no other context. Gives it the entity's default
    /// values and calls `awakeFromInsert()`.
    package func insertMadeObject(_ object: ManagedObject) {
        checkQueue()
        precondition(object.objectID.isTemporaryID && object.status == .clean && object.attributeValues == nil,
                     "only a new object can be inserted, once")
        precondition(object.managedObjectContext.map { $0 === self } ?? true,
                     "\(object.entity.name) object belongs to another context")
        precondition(model.entity(named: object.entity.name) == object.entity,
                     "entity \(object.entity.name) is not of this context's model")
        object.managedObjectContext = self
        enterInserted(object, values: object.entity.defaultAttributeValues)
        object.awakeFromInsert()
    }

    /// Puts a new object into the inserted state with `values`, its relationships empty.
    private func enterInserted(_ object: ManagedObject, values: [ObjectValue]) {
        let entity = object.entity
        object.attributeValues = values
        if !entity.relationships.isEmpty {
            object.relationshipValues = entity.relationships.map { $0.isToMany ? .toMany([]) : .toOne(nil) }
        }
        object.status = .inserted
        register(object)
        inserted.append(object)
        noteInsertedInEvent(object)
        record(.status(object, from: .invalid, to: .inserted))
    }

    /// Inserts a new object of a registered subclass.
    ///
    /// ```swift
    /// let item = try context.insert(ToDoItem.self, entityName: "ToDo")
    /// ```
    public func insert<T: ManagedObject>(_ type: T.Type, entityName: String) throws -> T {
        let object = try insertObject(forEntityName: entityName)
        guard let typed = object as? T else {
            preconditionFailure("entity \(entityName) is registered with \(Swift.type(of: object)), not \(T.self)")
        }
        return typed
    }

    /// Chooses the store an inserted object will be saved to.
    public func assign(_ object: ManagedObject, to store: any PersistentStore) {
        precondition(object.isInserted, "only inserted objects can be assigned to a store")
        object.assignedStoreIdentifier = store.identifier
    }
}
