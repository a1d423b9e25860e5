import Foundation
import ObjectGraph
import ObjectModel
import Predicates

extension GraphFile {
    /// The whole store as graph JSON, byte for byte what `JSONValue.bytes(export(...).json)`
    /// gives, written as it is read: from a SQLite or PostgreSQL store an entity's objects a
    /// batch at a time, each batch let go once written (the context is reset between
    /// batches), so that memory holds one batch and each object's key rather than the
    /// store. Other stores hold their objects in memory anyway: their file is made whole and
    /// written.
    ///
    /// - Parameters:
    ///   - context: the context the objects are fetched through; reset between batches when
    ///     the store is read a batch at a time.
    ///   - entityNames: the entities whose objects are written (each its own objects, not its
    ///     subentities'); `nil` for every concrete entity.
    ///   - keepsOutsideReferences: with `entityNames`, whether references to objects of other
    ///     entities stay, as for `export`.
    ///   - forImport: whether the file is one import reads, so that a warning may say what
    ///     import will make of it, as for `export`.
    ///   - batchSize: how many objects of an entity are read (and held) at a time from a
    ///     SQLite or PostgreSQL store.
    ///   - progress: called before each entity's objects are read, with its name and the
    ///     objects read so far.
    ///   - output: given the text in pieces, in order.
    /// - Returns: what could not be written as the store has it (`problems` of `export`).
    public static func writeExport(from context: ManagedObjectContext, entityNames: [String]? = nil,
                                   keepsOutsideReferences: Bool = true, forImport: Bool = true, batchSize: Int = 10_000,
                                   progress: ((_ entity: String, _ objectsRead: Int) -> Void)? = nil,
                                   output: ([UInt8]) throws -> Void) throws -> [GraphProblem] {
        let streams = !context.coordinator.stores.isEmpty && context.coordinator.stores.allSatisfy { $0.type == .sqlite || $0.type == .postgres }
        guard streams, !context.hasChanges else {
            let graph = try export(from: context, entityNames: entityNames, keepsOutsideReferences: keepsOutsideReferences,
                                   forImport: forImport, progress: progress)
            try output(try JSONValue.bytes(graph.json))
            return graph.problems
        }
        let model = context.model
        let concrete = model.entities.filter { !$0.isAbstract }.map(\.name)
        let names = entityNames ?? concrete.sorted()
        // Every object's key, by entity, in order: an object's @id is its entity and its place.
        var keys: [String: [Int64]] = [:]
        var storeIdentifiers: [String: String] = [:]
        var read = 0
        for name in concrete {
            progress?(name, read)
            let ids = try context.fetchObjectIDs(FetchRequest(entityName: name, includesSubentities: false))
            keys[name] = ids.compactMap(\.primaryKey).sorted()
            storeIdentifiers[name] = ids.first?.storeIdentifier
            read += ids.count
        }
        let written: Set<String>? = !keepsOutsideReferences && entityNames != nil ? Set(names) : nil
        func place(_ id: ManagedObjectID) -> Int? {
            guard let list = keys[id.entityName], let key = id.primaryKey else { return nil }
            var low = 0, high = list.count
            while low < high {
                let middle = (low + high) / 2
                if list[middle] < key { low = middle + 1 } else { high = middle }
            }
            return low < list.count && list[low] == key ? low : nil
        }
        func atID(_ id: ManagedObjectID) -> String? {
            if let written, !written.contains(id.entityName) { return nil }
            return place(id).map { "\(id.entityName)/\($0 + 1)" }
        }
        var problems: [GraphProblem] = []
        func missing(_ id: ManagedObjectID, from object: String, _ r: RelationshipDescription) {
            problems.append(missingProblem(id, from: object, r, forImport: forImport))
        }

        var writer = JSONWriter(pretty: true, capacity: 1 << 20)
        writer.begin(UInt8(ascii: "{"))
        writer.member("entities", first: true)
        writer.begin(UInt8(ascii: "{"))
        for (n, name) in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
            guard let entity = model.entity(named: name) else { continue }
            writer.member(name, first: n == 0)
            writer.begin(UInt8(ascii: "["))
            let attributes = entity.storedAttributes
            let relationships = entity.relationships.filter { !$0.isTransient }
            let members = 1 + attributes.count + relationships.count
            let all = keys[name] ?? []
            var start = 0
            while start < all.count {
                let batch = all[start..<min(all.count, start + batchSize)]
                let ids = batch.map { ObjectValue.object(ManagedObjectID(entityName: name, storeIdentifier: storeIdentifiers[name],
                                                                          reference: .permanent($0))) }
                var request = FetchRequest(entityName: name, predicate: try ObjectPredicate(format: "SELF IN %@", ObjectValue.array(ids)),
                                           includesSubentities: false)
                request.returnsObjectsAsFaults = false
                let objects = try context.fetch(request).sorted { ($0.objectID.primaryKey ?? 0) < ($1.objectID.primaryKey ?? 0) }
                for (i, o) in objects.enumerated() {
                    let id = "\(name)/\(start + i + 1)"
                    writer.element(first: start + i == 0)
                    try writer.write(.object(try exported(o, id: id, attributes: attributes, relationships: relationships, members: members,
                                                          atID: atID, inStore: { place($0) != nil }, missing: missing,
                                                          unwritable: { problems.append($0) })))
                }
                try output(writer.take())
                // What the batch brought into memory goes with it.
                context.reset()
                start += batchSize
            }
            writer.end(UInt8(ascii: "]"))
        }
        writer.end(UInt8(ascii: "}"))
        writer.member("format", first: false)
        try writer.write(.string(format))
        writer.member("version", first: false)
        try writer.write(.int(version))
        writer.end(UInt8(ascii: "}"))
        try output(writer.take())
        return problems
    }

    /// What an export says of a to-one to a row that is not in the store.
    static func missingProblem(_ id: ManagedObjectID, from object: String, _ r: RelationshipDescription, forImport: Bool) -> GraphProblem {
        var problem = "\(r.name) refers to the \(id.entityName) with primary key "
            + "\(id.primaryKey.map(String.init) ?? "?"), which is not in the store; written as null"
        if !r.isOptional {
            problem += ", which the model does not allow"
            if forImport { problem += ": import refuses the file until \(object) has a \(r.name)" }
        }
        return GraphProblem(object, problem, key: r.name)
    }
}
