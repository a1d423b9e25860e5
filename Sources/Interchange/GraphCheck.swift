import Foundation
import ObjectGraph
import ObjectModel
import Predicates

/// The checks of a graph file against a model, given one object at a time, so that a file
/// need not be held whole to be checked: every key, type and reference, each `@id` given
/// once, relationship sides that disagree, and (with `checksModelRules`) the model's rules
/// for values and relationship counts. Across objects it keeps only numbers: each `@id`'s
/// place, the references between objects by place, and which relationships each object
/// gives.
///
/// ```swift
/// var check = GraphCheck(model: model)
/// check.begin(entity: "ToDo")
/// check.add([("@id", .string("t1")), ("name", .string("Milk"))], index: 0)
/// check.finish()   // [] when the file is fine
/// ```
struct GraphCheck {
    let model: ManagedObjectModel
    /// Whether the model's rules (required values, bounds, patterns, counts) are checked
    /// here: an import that writes rows without objects has nobody else to check them.
    let checksModelRules: Bool

    /// Objects given so far, each numbered in the order given.
    private(set) var count: Int32 = 0
    /// Each `@id`'s number (the first object that gave it).
    private(set) var numbers: [String: Int32] = [:]
    /// The entities given, each a run of numbered objects.
    private(set) var runs: [Run] = []

    struct Run {
        let name: String
        /// Nil for a name the model does not know.
        let entity: Entity?
        let start: Int32
        var count: Int32 = 0
        /// The entity's relationships by name number.
        let relationships: [RelationshipDescription?]
        /// By name number, whether a relationship needs objects to be written (see
        /// `givesRelationshipsNeedingObjects`).
        let needObjects: [Bool]
        /// Attributes whose default breaks the model's rules: an object must give them.
        let mustGive: [AttributeDescription]
        /// The relationships some object of the run gives (a bit per name number under 64).
        var given: UInt64 = 0
        var givenBeyond: Set<Int32> = []
    }

    /// A reference from one object to another through a relationship (by name number).
    struct Link: Hashable {
        let from: Int32
        let name: Int32
        let to: Int32
    }

    private var found: [Found] = []
    private struct Found {
        let phase: Int
        let entity: String
        let index: Int
        let problem: GraphProblem
        let sequence: Int
    }

    /// Relationship names of the whole model, numbered.
    let nameNumbers: [String: Int32]
    private let names: [String]
    var links: Set<Link> = []
    /// References to `@id`s not given yet, resolved at the end.
    private var pending: [(from: Int32, name: Int32, target: String)] = []
    /// Per object, which relationships it gives (a bit per name number under 64).
    private var given: [UInt64] = []
    private var givenBeyond: Set<Int64> = []
    /// The own count of a relationship with rules on it, for objects that give it.
    var ownCounts: [Int64: Int32] = [:]
    /// Whether the file's objects need a context to be written: they give a relationship
    /// whose rows cannot say it on their own as they are written in turn (an ordered one, or
    /// one whose inverse is: positions are set on rows written before; a to-many without an
    /// inverse, kept as foreign keys in the members' rows), or they are of an entity with
    /// uniqueness constraints, which a context's save checks against the store.
    private(set) var needsObjects = false
    /// After `finish`: to-one destinations that only the to-many side gives, by (object, name).
    var impliedToOne: [Int64: Int32] = [:]

    init(model: ManagedObjectModel, checksModelRules: Bool = false) {
        self.model = model
        self.checksModelRules = checksModelRules
        var numbers: [String: Int32] = [:]
        for entity in model.entities {
            for r in entity.relationships where numbers[r.name] == nil { numbers[r.name] = Int32(numbers.count) }
        }
        nameNumbers = numbers
        var names = [String](repeating: "", count: numbers.count)
        for (name, number) in numbers { names[Int(number)] = name }
        self.names = names
    }

