import Foundation
import GRDB
import SQLSyntax
import ObjectGraph
import ObjectModel

extension LayoutReader {
    /// The entities `Z_PRIMARYKEY` lists, checked as another program may have written them:
    /// numbers that are positive integers and given once, names that are names, and parents
    /// that make a tree (no entity its own ancestor). What is not is refused, naming the row;
    /// a parent the table does not list makes its children roots, as Core Data's renamed
    /// entities leave them.
    mutating func readEntityTable() throws {
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

    func table(of root: StoredEntity) -> String { "Z" + root.name.uppercased() }

    mutating func columns(of table: String) throws -> [TableColumn] {
        if let known = tableColumns[table] { return known }
        let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(quote(table)))").map {
            TableColumn(name: ($0["name"] as String).uppercased(), declaredType: (($0["type"] as String?) ?? "").uppercased())
        }
        tableColumns[table] = columns
        return columns
    }

    /// An entity's number and its descendants'.
    func members(of number: Int) -> [Int] {
        [number] + entities.values.filter { $0.parentNumber == number }.flatMap { members(of: $0.number) }
    }

    func quote(_ name: String) -> String { SQLiteStore.dialect.quote(name) }

    /// The entity that declares a column of a table shared by several entities: the nearest
    /// common ancestor of the entities whose rows hold a value in it; the root when none do.
    func declaringEntity(of column: String, in table: String, root: StoredEntity) throws -> (name: String, isGuess: Bool) {
        let members = members(of: root.number)
        guard members.count > 1 else { return (root.name, false) }
        let used = try Int.fetchAll(db, sql: "SELECT DISTINCT Z_ENT FROM \(quote(table)) WHERE \(quote(column)) IS NOT NULL LIMIT \(Self.sample)")
        guard !used.isEmpty else { return (root.name, false) }
        let owner = commonAncestor(of: used) ?? root.name
        return (owner, owner != root.name)
    }

    func ancestors(of number: Int) -> [Int] {
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
}
