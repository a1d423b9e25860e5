import Foundation
import ObjectModel
import OrderedCollections
import Predicates

extension DeletePreview {
    /// How many objects one statement asks about.
    public static let batchSize = 500

    /// The same preview for objects known by ID, read from the stores without making or
    /// loading the objects: each rule is a fetch of object IDs per batch of 500 (the
    /// destinations whose inverse holds one of them), so that a delete of 100,000 objects is
    /// told in a few hundred indexed statements. The context's unsaved changes are not seen:
    /// it is for a context without any (or objects none of them touch).
    ///
    /// ```swift
    /// let preview = try DeletePreview(deletingObjectsWith: Array(marks.ids), in: background)
    /// preview.lines { CellValue.displayName($0) }
    /// ```
    public init(deletingObjectsWith ids: [ManagedObjectID], in context: ManagedObjectContext) throws {
        context.checkQueue()
        let model = context.model
        var requestedCounts: [String: Int] = [:], cascadedCounts: [String: Int] = [:]
        for id in ids where deletedIDs.append(id).inserted { requestedCounts[id.entityName, default: 0] += 1 }
        // Cascades level by level, so that Nullify and Deny know who stays.
        var frontier = Array(deletedIDs)
        while !frontier.isEmpty {
            var next: [ManagedObjectID] = []
            for (entity, group) in Self.grouped(frontier, in: model) {
                for relationship in entity.relationships where relationship.deleteRule == .cascade {
                    for id in try Self.related(group, through: relationship, in: context) where deletedIDs.append(id).inserted {
                        cascadedCounts[id.entityName, default: 0] += 1
                        next.append(id)
                    }
                }
            }
            frontier = next
        }
        var clearedIDs: [String: [String: Set<ManagedObjectID>]] = [:], danglingIDs = clearedIDs
        for (entity, group) in Self.grouped(Array(deletedIDs), in: model) {
            for relationship in entity.relationships {
                guard relationship.deleteRule == .deny || relationship.inverseName != nil else { continue }
                let staying = try Self.related(group, through: relationship, in: context).filter { !deletedIDs.contains($0) }
                guard !staying.isEmpty else { continue }
                switch relationship.deleteRule {
                case .deny:
                    refusals += try Self.refusals(of: group, through: relationship, holding: staying, deleted: deletedIDs, in: context)
                case .nullify, .cascade:
                    for id in staying { clearedIDs[id.entityName, default: [:]][relationship.inverseName!, default: []].insert(id) }
                case .noAction:
                    for id in staying { danglingIDs[id.entityName, default: [:]][relationship.inverseName!, default: []].insert(id) }
                }
            }
        }
        requested = Self.ordered(requestedCounts)
        cascaded = Self.ordered(cascadedCounts)
        cleared = Self.clearings(clearedIDs)
        dangling = Self.clearings(danglingIDs)
    }

    /// IDs by their entity, in the order the entities first come.
    private static func grouped(_ ids: [ManagedObjectID], in model: ManagedObjectModel) -> [(Entity, [ManagedObjectID])] {
        var groups: OrderedDictionary<String, [ManagedObjectID]> = [:]
        for id in ids { groups[id.entityName, default: []].append(id) }
        return groups.compactMap { name, ids in model.entity(named: name).map { ($0, ids) } }
    }

    /// The IDs of the objects a relationship of these objects holds, read through its
    /// inverse a batch at a time; without an inverse, object by object.
    private static func related(_ ids: [ManagedObjectID], through relationship: RelationshipDescription,
                                in context: ManagedObjectContext) throws -> [ManagedObjectID] {
        guard let inverseName = relationship.inverseName,
              let inverse = context.model.entity(named: relationship.destinationEntityName)?.relationship(named: inverseName) else {
            return try ids.flatMap { try context.relatedObjectIDs(of: context.object(with: $0), relationship: relationship) }
        }
        var found: [ManagedObjectID] = []
        for start in stride(from: 0, to: ids.count, by: batchSize) {
            let values = ObjectValue.array(ids[start..<min(ids.count, start + batchSize)].map { .object($0) })
            let predicate = try ObjectPredicate(format: inverse.isToMany ? "ANY %K IN %@" : "%K IN %@", ObjectValue.string(inverseName), values)
            var request = FetchRequest(entityName: relationship.destinationEntityName, predicate: predicate)
            request.includesPendingChanges = false
            found += try context.fetchObjectIDs(request)
        }
        return found
    }

    /// The objects whose Deny rule refuses, each with what it still holds: found among the
    /// owners of the objects that stay (read through a to-one inverse), or else among all.
    private static func refusals(of ids: [ManagedObjectID], through relationship: RelationshipDescription, holding staying: [ManagedObjectID],
                                 deleted: OrderedSet<ManagedObjectID>, in context: ManagedObjectContext) throws -> [Refusal] {
        var owners = OrderedSet(ids)
        if let inverseName = relationship.inverseName,
           context.model.entity(named: relationship.destinationEntityName)?.relationship(named: inverseName)?.isToMany == false {
            var holders = OrderedSet<ManagedObjectID>()
            for start in stride(from: 0, to: staying.count, by: batchSize) {
                var request = FetchRequest(entityName: relationship.destinationEntityName,
                                           predicate: try ObjectPredicate(format: "SELF IN %@", ObjectValue.array(staying[start..<min(staying.count, start + batchSize)].map { .object($0) })))
                request.resultType = .dictionaries
                request.propertiesToFetch = [.key(inverseName)]
                request.includesPendingChanges = false
                for row in try context.fetchDictionaries(request) {
                    if let id = row[inverseName]?.objectReference as? ManagedObjectID { holders.append(id) }
                }
            }
            owners = OrderedSet(ids.filter(holders.contains))
        }
        var refusals: [Refusal] = []
        for owner in owners {
            let object = context.object(with: owner)
            let held = try context.relatedObjectIDs(of: object, relationship: relationship).filter { !deleted.contains($0) }
            guard let first = held.first else { continue }
            refusals.append(Refusal(object: object, relationship: relationship.name, remaining: held.count, first: context.object(with: first)))
        }
        return refusals
    }
}
