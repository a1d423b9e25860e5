import Foundation
import ObjectModel

extension StoreSchema {
    /// The indexes a model asks for beyond Core Data's per-column ones, each on its entity's
    /// table (by root entity name), in the order they are created:
    ///
    /// - compound indexes, `<TABLE>_<COLUMN>_…_INDEX`;
    /// - fetch indexes as Core Data creates them, `Z_<Entity>_<name>`, each column with its
    ///   direction (R-tree and expression elements are not created);
    /// - uniqueness constraints as Core Data keeps them, a unique index
    ///   `Z_<Entity>_UNIQUE_<property>_…`, so that no writer (another program's SQL included)
    ///   can store a second object with the same values.
    ///
    /// A group naming a property without a column of its own (a to-many) is left out.
    static func modelIndexes(of model: ManagedObjectModel, tableNames: [String: String],
                             columnOfProperty: [String: [String: String]]) -> [(root: String, index: Index)] {
        var indexes: [(root: String, index: Index)] = []
        func columns(_ names: [String], of entity: Entity) -> [String]? {
            let found = names.compactMap { name -> String? in
                columnOfProperty[entity.rootName]?["\(declaringEntity(of: name, in: entity, model: model)).\(name)"]
            }
            return found.count == names.count && !found.isEmpty ? found : nil
        }
        for entity in model.entities {
            for group in entity.declaration.compoundIndexes where group.count > 1 {
                guard let columns = columns(group, of: entity), let table = tableNames[entity.rootName] else { continue }
                indexes.append((entity.rootName, Index(name: "\(table)_\(columns.joined(separator: "_"))_INDEX", table: table, columns: columns)))
            }
        }
        for entity in model.entities {
            for fetchIndex in entity.declaration.fetchIndexes {
                guard let names = fetchIndex.binaryPropertyNames, let columns = columns(names, of: entity),
                      let table = tableNames[entity.rootName] else { continue }
                indexes.append((entity.rootName, Index(name: "Z_\(entity.name)_\(fetchIndex.name)", table: table, columns: columns,
                                                       ascending: fetchIndex.elements.map(\.ascending))))
            }
        }
        for entity in model.entities {
            for constraint in entity.declaration.uniquenessConstraints {
                // A sub-entity's constraint over a property it inherits holds among its own
                // objects only, where an index on the shared table would hold among its parent's
                // and siblings' rows too: it gets none, and the context checks it as it saves.
                // (A property the entity declares is empty in every other entity's rows.)
                let ownRows = entity.ancestorNames.isEmpty
                    || constraint.allSatisfy { declaringEntity(of: $0, in: entity, model: model) == entity.name }
                guard ownRows, let columns = columns(constraint, of: entity), let table = tableNames[entity.rootName] else { continue }
                indexes.append((entity.rootName, Index(name: "Z_\(entity.name)_UNIQUE_\(constraint.joined(separator: "_"))",
                                                       table: table, columns: columns,
                                                       ascending: columns.map { _ in true }, isUnique: true)))
            }
        }
        return indexes
    }
}
