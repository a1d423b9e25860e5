import Foundation
import GRDB
import SQLSyntax
import ObjectGraph
import ObjectModel

extension LayoutReader {
    /// The destination of a to-one relationship stored in an INTEGER column, or `nil` when
    /// the column is taken for an integer attribute.
    mutating func destination(of column: String, in table: String, root: StoredEntity, names: Set<String>,
                                      indexed: Bool, key: String) throws -> String? {
        let rel = String(column.dropFirst())
        // `Z<n>_<REL>` holds the destination's entity number: the destination has sub-entities.
        for candidate in names where candidate.hasPrefix("Z") {
            let digits = candidate.dropFirst().prefix { $0.isNumber }
            guard !digits.isEmpty, candidate.dropFirst(1 + digits.count) == "_" + rel,
                  let number = Int(digits), let destination = entities[number] else { continue }
            return destination.name
        }
        // Core Data indexes every to-one's column; an unindexed INTEGER column is an attribute.
        guard indexed else { return nil }
        let values = try Int.fetchAll(db, sql: "SELECT DISTINCT \(quote(column)) FROM \(quote(table)) WHERE \(quote(column)) IS NOT NULL LIMIT \(Self.sample)")
        // Entities without sub-entities, whose rows hold every value.
        var fitting: [StoredEntity] = []
        for candidate in entities.values.sorted(by: { $0.number < $1.number })
        where members(of: candidate.number).count == 1 && descriptions[candidate.name] != nil {
            let rootOfCandidate = entities[ancestors(of: candidate.number).last!]!
            let candidateTable = self.table(of: rootOfCandidate)
            guard try db.tableExists(candidateTable) else { continue }
            if values.isEmpty { fitting.append(candidate); continue }
            let list = values.map(String.init).joined(separator: ",")
            let found = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(quote(candidateTable)) WHERE Z_ENT = \(candidate.number) AND Z_PK IN (\(list))") ?? 0
            if found == values.count { fitting.append(candidate) }
        }
        let byNameMatch = fitting.filter { $0.name.uppercased() == rel || $0.name.uppercased().hasSuffix(rel) || rel.hasPrefix($0.name.uppercased()) }
        if byNameMatch.count == 1 {
            let d = byNameMatch[0].name
            if !values.isEmpty, fitting.count > 1 { guesses[key] = "destination \(d): named like it, and every value is one of its keys" }
            else if values.isEmpty { guesses[key] = "destination \(d): named like it (the column holds no values to check)" }
            return d
        }
        guard !values.isEmpty else {
            guesses[key] = "an indexed INTEGER column with no values: taken for an attribute, as no entity is named like it"
            return nil
        }
        let others = fitting.filter { ancestors(of: $0.number).last != root.number }
        let choice = others.count == 1 ? others : fitting.count == 1 ? fitting : []
        guard let d = choice.first?.name else {
            guesses[key] = fitting.isEmpty
                ? "an indexed INTEGER column whose values are no entity's keys: taken for an attribute"
                : "an indexed INTEGER column whose values fit \(fitting.map(\.name).joined(separator: ", ")): taken for an attribute"
            return nil
        }
        guesses[key] = "destination \(d): every value is one of its keys"
        return d
    }

    /// Each to-one gets an inverse on its destination: the other to-one of a one-to-one
    /// pair where there is exactly one, else a to-many named after the owner, ordered when
    /// the table keeps `Z_FOK_<REL>`.
    mutating func addInverses(of toOnes: [(owner: String, name: String, column: String, table: String, destination: String)]) throws {
        var paired: Set<String> = []
        for a in toOnes where !paired.contains("\(a.owner).\(a.name)") {
            let partners = toOnes.filter { $0.owner == a.destination && $0.destination == a.owner && "\($0.owner).\($0.name)" != "\(a.owner).\(a.name)" }
            let reverse = toOnes.filter { $0.owner == a.owner && $0.destination == a.destination }
            if partners.count == 1, reverse.count == 1,
               toOnes.filter({ $0.owner == partners[0].owner && $0.destination == partners[0].destination }).count == 1 {
                let b = partners[0]
                setInverse(of: a.owner, a.name, to: b.name)
                setInverse(of: b.owner, b.name, to: a.name)
                paired.formUnion(["\(a.owner).\(a.name)", "\(b.owner).\(b.name)"])
                guesses["\(a.owner).\(a.name)", default: ""] += (guesses["\(a.owner).\(a.name)"] == nil ? "" : "; ") + "inverse \(b.name): the only to-one back"
                continue
            }
            let ordered = try columns(of: a.table).contains { $0.name == "Z_FOK_" + a.column.dropFirst() }
            var name = Self.plural(Self.lowerCamel(a.owner))
            if reverse.count > 1 { name += "As" + a.name.prefix(1).uppercased() + a.name.dropFirst() }
            name = uniqueName(name, in: a.destination)
            descriptions[a.destination]!.relationships.append(RelationshipDescription(
                name: name, destination: a.owner, inverse: a.name, isToMany: true, isOrdered: ordered))
            setInverse(of: a.owner, a.name, to: name)
            guesses["\(a.destination).\(name)"] = "named after \(a.owner): a to-many keeps no column of its own"
        }
    }

    private mutating func setInverse(of entity: String, _ relationship: String, to inverse: String) {
        guard let i = descriptions[entity]?.relationships.firstIndex(where: { $0.name == relationship }) else { return }
        descriptions[entity]!.relationships[i].inverseName = inverse
    }

