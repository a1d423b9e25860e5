import Foundation
import ObjectGraph
import ObjectModel
import Predicates

/// The graph JSON format of `termdata import` and `termdata export`, version 1:
///
/// ```json
/// {"format": "termdata-graph", "version": 1,
///  "entities": {"ToDo": [{"@id": "ToDo/1", "name": "Buy milk", "category": "Category/1"}]}}
/// ```
///
/// Objects are listed under their concrete entity; dates are ISO-8601 strings, binary data
/// base64; `null` means no value and an absent key takes the model's default; to-one
/// relationships hold an `@id`, to-many ones an array of them.
public struct GraphFile: Sendable {
    /// The value of a graph file's `format` key; reading refuses a file with any other.
    public static let format = "termdata-graph"
    /// The format version written in the `version` key, and the only one reading accepts.
    public static let version = 1

    /// Objects by entity name, in file order.
    public var entities: [String: [[String: JSONValue]]]
    /// What an export could not write as the store has it: references to rows that are
    /// not in the store (left by a No Action delete or another program).
    public var problems: [GraphProblem] = []

    /// How many objects the file holds.
    public var objectCount: Int { entities.values.reduce(0) { $0 + $1.count } }

    /// A graph file of these objects, by entity name, with the problems an export met writing them.
    public init(entities: [String: [[String: JSONValue]]], problems: [GraphProblem] = []) {
        self.entities = entities
        self.problems = problems
    }

    /// Reads a graph file's JSON.
    ///
    /// - Throws: `GraphFileError` saying what is not as the format wants it.
    public init(data: Data) throws {
        let json: JSONValue
        do {
            json = try JSONSyntax.parse(data)
        } catch {
            throw GraphFileError(.notJSON("at \(error)"))
        }
        try self.init(json: json)
    }

    /// A graph file's parsed JSON.
    init(json: JSONValue) throws {
        guard case .object(let top) = json else { throw GraphFileError(.notAnObject) }
        guard top["format"] == .string(Self.format) else { throw GraphFileError(.wrongFormat) }
        guard top["version"] == .int(Self.version) else { throw GraphFileError(.unsupportedVersion) }
        guard case .object(let byEntity)? = top["entities"] else { throw GraphFileError(.noEntities) }
        var entities: [String: [[String: JSONValue]]] = [:]
        for (name, list) in byEntity {
            guard case .array(let items) = list else { throw GraphFileError(.entityNotAnArray(name)) }
            entities[name] = try items.enumerated().map { i, item in
                guard case .object(let o) = item else { throw GraphFileError(.objectNotAnObject(entity: name, index: i)) }
                return o
            }
        }
        self.entities = entities
    }

    /// The file as graph JSON: its `format`, `version` and `entities` (the problems are not written).
    public var json: JSONValue {
        .object(["format": .string(Self.format), "version": .int(Self.version),
                 "entities": .object(entities.mapValues { .array($0.map(JSONValue.object)) })])
    }

    /// Every problem with the file for this model, each naming the object by its `@id`.
    public func problems(for model: ManagedObjectModel) -> [GraphProblem] {
        var check = GraphCheck(model: model)
        for name in entities.keys.sorted() {
            let objects = entities[name]!
            check.begin(entity: name, expecting: objects.count)
            for (i, object) in objects.enumerated() { check.add(Array(object), index: i) }
        }
        return check.finish()
    }

    /// Inserts every object into the context (not saved). Call after `problems(for:)` is empty.
    ///
    /// - Returns: each inserted object's `@id`, to name it in errors.
    /// - Parameter context: the context the objects are inserted into.
    /// - Parameter progress: called now and then with the objects inserted so far; an error
    ///   it throws ends the insert with that error.
    @discardableResult
    public func insert(into context: ManagedObjectContext,
                       progress: ((Int) throws -> Void)? = nil) throws -> [ObjectIdentifier: String] {
        var objects: [String: ManagedObject] = [:]
        objects.reserveCapacity(objectCount)
        let names = entities.keys.sorted()
        for name in names {
            for object in entities[name]! {
                guard case .string(let id)? = object["@id"] else { continue }
                let o = try context.insertObject(forEntityName: name)
                objects[id] = o
                if objects.count % 1_000 == 0 { try progress?(objects.count) }
                for (key, value) in object where key != "@id" {
                    if let a = o.entity.attribute(named: key), let v = value.attributeValue(a.type) {
                        try o.setValue(v, forKey: key)
                    }
                }
            }
        }
        for name in names {
            for object in entities[name]! {
                guard case .string(let id)? = object["@id"], let o = objects[id] else { continue }
                for (key, value) in object where key != "@id" {
                    guard let r = o.entity.relationship(named: key) else { continue }
                    switch value {
                    case .string(let target): try o.setValue(ObjectValue.object(objects[target]!), forKey: key)
                    case .array(let targets):
                        let members = targets.compactMap { t -> ObjectValue? in
                            if case .string(let s) = t, let m = objects[s] { return .object(m) }
                            return nil
                        }
                        try o.setValue(r.isOrdered ? ObjectValue.array(members) : .set(members), forKey: key)
                    default: try o.setValue(ObjectValue.null, forKey: key)
                    }
                }
            }
        }
        return Dictionary(uniqueKeysWithValues: objects.map { (ObjectIdentifier($0.value), $0.key) })
    }

