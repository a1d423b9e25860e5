import Foundation
import ObjectModel
import Predicates

/// What changes in an entity table when a store goes from one model version to the next
/// where it lies: the columns dropped, renamed and added, the defaults filled in, and the
/// indexes. Planned once from the two layouts; each engine renders it in its own types.
///
/// It covers what lightweight migration infers on the same entities: attributes and to-one
/// relationships added, removed, renamed, made optional, made required with a default,
/// integers widened; and, where the engine asks (`addsEntities`), whole inheritance trees and
/// many-to-many relationships added or removed. Anything else (an entity renamed, added to
/// or removed from a tree, a change of inheritance, a column whose stored type changes) has
/// no plan.
package struct SchemaChange: Sendable {
    /// The changes of one entity table.
    package struct TableChange: Sendable {
        package var table: String
        package var dropped: [String] = []
        package var renamed: [(from: String, to: String)] = []
        /// New columns: an attribute's, or a to-one key (`attribute` nil).
        package var added: [(column: String, attribute: AttributeDescription?)] = []
        /// Values written into a column for rows of `entities`; only where it is NULL when
        /// `onlyNull` (an attribute made required).
        package var fills: [(column: String, value: ObjectValue, entities: [Int], onlyNull: Bool)] = []
        package var droppedIndexes: [StoreSchema.Index] = []
        /// Every index the table has afterwards (made where missing).
        package var indexes: [StoreSchema.Index] = []
    }

    package let old: StoreSchema
    package let new: StoreSchema
    package private(set) var tables: [TableChange] = []
    /// Tables of inheritance trees the destination adds, and join tables it adds.
    package private(set) var addedTables: [StoreSchema.Table] = []
    package private(set) var addedJoinTables: [StoreSchema.JoinTable] = []
    /// Tables of inheritance trees the destination removes, and join tables it removes.
    package private(set) var droppedTables: [StoreSchema.Table] = []
    package private(set) var droppedJoinTables: [StoreSchema.JoinTable] = []
    /// Entities the destination adds (each in a tree of its own) and removes.
    package private(set) var addedEntities: [String] = []
    package private(set) var removedEntities: [String] = []

    /// The plan from `source` to `destination`, or nil when the change is beyond a change in
    /// place.
    ///
    /// - Parameters:
    ///   - numbers: the store's entity numbers (`Z_PRIMARYKEY`), covering both versions.
    ///   - renames: per entity, new property name → old name.
    ///   - storedType: the type a column of an attribute type has in the engine; a column
    ///     whose type would change has no plan.
    ///   - addsEntities: whether whole inheritance trees and many-to-many relationships may
    ///     come and go (tables made and dropped); an entity renamed, or added to or removed
    ///     from a tree that stays, still has no plan.
    package init?(from source: ManagedObjectModel, to destination: ManagedObjectModel, numbers: [String: Int],
                  renames: [String: [String: String]], storedType: (AttributeType) -> SQLColumnType,
                  addsEntities: Bool = false) throws {
        let before = Set(source.entityNames), after = Set(destination.entityNames)
        let added = after.subtracting(before), removed = before.subtracting(after)
        guard addsEntities || (added.isEmpty && removed.isEmpty) else { return nil }
        // Whole trees only, and none named as another's former name (a rename).
        guard added.allSatisfy({ added.contains(destination.entity(named: $0)!.rootName) }),
              removed.allSatisfy({ removed.contains(source.entity(named: $0)!.rootName) }),
              !added.contains(where: { destination.entity(named: $0)?.declaration.renamingIdentifier.map(removed.contains) == true }),
              source.entities.filter({ after.contains($0.name) })
                .allSatisfy({ destination.entity(named: $0.name)?.parentName == $0.parentName }) else { return nil }
        old = try StoreSchema(model: source, numbers: numbers)
        new = try StoreSchema(model: destination, numbers: numbers)
        addedEntities = destination.entityNames.filter(added.contains)
        removedEntities = source.entityNames.filter(removed.contains)
        addedTables = new.tables.filter { added.contains($0.rootEntityName) }
        droppedTables = old.tables.filter { removed.contains($0.rootEntityName) }
        let oldKept = old.tables.filter { !removed.contains($0.rootEntityName) }
        let newKept = new.tables.filter { !added.contains($0.rootEntityName) }
        guard oldKept.map(\.name) == newKept.map(\.name) else { return nil }
        if addsEntities {
            // A join table is kept only as it was: one of the same name but other columns has no plan.
            for join in new.joinTables where !old.joinTables.contains(join) {
                guard !old.joinTables.contains(where: { $0.name == join.name }) else { return nil }
                addedJoinTables.append(join)
            }
            droppedJoinTables = old.joinTables.filter { join in !new.joinTables.contains(join) }
        } else {
            guard old.joinTables == new.joinTables else { return nil }
        }
        for (oldTable, newTable) in zip(oldKept, newKept) {
            guard let change = Self.change(from: oldTable, to: newTable, source: source, destination: destination, old: old, new: new,
                                           numbers: numbers, renames: renames, storedType: storedType) else { return nil }
            tables.append(change)
        }
    }

    private static func change(from oldTable: StoreSchema.Table, to newTable: StoreSchema.Table,
                               source: ManagedObjectModel, destination: ManagedObjectModel, old: StoreSchema, new: StoreSchema,
                               numbers: [String: Int], renames: [String: [String: String]],
                               storedType: (AttributeType) -> SQLColumnType) -> TableChange? {
        var change = TableChange(table: newTable.name)
        let oldColumns = Set(oldTable.columns.map(\.name))
        var kept: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]

        for entityName in destination.entities.filter({ $0.rootName == newTable.rootEntityName }).map(\.name) {
            guard let entity = destination.entity(named: entityName), let newMapping = new.mappings[entityName],
                  let oldMapping = old.mappings[entityName], let oldEntity = source.entity(named: entityName) else { return nil }
            let kinds = entity.kindNames.compactMap { numbers[$0] }
            // An abstract entity has no mapping of its own: the renames of the properties it
            // declares are found in the mappings of the entities that inherit them.
            var entityRenames = renames[entityName] ?? [:]
            for kind in entity.kindNames where kind != entityName {
                entityRenames.merge(renames[kind] ?? [:]) { own, _ in own }
            }
            for a in entity.declaration.attributes where !a.isTransient {
                guard let column = newMapping.column(forAttribute: a.name) else { return nil }
                let oldName = entityRenames[a.name] ?? a.name
                if let oldAttribute = oldEntity.attribute(named: oldName), !oldAttribute.isTransient,
                   let oldColumn = oldMapping.column(forAttribute: oldName) {
                    guard storedType(oldAttribute.type) == storedType(a.type) else { return nil }
                    // Values kept externally are tagged; a change either way rewrites them.
                    guard oldAttribute.allowsExternalBinaryDataStorage == a.allowsExternalBinaryDataStorage else { return nil }
                    if oldColumn != column { change.renamed.append((oldColumn, column)) }
                    kept.insert(oldColumn)
                    if !a.isOptional, oldAttribute.isOptional, a.defaultValue != .null {
                        guard !a.allowsExternalBinaryDataStorage else { return nil }
                        change.fills.append((column, a.defaultValue, kinds, true))
                    }
                } else {
                    change.added.append((column, a))
                    if a.defaultValue != .null {
                        guard !a.allowsExternalBinaryDataStorage else { return nil }
                        change.fills.append((column, a.defaultValue, kinds, false))
                    }
                }
            }
            for r in entity.declaration.relationships where !r.isTransient && !r.isToMany {
                guard let key = newMapping.foreignKey(for: r.name) else { return nil }
                let oldName = entityRenames[r.name] ?? r.name
                if let oldKey = oldMapping.foreignKey(for: oldName) {
                    guard (oldKey.entityColumn == nil) == (key.entityColumn == nil) else { return nil }
                    for (from, to) in [(oldKey.column, key.column), (oldKey.entityColumn, key.entityColumn)] {
                        guard let from, let to else { continue }
                        if from != to { change.renamed.append((from, to)) }
                        kept.insert(from)
                    }
                } else {
                    change.added.append((key.column, nil))
                    if let entityColumn = key.entityColumn { change.added.append((entityColumn, nil)) }
                }
            }
        }
        // To-many relationships without an inverse keep their key on this table.
        for column in newTable.columns where oldColumns.contains(column.name) && !change.renamed.contains(where: { $0.to == column.name }) {
            if !change.added.contains(where: { $0.column == column.name }) { kept.insert(column.name) }
        }
        // Keys the table holds for other entities' relationships (a to-many without an
        // inverse, the order of an ordered inverse) that it lacked: new integer columns.
        for column in newTable.columns where !oldColumns.contains(column.name) && !change.renamed.contains(where: { $0.to == column.name })
            && !change.added.contains(where: { $0.column == column.name }) {
            guard column.declaredType == .integer else { return nil }
            change.added.append((column.name, nil))
        }
        let targets = Set(change.renamed.map(\.to))
        guard targets.allSatisfy({ !oldColumns.contains($0) || !kept.contains($0) }) else { return nil }
        change.dropped = oldColumns.filter { !kept.contains($0) }.sorted()
        change.droppedIndexes = oldTable.indexes.filter { !newTable.indexes.contains($0) }
        change.indexes = newTable.indexes
        return change
    }
}
