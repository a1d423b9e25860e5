import Foundation
import GRDB
import SQLSyntax
import ObjectGraph
import ObjectModel

/// A model read off a Core Data SQLite store's layout, for a store found without its model,
/// and what in it is a guess.
///
/// ```swift
/// let inferred = try SQLiteStore.inferModel(at: url)
/// inferred.model.entityNames          // from Z_PRIMARYKEY
/// inferred.guesses["Car.owner"]       // "destination Person: every value is a Person key"
/// ```
public struct InferredModel: Sendable {
    public var model: ManagedObjectModel
    /// What the layout does not settle, by `Entity.property` (or `Entity` alone): the
    /// reason the inference chose as it did.
    public var guesses: [String: String]
    /// Facts about the store as a whole that hold for every property (names, optionality).
    public var notes: [String]

    /// The model attribute that marks a model as inferred (holding the store's path), so
    /// that tools open stores on it read-only unless asked otherwise.
    public static let markerKey = ManagedObjectModel.inferredFromStoreKey

    /// Whether a model was inferred from a store's layout.
    public static func isInferred(_ model: ManagedObjectModel) -> Bool {
        model.xcodeAttributes[markerKey] != nil
    }
}

extension SQLiteStore {
    /// Infers the model of a Core Data SQLite store from its layout (docs/StoreFormats.md,
    /// "Inferring a model"): entities and inheritance from `Z_PRIMARYKEY`, attributes from
    /// the columns and their declared types, to-one relationships from foreign-key columns,
    /// many-to-many relationships from `Z_<n><NAME>` join tables, destinations and inverses
    /// where the layout or the data settle them. The file is read as it is and left so.
    public static func inferModel(at url: URL) throws -> InferredModel {
        try readingFile(at: url) { database in
            try database.read { db in
                var reader = LayoutReader(db: db, path: url.path)
                return try reader.infer()
            }
        }
    }
}

/// Reads one store's layout into a model.
private struct LayoutReader {
    let db: Database
    let path: String

    /// An entity as `Z_PRIMARYKEY` lists it.
    struct StoredEntity {
        let number: Int
        let name: String
        let parentNumber: Int
    }

    /// A column of an entity table with what it was taken for.
    struct TableColumn {
        let name: String
        let declaredType: String
    }

    /// How many distinct values a guess looks at: enough to tell, proportional to nothing.
    static let sample = 200

    private var entities: [Int: StoredEntity] = [:]
    private var byName: [String: StoredEntity] = [:]
    private var descriptions: [String: EntityDescription] = [:]
    private var guesses: [String: String] = [:]
    /// Each table's columns (names in capitals), read once.
    private var tableColumns: [String: [TableColumn]] = [:]

    init(db: Database, path: String) {
        self.db = db
        self.path = path
    }

    mutating func infer() throws -> InferredModel {
        guard try db.tableExists("Z_PRIMARYKEY") else {
            throw ObjectGraphError.storeFormat(file: path, reason: "not a Core Data store (no Z_PRIMARYKEY table to name its entities)")
        }
        try readEntityTable()
        for entity in entities.values {
            let parent = entity.parentNumber == 0 ? nil : entities[entity.parentNumber]?.name
            descriptions[entity.name] = EntityDescription(name: entity.name, parent: parent)
        }
        // Rows Core Data keeps for entities whose table is gone (a renamed entity's old
        // name) have no table: they are not entities of this store's model.
        let roots = entities.values.filter { $0.parentNumber == 0 || entities[$0.parentNumber] == nil }.sorted { $0.number < $1.number }
        for root in roots where try !db.tableExists(table(of: root)) {
            for member in members(of: root.number) { descriptions[entities[member]!.name] = nil }
        }
        if descriptions.isEmpty {
            let tables = roots.map { table(of: $0) }
            throw ObjectGraphError.storeFormat(file: path, reason: "Z_PRIMARYKEY names \(roots.map(\.name).joined(separator: ", ")), and the store has none of their tables (\(tables.joined(separator: ", "))); the store's entities cannot be known without its model (give --model)")
        }
        var toOnes: [(owner: String, name: String, column: String, table: String, destination: String)] = []
        for root in roots where descriptions[root.name] != nil {
            toOnes += try readTable(of: root)
        }
        try addInverses(of: toOnes)
        try readJoinTables()
        try readToManyWithoutInverse(roots: roots)
        for name in descriptions.keys {
            descriptions[name]!.attributes.sort { $0.name.caseInsensitiveCompare($1.name) == .orderedAscending }
            descriptions[name]!.relationships.sort { $0.name.caseInsensitiveCompare($1.name) == .orderedAscending }
        }
        let ordered = descriptions.values.sorted { a, b in byName[a.name]!.number < byName[b.name]!.number }
        let model = try ManagedObjectModel(entities: ordered, xcodeAttributes: [InferredModel.markerKey: path])
        return InferredModel(model: model, guesses: guesses, notes: [
            "Names: entities are named as Z_PRIMARYKEY names them; a property is named after its column in lower case (Core Data's columns keep no case), except where a uniqueness index spells it.",
            "Optionality, defaults, validation and delete rules are not kept in the layout: every property is optional, with no default, and relationships nullify.",
        ])
    }

