import Foundation
import ObjectModel
import Predicates

extension ManagedObjectContext {
    /// How many objects a to-many relationship of an object holds, without loading them
    /// when it is still a fault: the store counts the saved members through the inverse,
    /// and the context's unsaved changes to the destination objects are counted in (as of
    /// the last `processPendingChanges`, which runs delete rules).
    ///
    /// ```swift
    /// try context.count(ofRelationship: "todos", of: home)   // 333,334, with no ToDo loaded
    /// ```
    ///
    /// - Throws: `KeyValueError.unknownKey` when the entity has no to-many relationship of
    ///   that name, or the store's error.
    public func count(ofRelationship name: String, of object: ManagedObject) throws -> Int {
        checkQueue()
        guard let i = object.entity.relationshipIndex(of: name), object.entity.relationships[i].isToMany else {
            throw KeyValueError.unknownKey(name, typeName: object.entity.name)
        }
        let relationship = object.entity.relationships[i]
        guard case .toManyFault = object.relationshipValues[i], object.status != .inserted, !object.objectID.isTemporaryID,
              let inverseName = relationship.inverseName,
              let destination = model.entity(named: relationship.destinationEntityName),
              let inverse = destination.relationship(named: inverseName), !inverse.isToMany else {
            // Loaded, new, or without a to-one inverse to count by: the members themselves.
            return try object.toManyMembers(i).count
        }
        let request = FetchRequest(entityName: destination.name,
                                   predicate: .comparison(ComparisonPredicate(.keyPath(inverseName), .equalTo, .constant(.object(object)))),
                                   includesPendingChanges: false)
        var count = try self.count(for: request)
        for member in Array(inserted) + Array(updated) + Array(deleted) where member.entity.isKind(of: destination.name) {
            guard let j = member.entity.relationshipIndex(of: inverseName) else { continue }
            // A member deleted while still a fault has no snapshot yet; its row tells.
            if member.status == .deleted, member.snapshot == nil { try member.fireFault() }
            let stored = member.status != .inserted && member.snapshot?.toOne[j] == object.objectID
            var now = false
            if member.status != .deleted, case .toOne(let current) = member.relationshipValues[j] { now = current === object }
            count += (now ? 1 : 0) - (stored ? 1 : 0)
        }
        return count
    }
}
