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
    public static let format = "termdata-graph"
    public static let version = 1

    /// Objects by entity name, in file order.
    public var entities: [String: [[String: JSONValue]]]
    /// What an export could not write as the store has it: references to rows that are
    /// not in the store (left by a No Action delete or another program).
    public var problems: [GraphProblem] = []

    /// How many objects the file holds.
    public var objectCount: Int { entities.values.reduce(0) { $0 + $1.count } }

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

    public var json: JSONValue {
        .object(["format": .string(Self.format), "version": .int(Self.version),
                 "entities": .object(entities.mapValues { .array($0.map(JSONValue.object)) })])
    }

    /// Every problem with the file for this model, each naming the object by its `@id`.
    public func problems(for model: ManagedObjectModel) -> [GraphProblem] {
        var problems: [GraphProblem] = []
        var ids: [String: String] = [:]   // @id -> entity
        ids.reserveCapacity(objectCount)
        for name in entities.keys.sorted() {
            for (i, object) in entities[name]!.enumerated() {
                guard case .string(let id)? = object["@id"] else {
                    problems.append(GraphProblem("\(name)[\(i)]", "missing \"@id\" string"))
                    continue
                }
                if ids[id] != nil { problems.append(GraphProblem("\(name) \(id)", "@id used twice")) }
                ids[id] = name
            }
        }
        for name in entities.keys.sorted() {
            guard let entity = model.entity(named: name) else {
                problems.append(GraphProblem(nil, "unknown entity '\(name)' (the model has \(model.entityNames.sorted().joined(separator: ", ")))"))
                continue
            }
            if entity.isAbstract { problems.append(GraphProblem(nil, "entity '\(name)' is abstract: list its objects under their concrete entity")) }
            for (i, object) in entities[name]!.enumerated() {
                var label: String {
                    if case .string(let id)? = object["@id"] { return "\(name) \(id)" } else { return "\(name)[\(i)]" }
                }
                // An object's problems are listed by key; the keys are sorted only for an object that has some.
                let before = problems.count
                defer {
                    if problems.count - before > 1 {
                        let found = problems[before...].enumerated().sorted { a, b in
                            (a.element.key ?? "", a.offset) < (b.element.key ?? "", b.offset)
                        }
                        problems.replaceSubrange(before..., with: found.map(\.element))
                    }
                }
                for (key, value) in object where key != "@id" {
                    if let a = entity.attribute(named: key) {
                        if a.type.isNumeric || a.type == .boolean || a.type == .string || a.type == .date || a.type == .binary
                            || a.type == .uuid || a.type == .uri || a.type == .transformable {
                            if value.attributeValue(a.type) == nil {
                                problems.append(GraphProblem(label, "'\(key)': \(value.problem(as: a.type))", key: key))
                            }
                        }
                    } else if let r = entity.relationship(named: key) {
                        let references: [JSONValue]
                        switch (r.isToMany, value) {
                        case (_, .null): references = []
                        case (false, .string): references = [value]
                        case (true, .array(let a)): references = a
                        default:
                            problems.append(GraphProblem(label, "'\(key)' expects \(r.isToMany ? "an array of @id strings" : "an @id string"), got \(value.kindName)", key: key))
                            continue
                        }
                        for reference in references {
                            guard case .string(let target) = reference else {
                                problems.append(GraphProblem(label, "'\(key)' holds \(reference.kindName), not an @id", key: key))
                                continue
                            }
                            guard let targetEntity = ids[target] else {
                                problems.append(GraphProblem(label, "'\(key)' refers to '\(target)', which the file does not define", key: key))
                                continue
                            }
                            if model.entity(named: targetEntity)?.isKind(of: r.destinationEntityName) != true {
                                problems.append(GraphProblem(label, "'\(key)' refers to \(targetEntity) '\(target)', not a \(r.destinationEntityName)", key: key))
                            }
                        }
                    } else {
                        problems.append(GraphProblem(label, "unknown key '\(key)'" + KeyHint.text(for: key, in: entity), key: key,
                                                    suggestion: KeyHint.closest(to: key, in: entity)))
                    }
                }
            }
        }
        if problems.isEmpty { problems += contradictions(for: model) }
        return problems
    }

    /// Relationships given on both sides that disagree: `D9.employees` holds `E9` while
    /// `E9.department` is `D8`. Import would keep whichever side it set last.
    private func contradictions(for model: ManagedObjectModel) -> [GraphProblem] {
        // Only a relationship the file gives on both sides can contradict itself: where no
        // object lists the inverse (a ToDo file that sets each item's category and no
        // category's items), there is nothing to compare and nothing is indexed.
        func givesKey(_ key: String, forKindOf entityName: String) -> Bool {
            entities.contains { name, list in
                model.entity(named: name)?.isKind(of: entityName) == true && list.contains { $0[key] != nil }
            }
        }
        let bothSides = model.entities.contains { entity in
            entity.relationships.contains { r in
                guard let inverse = r.inverseName else { return false }
                return givesKey(inverse, forKindOf: r.destinationEntityName) && givesKey(r.name, forKindOf: entity.name)
            }
        }
        guard bothSides else { return [] }
        var objects: [String: (entity: Entity, values: [String: JSONValue])] = [:]
        for (name, list) in entities {
            guard let entity = model.entity(named: name) else { continue }
            for object in list { if case .string(let id)? = object["@id"] { objects[id] = (entity, object) } }
        }
        func targets(_ value: JSONValue?) -> [String] {
            switch value {
            case .string(let id)?: return [id]
            case .array(let items)?: return items.compactMap { if case .string(let id) = $0 { return id } else { return nil } }
            default: return []
            }
        }
        // Every reference as (object, key, target), so that a look back is one probe: a
        // category's list of 30,000 items is not searched once per item.
        struct Link: Hashable { let from: String, key: String, to: String }
        var links = Set<Link>()
        for (id, object) in objects {
            for r in object.entity.relationships {
                for target in targets(object.values[r.name]) { links.insert(Link(from: id, key: r.name, to: target)) }
            }
        }
        var problems: [GraphProblem] = []
        for id in objects.keys.sorted() {
            let (entity, values) = objects[id]!
            for r in entity.relationships where values[r.name] != nil {
                guard let inverse = r.inverseName else { continue }
                for target in targets(values[r.name]) {
                    guard let other = objects[target], let back = other.values[inverse] else { continue }
                    if !links.contains(Link(from: target, key: inverse, to: id)) {
                        let listed = targets(back).map { "'\($0)'" }.joined(separator: ", ")
                        let toMany = other.entity.relationship(named: inverse)?.isToMany == true
                        let shown = listed.isEmpty ? (toMany ? "holds nothing" : "is null") : (toMany ? "holds only \(listed)" : "is \(listed)")
                        problems.append(GraphProblem("\(entity.name) \(id)", "'\(r.name)' holds '\(target)', whose '\(inverse)' \(shown)", key: r.name))
                    }
                }
            }
        }
        return problems
    }

    /// Inserts every object into the context (not saved). Call after `problems(for:)` is empty.
    ///
    /// - Returns: each inserted object's `@id`, to name it in errors.
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

    /// The whole store as a graph file: each concrete entity's objects in store order, with
    /// `@id`s `Entity/n` numbered in that order.
    ///
    /// - Parameters:
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
            var problem = "\(r.name) refers to the \(id.entityName) with primary key "
                + "\(id.primaryKey.map(String.init) ?? "?"), which is not in the store; written as null"
            if !r.isOptional {
                problem += ", which the model does not allow"
                if forImport { problem += ": import refuses the file until \(object) has a \(r.name)" }
            }
            problems.append(GraphProblem(object, problem, key: r.name))
        }
        for name in names {
            guard let entity = model.entity(named: name) else { continue }
            // Looked up once per entity, and each object's members made room for at once.
            let attributes = entity.storedAttributes.map(\.name)
            let relationships = entity.relationships.filter { !$0.isTransient }
            let members = 1 + attributes.count + relationships.count
            entities[name] = try (objectsByEntity[name] ?? []).map { o in
                let id = ids[o.objectID]!
                var d: [String: JSONValue] = [:]
                d.reserveCapacity(members)
                d["@id"] = .string(id)
                for a in attributes { d[a] = JSONValue.from(o[a]) }
                for r in relationships {
                    if r.isToMany {
                        let members = try o.objectIDs(forRelationshipNamed: r.name).compactMap { ids[$0] }
                        d[r.name] = .array((r.isOrdered ? members : members.sorted()).map(JSONValue.string))
                    } else if let destination = o.object(r.name) {
                        if let target = ids[destination.objectID] {
                            d[r.name] = .string(target)
                        } else if !inStore.contains(destination.objectID) {
                            missing(destination.objectID, from: id, r)
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
        }
        return GraphFile(entities: entities, problems: problems)
    }
}
