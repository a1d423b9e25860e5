import Foundation
import OrderedCollections
import ObjectModel
import Predicates

extension ManagedObjectContext {
    /// Loads a fault's values from its store.
    func fulfillFault(_ object: ManagedObject) throws {
        let id = object.objectID
        if let batch = faultBatches.take(id) {
            try fulfillBatch(batch.ids, fetched: batch.rows, for: object)
            return
        }
        guard let row = try faultBatches.takeRow(id) ?? sourceRow(for: id) else {
            throw ObjectGraphError.objectNotFound(entity: object.entity.name, objectID: id.description)
        }
        apply(row, to: object)
        object.awakeFromFetchMarked()
    }

    /// Loads every fault of a fetched batch in one store request, the object that fired first included.
    private func fulfillBatch(_ ids: [ManagedObjectID], fetched: [ManagedObjectID: StoredRow], for object: ManagedObject) throws {
        let id = object.objectID
        // Rows the fetch brought need no store request; the others are read together.
        let missing = ids.filter { fetched[$0] == nil && registeredObject(for: $0)?.isFault != false }
        let rows = Array(fetched.values) + (missing.isEmpty ? [] : try sourceRows(for: missing))
        var found = false
        for row in rows {
            guard let o = registeredObject(for: row.objectID), o.isFault else { continue }
            apply(row, to: o)
            o.awakeFromFetchMarked()
            if o === object { found = true }
        }
        if !found && object.isFault {
            guard let row = try sourceRow(for: id) else {
                throw ObjectGraphError.objectNotFound(entity: object.entity.name, objectID: id.description)
            }
            apply(row, to: object)
            object.awakeFromFetchMarked()
        }
    }

    /// Puts a stored row's values into an object and takes them as its committed values.
    func apply(_ row: StoredRow, to object: ManagedObject) {
        let entity = object.entity
        var attributes: [ObjectValue]
        if let values = row.values(inOrderOf: entity) {
            attributes = values
            for (i, traits) in entity.attributeTraits.enumerated() where traits.isTransient {
                attributes[i] = entity.defaultAttributeValues[i]
            }
        } else {
            let named = row.attributes
            attributes = entity.attributes.map { a in a.isTransient ? a.defaultValue : (named[a.name] ?? .null) }
        }
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

    /// The objects a fetched property finds for one object.
    func fetchedPropertyValue(_ name: String, of object: ManagedObject) throws -> [ManagedObject] {
        guard let property = object.entity.fetchedProperty(named: name) else { return [] }
        var request = FetchRequest(entityName: property.entityName)
        if let format = property.predicateFormat, !format.isEmpty {
            request.predicate = try ObjectPredicate(format: format)
                .substitutingVariables(["FETCH_SOURCE": .object(object), "FETCHED_PROPERTY": .string(name)])
        }
        return Array(try fetch(request))
    }
}
