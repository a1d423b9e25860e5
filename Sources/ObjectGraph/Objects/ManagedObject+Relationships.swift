import Foundation
import ObjectModel
import Predicates

extension ManagedObject {
    /// Adds an object to a to-many relationship; the inverse follows (a to-one inverse
    /// leaves its previous owner).
    ///
    /// ```swift
    /// try category.add(item, toRelationship: "todos")   // item.category == category
    /// ```
    public func add(_ object: ManagedObject, toRelationship key: String) throws {
        let i = try toManyIndex(key, for: object)
        try fireFault()
        try managedObjectContext!.addMember(object, to: self, index: i)
    }

    /// Removes an object from a to-many relationship; the inverse follows.
    public func remove(_ object: ManagedObject, fromRelationship key: String) throws {
        let i = try toManyIndex(key, for: object)
        try fireFault()
        try managedObjectContext!.removeMember(object, from: self, index: i)
    }

    private func toManyIndex(_ key: String, for object: ManagedObject) throws -> Int {
        guard managedObjectContext != nil, status != .invalid else {
            throw ObjectGraphError.objectNotInContext(entity: entity.name, objectID: objectID.description)
        }
        guard let i = entity.relationshipIndex(of: key), entity.relationships[i].isToMany else {
            throw KeyValueError.unknownKey(key, typeName: entity.name)
        }
        let relationship = entity.relationships[i]
        guard object.entity.isKind(of: relationship.destinationEntityName) else {
            throw ObjectGraphError.typeMismatch(entity: entity.name, key: key, expected: relationship.destinationEntityName,
                                                value: .object(object))
        }
        guard object.managedObjectContext === managedObjectContext else {
            throw ObjectGraphError.crossContextRelationship(entity: entity.name, key: key)
        }
        return i
    }
}