    /// The entities `Z_PRIMARYKEY` lists, checked as another program may have written them:
    /// numbers that are positive integers and given once, names that are names, and parents
    /// that make a tree (no entity its own ancestor). What is not is refused, naming the row;
    /// a parent the table does not list makes its children roots, as Core Data's renamed
    /// entities leave them.
    private mutating func readEntityTable() throws {
        func refuse(_ reason: String) -> ObjectGraphError {
            .storeFormat(file: path, reason: "Z_PRIMARYKEY " + reason + "; the store's entities cannot be known without its model (give --model)")
        }
        func shown(_ value: DatabaseValue) -> String {
            switch value.storage {
            case .null: return "NULL"
            case .string(let s): return "'\(s.prefix(40))'"
            case .blob(let b): return "\(b.count) bytes"
            case .int64(let i): return "\(i)"
            case .double(let d): return "\(d)"
            }
        }
        for row in try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT") {
            let numberValue: DatabaseValue = row["Z_ENT"], nameValue: DatabaseValue = row["Z_NAME"], parentValue: DatabaseValue = row["Z_SUPER"]
            // Core Data's own bookkeeping rows for history have no table of the model's kind.
            guard case .string(let name) = nameValue.storage else {
                throw refuse("has a row whose Z_NAME is \(shown(nameValue)), not an entity name")
            }
            guard case .int64(let number64) = numberValue.storage, number64 > 0, let number = Int(exactly: number64) else {
                throw refuse("gives the entity \(name) the number \(shown(numberValue)); entity numbers are integers from 1 on")
            }
            let parent: Int
            switch parentValue.storage {
            case .null: parent = 0
            case .int64(let p) where p >= 0: parent = Int(p)
            default: throw refuse("gives the entity \(name) the parent \(shown(parentValue)); Z_SUPER is an entity number, or 0 for none")
            }
            guard parent != number else { throw refuse("makes the entity \(name) its own parent (Z_SUPER \(parent))") }
            guard ManagedObjectModel.isValidName(name) else {
                throw ModelError(.invalidName(name), file: path, entity: name)
            }
            if let other = entities[number] { throw refuse("gives the number \(number) to both \(other.name) and \(name)") }
            if let other = byName[name] { throw refuse("lists the entity \(name) twice (numbers \(other.number) and \(number))") }
            let entity = StoredEntity(number: number, name: name, parentNumber: parent)
            entities[number] = entity
            byName[name] = entity
        }
        guard !entities.isEmpty else {
            throw ObjectGraphError.storeFormat(file: path, reason: "Z_PRIMARYKEY names no entities")
        }
        for entity in entities.values.sorted(by: { $0.number < $1.number }) {
            var seen: [Int] = [entity.number]
            var current = entity.parentNumber
            while current != 0, let parent = entities[current] {
                guard !seen.contains(current) else {
                    let chain = (seen + [current]).compactMap { entities[$0]?.name }
                    throw refuse("makes the entities' parents a cycle: \(chain.joined(separator: " → "))")
                }
                seen.append(current)
                current = parent.parentNumber
            }
        }
    }

    private func table(of root: StoredEntity) -> String { "Z" + root.name.uppercased() }

    private mutating func columns(of table: String) throws -> [TableColumn] {
        if let known = tableColumns[table] { return known }
        let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(quote(table)))").map {
            TableColumn(name: ($0["name"] as String).uppercased(), declaredType: (($0["type"] as String?) ?? "").uppercased())
        }
        tableColumns[table] = columns
        return columns
    }

    /// An entity's number and its descendants'.
    private func members(of number: Int) -> [Int] {
        [number] + entities.values.filter { $0.parentNumber == number }.flatMap { members(of: $0.number) }
    }

    private func quote(_ name: String) -> String { SQLiteStore.dialect.quote(name) }

    /// The entity that declares a column of a table shared by several entities: the nearest
    /// common ancestor of the entities whose rows hold a value in it; the root when none do.
    private func declaringEntity(of column: String, in table: String, root: StoredEntity) throws -> (name: String, isGuess: Bool) {
        let members = members(of: root.number)
        guard members.count > 1 else { return (root.name, false) }
        let used = try Int.fetchAll(db, sql: "SELECT DISTINCT Z_ENT FROM \(quote(table)) WHERE \(quote(column)) IS NOT NULL LIMIT \(Self.sample)")
        guard !used.isEmpty else { return (root.name, false) }
        let owner = commonAncestor(of: used) ?? root.name
        return (owner, owner != root.name)
    }

    private func ancestors(of number: Int) -> [Int] {
        var chain: [Int] = []
        var current: Int? = number
        while let n = current, let entity = entities[n], !chain.contains(n) {
            chain.append(n)
            current = entity.parentNumber == 0 ? nil : entity.parentNumber
        }
        return chain
    }

    private func commonAncestor(of numbers: [Int]) -> String? {
        guard let first = numbers.first else { return nil }
        var common = ancestors(of: first)
        for n in numbers.dropFirst() {
            let chain = Set(ancestors(of: n))
            common = common.filter { chain.contains($0) }
        }
        return common.first.flatMap { entities[$0]?.name }
    }

    /// Names a uniqueness index spells in their own case: `Z_Car_UNIQUE_numberPlate` on
    /// (ZNUMBERPLATE) names `numberPlate`. Returns column → name, and each index's names.
    private func namesFromUniqueIndexes(_ table: String) throws -> (names: [String: String], constraints: [(entity: String, names: [String])]) {
        var names: [String: String] = [:]
        var constraints: [(String, [String])] = []
        for index in try Row.fetchAll(db, sql: "PRAGMA index_list(\(quote(table)))") {
            guard let indexName: String = index["name"], indexName.hasPrefix("Z_"),
                  let marker = indexName.range(of: "_UNIQUE_") else { continue }
            let entity = String(indexName[indexName.index(indexName.startIndex, offsetBy: 2)..<marker.lowerBound])
            var rest = Substring(indexName[marker.upperBound...])
            let columns = try Row.fetchAll(db, sql: "PRAGMA index_info(\(quote(indexName)))").compactMap { $0["name"] as String? }
            var spelled: [String] = []
            for column in columns {
                let upper = String(column.dropFirst())
                guard rest.uppercased().hasPrefix(upper) else { spelled = []; break }
                let name = String(rest.prefix(upper.count))
                spelled.append(name)
                names[column] = name
                rest = rest.dropFirst(upper.count)
                if rest.hasPrefix("_") { rest = rest.dropFirst() }
            }
            if spelled.count == columns.count, !spelled.isEmpty, byName[entity] != nil { constraints.append((entity, spelled)) }
        }
        return (names, constraints)
    }

    /// The property name a column gives: as a uniqueness index spells it, else in lower case.
    private func propertyName(_ column: String, spelled: [String: String]) -> String {
        spelled[column] ?? String(column.dropFirst()).lowercased()
    }

    private mutating func readTable(of root: StoredEntity) throws -> [(owner: String, name: String, column: String, table: String, destination: String)] {
        let table = table(of: root)
        let columns = try columns(of: table)
        let names = Set(columns.map(\.name))
        let indexed = Set(try Row.fetchAll(db, sql: "PRAGMA index_list(\(quote(table)))").compactMap { row -> String? in
            guard let name: String = row["name"], name.hasPrefix(table + "_"), name.hasSuffix("_INDEX") else { return nil }
            return String(name.dropFirst(table.count + 1).dropLast("_INDEX".count))
        })
        let (spelled, constraints) = try namesFromUniqueIndexes(table)
        for (entity, group) in constraints { descriptions[entity]?.uniquenessConstraints.append(group) }
        var toOnes: [(owner: String, name: String, column: String, table: String, destination: String)] = []
        for column in columns {
            let name = column.name
            guard name.hasPrefix("Z"), !["Z_PK", "Z_ENT", "Z_OPT"].contains(name) else { continue }
            // Bookkeeping: order keys and the destination-entity columns of to-ones; a
            // to-many without an inverse (`Z<n><REL>`) is read from its owner's side.
            if name.hasPrefix("Z_") || name.dropFirst().first?.isNumber == true { continue }
            let property = propertyName(name, spelled: spelled)
            guard ManagedObjectModel.isValidName(property) else { continue }
            let (owner, ownerIsGuess) = try declaringEntity(of: name, in: table, root: root)
            let key = "\(owner).\(property)"
            if column.declaredType.hasPrefix("INT"), let destination = try destination(of: name, in: table, root: root,
                                                                                       names: names, indexed: indexed.contains(name),
                                                                                       key: key) {
                descriptions[owner]!.relationships.append(RelationshipDescription(
                    name: property, destination: destination, isToMany: false))
                toOnes.append((owner, property, name, table, destination))
                if ownerIsGuess, guesses[key] == nil { guesses[key] = "declared on \(owner): the rows that hold a value are \(owner)s" }
                continue
            }
            let (type, typeGuess) = try attributeType(of: column, in: table)
            descriptions[owner]!.attributes.append(AttributeDescription(name: property, type: type))
            var reasons: [String] = []
            if let typeGuess { reasons.append(typeGuess) }
            if ownerIsGuess { reasons.append("declared on \(owner): the rows that hold a value are \(owner)s") }
            if !reasons.isEmpty { guesses[key] = reasons.joined(separator: "; ") }
        }
        return toOnes
    }

    /// The type a column's declared type and values give, and why, when that is a guess.
    private func attributeType(of column: TableColumn, in table: String) throws -> (AttributeType, String?) {
        let t = column.declaredType
        if t.hasPrefix("INT") {
            let values = try DatabaseValue.fetchAll(db, sql: "SELECT DISTINCT \(quote(column.name)) FROM \(quote(table)) WHERE \(quote(column.name)) IS NOT NULL LIMIT 3")
            let flags = values.allSatisfy { Int64.fromDatabaseValue($0).map { $0 == 0 || $0 == 1 } ?? false }
            let prefixes = ["IS", "HAS", "SHOULD", "CAN", "DID", "WAS", "ALLOWS", "USES", "SHOWS", "NEEDS", "WANTS"]
            let name = String(column.name.dropFirst())
            if !values.isEmpty, flags, prefixes.contains(where: { name.hasPrefix($0) && name.count > $0.count }) {
                return (.boolean, "Boolean: an INTEGER column of 0 and 1 named like a flag")
            }
            return (.integer64, "Integer 64: INTEGER columns hold Integer 16, 32 and 64 and Boolean alike")
        }
        if t == "TIMESTAMP" { return (.date, nil) }
        if t.hasPrefix("VARCHAR") || t.hasPrefix("TEXT") { return (.string, nil) }
        if t == "FLOAT" || t == "REAL" || t == "DOUBLE" { return (.double, "Double: FLOAT columns hold Float and Double alike") }
        if t.hasPrefix("DECIMAL") || t == "NUMERIC" { return (.decimal, nil) }
        if t == "BLOB" {
            let lengths = try Int.fetchAll(db, sql: "SELECT DISTINCT length(\(quote(column.name))) FROM \(quote(table)) WHERE \(quote(column.name)) IS NOT NULL LIMIT 3")
            if lengths == [16] {
                return (.uuid, "UUID: every value is 16 bytes")
            }
            return (.binary, "Binary: BLOB columns hold Binary, Transformable and UUID values alike")
        }
        // A type Core Data does not write (another program's column): its kind of value by
        // SQLite's rules, so that the store opens on the model inferred from it.
        switch StoreSchema.ValueKind(declaredType: t) {
        case .text: return (.string, "String: the declared type \(t) is not one Core Data writes, and holds text")
        case .numbers where t.contains("INT"): return (.integer64, "Integer 64: the declared type \(t) is not one Core Data writes, and holds integers")
        case .numbers: return (.double, "Double: the declared type \(t) is not one Core Data writes, and holds numbers")
        case .bytes: return (.binary, "Binary: the declared type \(t) is not one Core Data writes, and holds bytes")
        case .any: return (.undefined, "Undefined: the column's declared type is empty, so it holds any value")
        }
    }

    /// The destination of a to-one relationship stored in an INTEGER column, or `nil` when
    /// the column is taken for an integer attribute.
    private mutating func destination(of column: String, in table: String, root: StoredEntity, names: Set<String>,
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
    private mutating func addInverses(of toOnes: [(owner: String, name: String, column: String, table: String, destination: String)]) throws {
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
    private mutating func readJoinTables() throws {
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
    private mutating func readToManyWithoutInverse(roots: [StoredEntity]) throws {
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
