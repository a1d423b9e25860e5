import Foundation
import OrderedCollections
import ObjectModel
import Predicates
import Synchronization

extension ManagedObjectContext {
    // MARK: Looking up objects

    /// The object for an ID: the registered one, or a fault that loads on first access.
    public func object(with id: ManagedObjectID) -> ManagedObject {
        checkQueue()
        guard let key = id.primaryKey else {
            if let object = registeredObject(for: id) { return object }
            let object = makeObject(with: id)
            register(object)
            return object
        }
        let (found, table) = registry.object(forKey: key, entityName: id.entityName, storeIdentifier: id.storeIdentifier)
        if let found { return found }
        let object = makeObject(with: id)
        registry.enter(object, key: key, table: table)
        return object
    }

    /// The object for an ID a fetch found when the context had been reset `resets` times:
    /// the registered one or a new fault, or an invalid object once the context was reset
    /// or the object's deletion saved or merged since.
    func fetchedObject(with id: ManagedObjectID, madeAt resets: Int) -> ManagedObject {
        guard pendingResults.allowsObject(for: id, madeAt: resets) else { return invalidObject(with: id) }
        return object(with: id)
    }

    /// The object for a key a fetch found when the context had been reset `resets` times,
    /// as `fetchedObject(with:madeAt:)`; a new fault makes its ID only when asked for.
    func fetchedObject(key: Int64, of family: KeyFamily, madeAt resets: Int) -> ManagedObject {
        guard resets == pendingResults.resets, pendingResults.forgotten.isEmpty else {
            return fetchedObject(with: family.objectID(key: key), madeAt: resets)
        }
        checkQueue()
        let (found, table) = registry.object(forKey: key, of: family)
        if let found { return found }
        guard let (entity, type) = kind(named: family.entityName) else {
            preconditionFailure("a fetched key names entity '\(family.entityName)', which the model lacks")
        }
        let object = type == ManagedObject.self
            ? ManagedObject(entity: entity, key: key, family: family, context: self)
            : type.init(entity: entity, objectID: family.objectID(key: key), context: self)
        registry.enter(object, key: key, table: table)
        return object
    }

    /// A new fault for an ID, not registered.
    private func makeObject(with id: ManagedObjectID) -> ManagedObject {
        guard let (entity, type) = kind(named: id.entityName) else {
            preconditionFailure("object ID \(id) names entity '\(id.entityName)', which the model lacks")
        }
        return type.init(entity: entity, objectID: id, context: self)
    }

    /// A fault's relationships for an entity: every to-one empty, every to-many not loaded.
    func faultRelationships(of entity: Entity) -> [RelationshipValue] {
        if lastFaultEntity !== entity {
            lastFaultEntity = entity
            lastFaultRelationships = ManagedObject.faultRelationships(of: entity)
        }
        return lastFaultRelationships
    }

    /// The entity of a name and the class its objects are made of.
    func kind(named name: String) -> (Entity, ManagedObject.Type)? {
        let classes = coordinator.classRegistrations
        if lastKindClasses == classes, lastKindName == name, let entity = lastKindEntity { return (entity, lastKindType) }
        guard let entity = model.entity(named: name) else { return nil }
        let type = coordinator.objectClass(forEntityName: name)
        (lastKindName, lastKindEntity, lastKindType, lastKindClasses) = (name, entity, type, classes)
        return (entity, type)
    }

    /// An object for an ID that is no longer the context's (its deletion was saved or
    /// merged, or the context was reset), as a deleted object held since then would be.
    func invalidObject(with id: ManagedObjectID) -> ManagedObject {
        guard let (entity, type) = kind(named: id.entityName) else {
            preconditionFailure("object ID \(id) names entity '\(id.entityName)', which the model lacks")
        }
        let object = type.init(entity: entity, objectID: id, context: nil)
        object.status = .invalid
        return object
    }

    /// The object for an ID if the context has it in memory; never touches a store.
    public func registeredObject(for id: ManagedObjectID) -> ManagedObject? {
        guard id.isTemporaryID else { return registry.object(for: id) }
        if temporaryIndex == nil {
            var index: [ManagedObjectID: Unmanaged<ManagedObject>] = [:]
            index.reserveCapacity(inserted.count + discarded.count)
            for object in inserted { index[object.objectID] = Unmanaged.passUnretained(object) }
            for object in discarded { index[object.objectID] = Unmanaged.passUnretained(object) }
            temporaryIndex = index
        }
        return temporaryIndex?[id]?.takeUnretainedValue()
    }

    /// The object for an ID with its values loaded.
    ///
    /// - Throws: `ObjectGraphError.objectNotFound` when no store has it.
    public func existingObject(with id: ManagedObjectID) throws -> ManagedObject {
        checkQueue()
        let object = self.object(with: id)
        try object.fireFault()
        return object
    }

    func register(_ object: ManagedObject) {
        if object.objectID.isTemporaryID {
            // Without the index, the change sets hold the object; a child's object that its
            // parent has not saved yet is in no change set, and needs the index.
            if temporaryIndex == nil, object.status != .inserted { _ = registeredObject(for: object.objectID) }
            temporaryIndex?[object.objectID] = Unmanaged.passUnretained(object)
        } else {
            registry.enter(object)
        }
    }

    func unregister(_ object: ManagedObject) {
        if case .id(let id) = object.identityStorage, id.isTemporaryID {
            guard temporaryIndex?[id]?.toOpaque() == Unmanaged.passUnretained(object).toOpaque() else { return }
            temporaryIndex?[id] = nil
            return
        }
        registry.remove(object)
    }
}
