import Foundation
import OrderedCollections
import ObjectModel
import Predicates

extension ManagedObjectContext {
    /// Loads a fault's values from its store.
    func fulfillFault(_ object: ManagedObject) throws {
        let id = object.objectID
        let row = try coordinator.locked { try coordinator.store(for: id).row(for: id) }
        guard let row else {
            throw ObjectGraphError.objectNotFound(entity: object.entity.name, objectID: id.description)
        }
        apply(row, to: object)
        object.awakeFromFetch()
    }

    /// Puts a stored row's values into an object and takes them as its committed values.
    func apply(_ row: StoredRow, to object: ManagedObject) {
        let entity = object.entity
        let attributes = entity.attributes.map { a in a.isTransient ? a.defaultValue : (row.attributes[a.name] ?? .null) }
        object.attributeValues = attributes
        var toOne: [Int: ManagedObjectID] = [:]
        for (i, r) in entity.relationships.enumerated() {
            if r.isToMany {
                object.relationshipValues[i] = .toManyFault(.init())
            } else if let id = row.toOne[r.name] {
                toOne[i] = id
                object.relationshipValues[i] = .toOne(self.object(with: id))
            } else {
                object.relationshipValues[i] = .toOne(nil)
            }
        }
        object.snapshot = Snapshot(attributes: attributes, toOne: toOne, version: row.version)
    }

    /// The destinations of a to-many relationship, from the store.
    func relatedObjectIDs(of object: ManagedObject, relationship: RelationshipDescription) throws -> [ManagedObjectID] {
        let id = object.objectID
        return try coordinator.locked {
            try coordinator.store(for: id).relatedObjectIDs(of: id, relationship: relationship)
        }
    }

    /// The objects a fetched property finds for one object.
    func fetchedPropertyValue(_ name: String, of object: ManagedObject) throws -> [ManagedObject] {
        guard let property = object.entity.fetchedProperty(named: name) else { return [] }
        var request = FetchRequest(entityName: property.entityName)
        if let format = property.predicateFormat, !format.isEmpty {
            request.predicate = try ObjectPredicate(format: format)
                .substitutingVariables(["FETCH_SOURCE": .object(object), "FETCHED_PROPERTY": .string(name)])
        }
        return try fetch(request)
    }
}