    /// One object as a graph file gives it: its `@id`, every attribute, each to-one as the
    /// `@id` of its destination (`null` for none, or for one not in the store, which
    /// `missing` hears of; left out for one that is not written), each to-many as the `@id`s
    /// of the members written (sorted, unless ordered).
    static func exported(_ o: ManagedObject, id: String, attributes: [AttributeDescription], relationships: [RelationshipDescription], members: Int,
                         atID: (ManagedObjectID) -> String?, inStore: (ManagedObjectID) -> Bool,
                         missing: (ManagedObjectID, String, RelationshipDescription) -> Void,
                         unwritable: (GraphProblem) -> Void) throws -> [String: JSONValue] {
        var d: [String: JSONValue] = [:]
        d.reserveCapacity(members)
        d["@id"] = .string(id)
        for a in attributes {
            let (json, problem) = JSONValue.exported(o[a.name], as: a.type)
            d[a.name] = json
            if let problem {
                let refused = a.isOptional ? "" : ", and import refuses the file until \(id) has a \(a.name)"
                unwritable(GraphProblem(id, "'\(a.name)' \(problem)\(refused)", key: a.name))
            }
        }
        for r in relationships {
            if r.isToMany {
                let members = try o.objectIDs(forRelationshipNamed: r.name).compactMap(atID)
                d[r.name] = .array((r.isOrdered ? members : members.sorted()).map(JSONValue.string))
            } else if let destination = o.object(r.name) {
                if let target = atID(destination.objectID) {
                    d[r.name] = .string(target)
                } else if !inStore(destination.objectID) {
                    missing(destination.objectID, id, r)
                    d[r.name] = .null
                }
                // Otherwise the object was left out of the file on purpose
                // (keepsOutsideReferences) and is not referred to.
            } else {
                d[r.name] = .null
            }
        }
        return d
    }

    /// The whole store as a graph file: each concrete entity's objects in store order, with
    /// `@id`s `Entity/n` numbered in that order.
    ///
    /// - Parameters:
    ///   - context: the context the objects are fetched through.
    ///   - entityNames: the entities whose objects are written (each its own objects, not its
    ///     subentities'); `nil` for every concrete entity.
    ///   - keepsOutsideReferences: with `entityNames`, whether references to objects of other
    ///     entities stay. Without them the file imports on its own: a to-one to an object
    ///     left out is not written, and a to-many lists only the members written.
    ///   - forImport: whether the file is one import reads (graph JSON, not CSV), so that a
    ///     warning may say what import will make of it.
    ///   - progress: called before each entity's objects are read, with its name and the
    ///     objects read so far.
    public static func export(from context: ManagedObjectContext, entityNames: [String]? = nil,
                              keepsOutsideReferences: Bool = true, forImport: Bool = true,
                              progress: ((_ entity: String, _ objectsRead: Int) -> Void)? = nil) throws -> GraphFile {
        let model = context.model
        let names = entityNames ?? model.entities.filter { !$0.isAbstract }.map(\.name).sorted()
        var objectsByEntity: [String: [ManagedObject]] = [:]
        var ids: [ManagedObjectID: String] = [:]
        for name in model.entities.filter({ !$0.isAbstract }).map(\.name) {
            progress?(name, ids.count)
            // Every value is written, so the rows load with the fetch, not one query per object.
            var request = FetchRequest(entityName: name, includesSubentities: false)
            request.returnsObjectsAsFaults = false
            let objects = try context.fetch(request)
                .sorted { ($0.objectID.primaryKey ?? 0) < ($1.objectID.primaryKey ?? 0) }
            objectsByEntity[name] = objects
            for (i, o) in objects.enumerated() { ids[o.objectID] = "\(name)/\(i + 1)" }
        }
        let inStore = Set(ids.keys)
        if !keepsOutsideReferences, entityNames != nil {
            let written = Set(names)
            ids = ids.filter { written.contains($0.key.entityName) }
        }
        var entities: [String: [[String: JSONValue]]] = [:]
        var problems: [GraphProblem] = []
        // A to-one to a row that is not in the store cannot be written; it reads as no
        // object, which is what the file says, and the export says so. (A to-many is read
        // joined to its members' rows, so a link to a missing row is no member already.)
        func missing(_ id: ManagedObjectID, from object: String, _ r: RelationshipDescription) {
            problems.append(missingProblem(id, from: object, r, forImport: forImport))
        }
        for name in names {
            guard let entity = model.entity(named: name) else { continue }
            // Looked up once per entity, and each object's members made room for at once.
            let attributes = entity.storedAttributes
            let relationships = entity.relationships.filter { !$0.isTransient }
            let members = 1 + attributes.count + relationships.count
            entities[name] = try (objectsByEntity[name] ?? []).map { o in
                try exported(o, id: ids[o.objectID]!, attributes: attributes, relationships: relationships, members: members,
                             atID: { ids[$0] }, inStore: { inStore.contains($0) }, missing: missing,
                             unwritable: { problems.append($0) })
            }
        }
        return GraphFile(entities: entities, problems: problems)
    }
}