    /// A property name not yet used by the entity, its ancestors or its descendants.
    private func uniqueName(_ base: String, in entity: String) -> String {
        guard let stored = byName[entity] else { return base }
        let related = Set(ancestors(of: stored.number) + members(of: stored.number)).compactMap { entities[$0]?.name }
        let used = Set(related.flatMap { descriptions[$0]?.declaredPropertyNames ?? [] })
        if !used.contains(base) { return base }
        var i = 1
        while used.contains("\(base)\(i)") { i += 1 }
        return "\(base)\(i)"
    }

    /// Many-to-many relationships from join tables `Z_<n><REL>`: columns `Z_<n><OTHERREL>`
    /// (entity n's keys) and `Z_<m><REL>` (entity m's keys), as docs/StoreFormats.md gives.
    mutating func readJoinTables() throws {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'Z_[0-9]*' ORDER BY name")
        for table in tables {
            let digits = table.dropFirst(2).prefix { $0.isNumber }
            guard let owner = Int(digits), let ownerEntity = entities[owner], descriptions[ownerEntity.name] != nil else { continue }
            let ownerRelUpper = String(table.dropFirst(2 + digits.count))
            let columns = try columns(of: table).map(\.name)
            let keys = columns.filter { $0.hasPrefix("Z_") && !$0.hasPrefix("Z_FOK_") && $0.dropFirst(2).first?.isNumber == true }
            guard keys.count == 2 else { continue }
            func parse(_ c: String) -> (Int, String)? {
                let d = c.dropFirst(2).prefix { $0.isNumber }
                guard let n = Int(d) else { return nil }
                return (n, String(c.dropFirst(2 + d.count)))
            }
            let parsed = keys.compactMap { key in parse(key).map { (column: key, number: $0.0, rel: $0.1) } }
            guard parsed.count == 2 else { continue }
            // The other side's keys sit in the column named after the owner's relationship (the
            // table's name may carry a suffix against a clash); the owner's in the other one.
            let base = String(ownerRelUpper.reversed().drop { $0.isNumber }.reversed())
            let named = parsed.filter { $0.rel == ownerRelUpper || $0.rel == base }
            let second = named.count == 1 ? named[0] : parsed[1]
            let first = parsed[0].column == second.column ? parsed[1] : parsed[0]
            guard first.number == owner, let other = entities[second.number], descriptions[other.name] != nil else { continue }
            let ownerRel = uniqueName(second.rel.lowercased(), in: ownerEntity.name)
            let otherRel = ownerEntity.name == other.name && first.rel == second.rel ? ownerRel : uniqueName(first.rel.lowercased(), in: other.name)
            guard ManagedObjectModel.isValidName(ownerRel), ManagedObjectModel.isValidName(otherRel) else { continue }
            let fok = Set(columns.filter { $0.hasPrefix("Z_FOK_") })
            descriptions[ownerEntity.name]!.relationships.append(RelationshipDescription(
                name: ownerRel, destination: other.name, inverse: otherRel, isToMany: true,
                isOrdered: fok.contains("Z_FOK_" + second.column.dropFirst(2))))
            if ownerEntity.name != other.name || ownerRel != otherRel {
                descriptions[other.name]!.relationships.append(RelationshipDescription(
                    name: otherRel, destination: ownerEntity.name, inverse: ownerRel, isToMany: true,
                    isOrdered: fok.contains("Z_FOK_" + first.column.dropFirst(2))))
            }
        }
    }

    /// To-many relationships without an inverse: a `Z<n><REL>` column on the destination's
    /// table holding the owner's key.
    mutating func readToManyWithoutInverse(roots: [StoredEntity]) throws {
        for root in roots where descriptions[root.name] != nil {
            let table = table(of: root)
            let columns = try columns(of: table).map(\.name)
            for column in columns where column.dropFirst().first?.isNumber == true && !column.contains("_") {
                let digits = column.dropFirst().prefix { $0.isNumber }
                guard let n = Int(digits), let owner = entities[n], descriptions[owner.name] != nil else { continue }
                let name = uniqueName(String(column.dropFirst(1 + digits.count)).lowercased(), in: owner.name)
                guard ManagedObjectModel.isValidName(name) else { continue }
                let (destination, _) = try declaringEntity(of: column, in: table, root: root)
                descriptions[owner.name]!.relationships.append(RelationshipDescription(
                    name: name, destination: destination, isToMany: true,
                    isOrdered: columns.contains("Z_FOK_" + column.dropFirst())))
            }
        }
    }

    static func lowerCamel(_ name: String) -> String {
        let leadingCapitals = name.prefix { $0.isUppercase }.count
        // "URLRecord" -> "urlRecord"; "Car" -> "car".
        let lower = leadingCapitals > 1 && leadingCapitals < name.count ? leadingCapitals - 1 : leadingCapitals
        return name.prefix(lower).lowercased() + name.dropFirst(lower)
    }

    static func plural(_ word: String) -> String {
        let lower = word.lowercased()
        if lower.hasSuffix("y"), let before = lower.dropLast().last, !"aeiou".contains(before) { return word.dropLast() + "ies" }
        if ["s", "x", "z", "ch", "sh"].contains(where: { lower.hasSuffix($0) }) { return word + "es" }
        return word + "s"
    }
}
