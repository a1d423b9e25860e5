import Foundation
import ObjectGraph
import ObjectModel
import Predicates

extension GraphCheck {
    /// Required to-ones and to-many counts, each from the side the file gives: the
    /// object's own key, or else the other side's references to it.
    mutating func checkRelationshipRules() {
        var fromOthers: [Int64: Int32] = [:]
        for link in links {
            guard let r = relationship(link.from, link.name), let inverse = r.inverseName,
                  let back = nameNumbers[inverse], !gives(link.to, back),
                  let backRelationship = relationship(link.to, back), hasRules(backRelationship) else { continue }
            fromOthers[pair(link.to, back), default: 0] += 1
        }
        for run in runs {
            guard let entity = run.entity else { continue }
            let ruled = entity.relationships.filter(hasRules)
            guard !ruled.isEmpty else { continue }
            for object in run.start..<(run.start + run.count) {
                for r in ruled {
                    let name = nameNumbers[r.name]!
                    let count = Int(gives(object, name) ? ownCounts[pair(object, name)] ?? 0 : fromOthers[pair(object, name)] ?? 0)
                    let failures = r.isToMany ? ManagedObject.ruleFailures(ofMemberCount: count, for: r)
                        : count == 0 ? [(code: ValidationFailure.Code.missingMandatoryProperty, reason: "is required")] : []
                    for failure in failures {
                        report(1, run.name, Int(object - run.start), GraphProblem(label(of: object), "\(r.name) \(failure.reason)", key: r.name))
                    }
                }
            }
        }
    }

    /// Whether some object of a kind of `entityName` gives `key`.
    private func givesKey(_ key: String, forKindOf entityName: String) -> Bool {
        guard let name = nameNumbers[key] else { return false }
        return runs.contains { run in
            run.entity?.isKind(of: entityName) == true && (name < 64 ? run.given & (1 << UInt64(name)) != 0 : run.givenBeyond.contains(name))
        }
    }

    /// Relationships given on both sides that disagree: `D9.employees` holds `E9` while
    /// `E9.department` is `D8`. Import would keep whichever side it set last.
    mutating func contradictions() -> [GraphProblem] {
        // Only a relationship the file gives on both sides can contradict itself.
        let bothSides = model.entities.contains { entity in
            entity.relationships.contains { r in
                guard let inverse = r.inverseName else { return false }
                return givesKey(inverse, forKindOf: r.destinationEntityName) && givesKey(r.name, forKindOf: entity.name)
            }
        }
        guard bothSides else { return [] }
        var wrong: [Link] = []
        for link in links {
            guard let r = relationship(link.from, link.name), let inverse = r.inverseName,
                  let back = nameNumbers[inverse], gives(link.to, back) else { continue }
            if !links.contains(Link(from: link.to, name: back, to: link.from)) { wrong.append(link) }
        }
        guard !wrong.isEmpty else { return [] }
        // Named as the file names them: every @id by its number, once.
        let ids = idTable()
        // What each other side holds, gathered in one pass over the references.
        var backs: [Int64: [Int32]] = [:]
        for link in wrong {
            let inverse = relationship(link.from, link.name)!.inverseName!
            backs[pair(link.to, nameNumbers[inverse]!)] = []
        }
        for link in links where backs[pair(link.from, link.name)] != nil { backs[pair(link.from, link.name), default: []].append(link.to) }
        wrong.sort { (ids[Int($0.from)], name(of: $0.name), ids[Int($0.to)]) < (ids[Int($1.from)], name(of: $1.name), ids[Int($1.to)]) }
        return wrong.map { link in
            let run = place(of: link.from).run
            let r = run.entity!.relationship(named: name(of: link.name))!
            let inverse = r.inverseName!
            let back = nameNumbers[inverse]!
            let other = place(of: link.to).run.entity!
            let listed = (backs[pair(link.to, back)] ?? []).map { "'\(ids[Int($0)])'" }.sorted().joined(separator: ", ")
            let toMany = other.relationship(named: inverse)?.isToMany == true
            let shown = listed.isEmpty ? (toMany ? "holds nothing" : "is null") : (toMany ? "holds only \(listed)" : "is \(listed)")
            return GraphProblem("\(run.name) \(ids[Int(link.from)])", "'\(r.name)' holds '\(ids[Int(link.to)])', whose '\(inverse)' \(shown)", key: r.name)
        }
    }

    /// To-one destinations the file gives only on the other side (a category lists its
    /// items, which do not name it; one side of a one-to-one): the rows carry them.
    /// Two objects that claim one object whose side holds one (`C1.todos` and `C2.todos`
    /// both list `t1`, which names no category) are a problem: a store would keep one of them.
    mutating func findImpliedToOnes() -> [GraphProblem] {
        var implied: [Int64: Int32] = [:]
        var claimed: [(object: Int32, name: Int32, first: Int32, second: Int32)] = []
        for link in links {
            guard let r = relationship(link.from, link.name),
                  let inverse = r.inverseName, let back = nameNumbers[inverse], !gives(link.to, back),
                  relationship(link.to, back)?.isToMany == false else { continue }
            if let other = implied[pair(link.to, back)], other != link.from {
                claimed.append((link.to, back, min(other, link.from), max(other, link.from)))
            }
            implied[pair(link.to, back)] = link.from
        }
        links = []
        guard claimed.isEmpty else {
            let ids = idTable()
            return claimed.map { claim in
                let run = place(of: claim.object).run
                let key = name(of: claim.name)
                let listedIn = relationship(claim.object, claim.name)?.inverseName ?? "?"
                return GraphProblem("\(run.name) \(ids[Int(claim.object)])",
                                    "'\(ids[Int(claim.first)])' and '\(ids[Int(claim.second)])' both list it in '\(listedIn)', but its '\(key)' holds one object", key: key)
            }.sorted { $0.description < $1.description }
        }
        impliedToOne = implied
        return []
    }
}
