import Foundation
import ObjectModel
import OrderedCollections

/// What deleting objects would do by the model's delete rules, found without changing
/// anything: which objects Cascade rules take along, entity by entity (through any number of
/// levels); which relationships Nullify rules clear on the objects that stay; and which Deny
/// rules refuse, each with the object that refuses — what Core Data knows when the objects are
/// deleted, known before.
///
/// ```swift
/// let preview = try DeletePreview(deleting: [sales], in: context)
/// preview.cascaded      // ["Employee": 12, "Note": 30]
/// preview.refusals      // [] — or the object whose Deny rule refuses, and why
/// ```
public struct DeletePreview {
    /// How many objects of one entity.
    public struct Count: Equatable, Sendable {
        /// The entity's name.
        public var entity: String
        /// How many of its objects.
        public var count: Int

        /// A count of an entity's objects.
        public init(entity: String, count: Int) {
            self.entity = entity
            self.count = count
        }
    }

    /// A relationship that objects staying behind would lose members of (or a to-one that
    /// becomes nil): `entity.relationship` on `count` objects.
    public struct Clearing: Equatable, Sendable {
        /// The entity of the objects that stay.
        public var entity: String
        /// The staying objects' relationship that holds deleted objects: the inverse of a deleted
        /// object's relationship.
        public var relationship: String
        /// How many distinct staying objects the relationship is cleared on (or, for `dangling`,
        /// left pointing at deleted objects).
        public var count: Int

        /// A relationship of an entity's staying objects, affected on `count` of them.
        public init(entity: String, relationship: String, count: Int) {
            self.entity = entity
            self.relationship = relationship
            self.count = count
        }
    }

    /// A Deny rule that refuses: `object` may not be deleted while `relationship` holds
    /// `remaining` objects that stay.
    public struct Refusal {
        /// The object to be deleted whose Deny rule refuses.
        public var object: ManagedObject
        /// Its relationship with the Deny rule.
        public var relationship: String
        /// How many objects in the relationship stay, and so block the delete.
        public var remaining: Int
        /// The first of the objects that stay.
        public var first: ManagedObject
    }

    /// The objects asked to be deleted, by entity, most first.
    public internal(set) var requested: [Count] = []
    /// The objects Cascade rules delete besides, by entity, most first.
    public internal(set) var cascaded: [Count] = []
    /// The relationships cleared on objects that stay.
    public internal(set) var cleared: [Clearing] = []
    /// The relationships a No Action rule leaves pointing at deleted objects, on objects that stay.
    public internal(set) var dangling: [Clearing] = []
    /// Deny rules that refuse; while there is one, the delete cannot be saved.
    public internal(set) var refusals: [Refusal] = []
    /// Every object the delete takes: those asked for and those cascaded (empty for a
    /// preview read from the store by ID: see `deletedIDs`).
    public internal(set) var deleted: OrderedSet<ManagedObject> = []
    /// The IDs of every object the delete takes.
    public internal(set) var deletedIDs: OrderedSet<ManagedObjectID> = []

    /// Follows the delete rules from `objects` through the context's objects (faults are read
    /// as needed; nothing is changed or deleted).
    public init(deleting objects: [ManagedObject], in context: ManagedObjectContext) throws {
        context.checkQueue()
        var requestedCounts: [String: Int] = [:], cascadedCounts: [String: Int] = [:]
        for object in objects where !object.isDeleted && deleted.append(object).inserted {
            requestedCounts[object.entity.name, default: 0] += 1
        }
        // Cascades first, level by level, so that Nullify and Deny know who stays.
        var next = 0
        while next < deleted.count {
            let object = deleted[next]
            next += 1
            for (i, relationship) in object.entity.relationships.enumerated() where relationship.deleteRule == .cascade {
                for destination in try object.relatedObjects(i) where !destination.isDeleted {
                    if deleted.append(destination).inserted { cascadedCounts[destination.entity.name, default: 0] += 1 }
                }
            }
        }
        var clearedCounts: [String: [String: Set<ObjectIdentifier>]] = [:], danglingCounts = clearedCounts
        for object in deleted {
            for (i, relationship) in object.entity.relationships.enumerated() {
                let staying = try object.relatedObjects(i).filter { !$0.isDeleted && !deleted.contains($0) }
                guard !staying.isEmpty else { continue }
                switch relationship.deleteRule {
                case .deny:
                    refusals.append(Refusal(object: object, relationship: relationship.name, remaining: staying.count, first: staying[0]))
                case .nullify, .cascade:
                    guard let inverse = relationship.inverseName else { continue }
                    for destination in staying {
                        clearedCounts[destination.entity.name, default: [:]][inverse, default: []].insert(ObjectIdentifier(destination))
                    }
                case .noAction:
                    guard let inverse = relationship.inverseName else { continue }
                    for destination in staying {
                        danglingCounts[destination.entity.name, default: [:]][inverse, default: []].insert(ObjectIdentifier(destination))
                    }
                }
            }
        }
        requested = Self.ordered(requestedCounts)
        cascaded = Self.ordered(cascadedCounts)
        cleared = Self.clearings(clearedCounts)
        dangling = Self.clearings(danglingCounts)
        deletedIDs = OrderedSet(deleted.map(\.objectID))
    }

    /// Counts by entity, most first.
    static func ordered(_ counts: [String: Int]) -> [Count] {
        counts.map { Count(entity: $0.key, count: $0.value) }.sorted { ($1.count, $0.entity) < ($0.count, $1.entity) }
    }

    /// Distinct objects by entity and relationship, in that order.
    static func clearings<T: Hashable>(_ counts: [String: [String: Set<T>]]) -> [Clearing] {
        counts.flatMap { entity, byKey in
            byKey.map { Clearing(entity: entity, relationship: $0.key, count: $0.value.count) }
        }.sorted { ($0.entity, $0.relationship) < ($1.entity, $1.relationship) }
    }

    /// The preview in words, a line each: what goes, what is cleared, what refuses.
    ///
    /// - Parameter name: how an object is named (its entity and a display name, say).
    public func lines(naming name: (ManagedObject) -> String) -> [String] {
        func list(_ counts: [Count]) -> String {
            counts.map { "\($0.count) \($0.entity)" }.joined(separator: ", ")
        }
        var lines = ["Deletes \(list(requested))."]
        if !cascaded.isEmpty { lines.append("Cascade rules delete \(list(cascaded)) besides: \(deletedIDs.count) objects in all.") }
        for clearing in cleared {
            lines.append("Clears \(clearing.relationship) of \(clearing.count) \(clearing.entity) (Nullify).")
        }
        for clearing in dangling {
            lines.append("Leaves \(clearing.relationship) of \(clearing.count) \(clearing.entity) pointing at deleted objects (No Action).")
        }
        for refusal in refusals {
            let more = refusal.remaining > 1 ? " and \(refusal.remaining - 1) more" : ""
            lines.append("Refused: \(name(refusal.object)) still holds \(name(refusal.first))\(more) in \(refusal.relationship) (Deny).")
        }
        return lines
    }
}