    /// The objects that follow are the entity's, numbered from 0 within it.
    mutating func begin(entity name: String, expecting objects: Int = 0) {
        let entity = model.entity(named: name)
        let relationships = names.map { entity?.relationship(named: $0) }
        let mustGive = !checksModelRules ? [] : (entity?.attributes ?? []).filter { a in
            !ManagedObject.ruleFailures(of: a.defaultValue, for: a).isEmpty
        }
        if let entity, ([entity.name] + entity.ancestorNames).contains(where: { model.entity(named: $0)?.declaration.uniquenessConstraints.isEmpty == false }) {
            needsObjects = true
        }
        runs.append(Run(name: name, entity: entity, start: count, relationships: relationships,
                        needObjects: relationships.map { r in
            guard let r else { return false }
            let inverseIsOrdered = r.inverseName.flatMap { model.entity(named: r.destinationEntityName)?.relationship(named: $0)?.isOrdered } ?? false
            return r.isOrdered || (r.isToMany && r.inverseName == nil) || inverseIsOrdered
        }, mustGive: mustGive))
        if objects > 0 {
            numbers.reserveCapacity(numbers.count + objects)
            given.reserveCapacity(given.count + objects)
        }
        if entity == nil {
            report(1, name, -1, GraphProblem(nil, "unknown entity '\(name)' (" + (model.entityNames.isEmpty ? "the model has no entities" : "the model has \(model.entityNames.sorted().joined(separator: ", "))") + ")"))
        } else if entity!.isAbstract {
            report(1, name, -1, GraphProblem(nil, "entity '\(name)' is abstract: list its objects under their concrete entity"))
        }
    }

    /// The next object of the current entity, at `index` in its list.
    mutating func add(_ object: [(key: String, value: JSONValue)], index: Int) {
        let number = count
        count += 1
        runs[runs.count - 1].count += 1
        given.append(0)
        let run = runs[runs.count - 1]
        var label: String
        if case .string(let id)? = object.first(where: { $0.key == "@id" })?.value {
            label = "\(run.name) \(id)"
            if numbers[id] != nil {
                report(0, run.name, index, GraphProblem(label, "@id used twice"))
            } else {
                numbers[id] = number
            }
        } else {
            label = "\(run.name)[\(index)]"
            report(0, run.name, index, GraphProblem(label, "missing \"@id\" string"))
        }
        guard let entity = run.entity else { return }
        for (key, value) in object where key != "@id" {
            if let i = entity.attributeIndex(of: key) {
                let a = entity.attributes[i]
                if a.type.isNumeric || a.type == .boolean || a.type == .string || a.type == .date || a.type == .binary
                    || a.type == .uuid || a.type == .uri || a.type == .transformable {
                    guard let v = value.attributeValue(a.type) else {
                        report(1, run.name, index, GraphProblem(label, "'\(key)': \(value.problem(as: a.type))", key: key))
                        continue
                    }
                    if checksModelRules {
                        let traits = entity.attributeTraits[i]
                        if v.isNull ? !traits.isOptional : traits.hasValueRules { checkRules(v, a, label, run.name, index) }
                    }
                }
            } else if let r = entity.relationship(named: key) {
                let name = nameNumbers[key]!
                give(number, name)
                if run.needObjects[Int(name)] { needsObjects = true }
                if name < 64 { runs[runs.count - 1].given |= 1 << UInt64(name) } else { runs[runs.count - 1].givenBeyond.insert(name) }
                let references: [JSONValue]
                switch (r.isToMany, value) {
                case (_, .null): references = []
                case (false, .string): references = [value]
                case (true, .array(let a)): references = a
                default:
                    report(1, run.name, index, GraphProblem(label, "'\(key)' expects \(r.isToMany ? "an array of @id strings" : "an @id string"), got \(value.kindName)", key: key))
                    continue
                }
                var targets: Set<String> = []
                for reference in references {
                    guard case .string(let target) = reference else {
                        report(1, run.name, index, GraphProblem(label, "'\(key)' holds \(reference.kindName), not an @id", key: key))
                        continue
                    }
                    if hasRules(r) { targets.insert(target) }
                    if let to = numbers[target] {
                        link(from: number, name: name, to: to, r, label: label, run: run.name, index: index, target: target)
                    } else {
                        pending.append((number, name, target))
                    }
                }
                if hasRules(r) { ownCounts[pair(number, name)] = Int32(targets.count) }
            } else {
                report(1, run.name, index, GraphProblem(label, "unknown key '\(key)'" + KeyHint.text(for: key, in: entity), key: key,
                                                        suggestion: KeyHint.closest(to: key, in: entity)))
            }
        }
        for a in run.mustGive where !object.contains(where: { $0.key == a.name }) {
            checkRules(a.defaultValue, a, label, run.name, index)
        }
    }

    /// Every problem found, in order: objects without or sharing an `@id`, then each
    /// entity's (by name) objects in their order, each object's by key; relationship sides
    /// that disagree only when there is nothing else.
    mutating func finish() -> [GraphProblem] {
        for (from, number, target) in pending {
            let (run, index) = place(of: from)
            guard let to = numbers[target] else {
                let key = name(of: number)
                report(1, run.name, index, GraphProblem(label(of: from), "'\(key)' refers to '\(target)', which the file does not define", key: key))
                continue
            }
            link(from: from, name: number, to: to, run.relationships[Int(number)]!, label: nil, run: run.name, index: index, target: target)
        }
        pending = []
        if checksModelRules { checkRelationshipRules() }
        var problems = found.sorted { a, b in
            (a.phase, a.entity, a.index, a.problem.key ?? "", a.sequence) < (b.phase, b.entity, b.index, b.problem.key ?? "", b.sequence)
        }.map(\.problem)
        if problems.isEmpty { problems = contradictions() }
        if problems.isEmpty { problems = findImpliedToOnes() }
        found = []
        return problems
    }

    /// The run and the place in it of an object.
    func place(of number: Int32) -> (run: Run, index: Int) {
        var low = 0, high = runs.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if runs[middle].start <= number { low = middle } else { high = middle - 1 }
        }
        return (runs[low], Int(number - runs[low].start))
    }

    /// The relationship name of a name number.
    func name(of number: Int32) -> String { names[Int(number)] }

    /// The relationship of a name number of an object's entity.
    func relationship(_ object: Int32, _ name: Int32) -> RelationshipDescription? {
        place(of: object).run.relationships[Int(name)]
    }

    /// The number of a relationship name.
    func number(ofRelationship name: String) -> Int32? { nameNumbers[name] }

    /// Whether an object gives a relationship (a value for its key, `null` or `[]` too).
    func gives(_ object: Int32, _ name: Int32) -> Bool {
        name < 64 ? given[Int(object)] & (1 << UInt64(name)) != 0 : givenBeyond.contains(pair(object, name))
    }

    func pair(_ object: Int32, _ name: Int32) -> Int64 { Int64(object) << 32 | Int64(name) }

    // MARK: -

    private mutating func give(_ object: Int32, _ name: Int32) {
        if name < 64 { given[Int(object)] |= 1 << UInt64(name) } else { givenBeyond.insert(pair(object, name)) }
    }

    mutating func report(_ phase: Int, _ entity: String, _ index: Int, _ problem: GraphProblem) {
        found.append(Found(phase: phase, entity: entity, index: index, problem: problem, sequence: found.count))
    }

    func hasRules(_ r: RelationshipDescription) -> Bool {
        checksModelRules && (r.isToMany ? (!r.isOptional || r.minCount > 0 || r.maxCount > 0) : !r.isOptional)
    }

    private mutating func checkRules(_ value: ObjectValue, _ a: AttributeDescription, _ label: String, _ entity: String, _ index: Int) {
        for failure in ManagedObject.ruleFailures(of: value, for: a) {
            report(1, entity, index, GraphProblem(label, "\(a.name) \(failure.reason)", key: a.name))
        }
    }

    /// A reference whose target is known: its kind checked, and kept.
    private mutating func link(from: Int32, name: Int32, to: Int32, _ r: RelationshipDescription,
                               label: String?, run: String, index: Int, target: String) {
        let targetRun = place(of: to).run
        guard let targetEntity = targetRun.entity, targetEntity.isKind(of: r.destinationEntityName) else {
            report(1, run, index, GraphProblem(label ?? self.label(of: from),
                                               "'\(r.name)' refers to \(targetRun.name) '\(target)', not a \(r.destinationEntityName)", key: r.name))
            return
        }
        links.insert(Link(from: from, name: name, to: to))
    }

    /// How an object is named in problems: its entity and `@id` (the table of `@id`s by
    /// number made once, the first time a problem needs it).
    mutating func label(of number: Int32) -> String {
        let (run, index) = place(of: number)
        let id = idTable()[Int(number)]
        return id.isEmpty ? "\(run.name)[\(index)]" : "\(run.name) \(id)"
    }

    private var ids: [String]?

    /// Each object's `@id` by its number ("" for none), made the first time it is asked for.
    mutating func idTable() -> [String] {
        if let ids { return ids }
        var table = [String](repeating: "", count: Int(count))
        for (id, number) in numbers { table[Int(number)] = id }
        ids = table
        return table
    }
}
