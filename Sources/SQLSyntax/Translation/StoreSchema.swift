import Foundation
import ObjectModel

/// How a model lies in a database in Core Data's layout: a table `Z<ROOT>` per
/// inheritance root holding every entity of the tree, a column per stored attribute and
/// to-one relationship, join tables for many-to-many relationships.
///
/// ```swift
/// let schema = try StoreSchema(model: model)
/// schema.mapping(for: "ToDo")!.table.name   // "ZTODO"
/// ```
package struct StoreSchema: Sendable {
    /// A column of an entity table.
    package struct Column: Sendable, Hashable {
        package var name: String
        /// The declared type Core Data writes: INTEGER, TIMESTAMP, FLOAT, DECIMAL, VARCHAR, BLOB.
        package var declaredType: SQLColumnType
    }

    /// An index of an entity or join table.
    package struct Index: Sendable, Hashable {
        package var name: String
        package var table: String
        package var columns: [String]
        /// For an index Core Data names `Z_<Entity>_<name>` (a fetch index): each column's
        /// direction, written with `COLLATE BINARY` as Core Data writes it; nil for the plain
        /// indexes it names `<TABLE>_<COLUMN>_INDEX`.
        package var ascending: [Bool]? = nil
        /// Whether no two rows may share the columns' values: a uniqueness constraint's index,
        /// `Z_<Entity>_UNIQUE_<property>_…`.
        package var isUnique = false

        /// The statement that creates the index.
        package func creation(ifNotExists: Bool = false) -> SQLStatement {
            guard let ascending else { return .createIndex(name, on: table, columns: columns, ifNotExists: ifNotExists) }
            return .createIndex(name, on: table, keys: zip(columns, ascending).map { SQLIndexKey($0, ascending: $1) },
                                unique: isUnique, ifNotExists: ifNotExists)
        }
    }

    /// One table per inheritance root.
    package struct Table: Sendable {
        package var name: String
        package var rootEntityName: String
        /// Every column after `Z_PK`, `Z_ENT`, `Z_OPT`, in Core Data's order.
        package var columns: [Column]
        package var indexes: [Index]
        /// Entity numbers of the entities whose rows live here.
        package var entityNumbers: [Int]
    }

    /// A to-one relationship's columns: the destination's `Z_PK`, and its `Z_ENT` when the
    /// destination has sub-entities.
    package struct ForeignKey: Sendable, Hashable {
        package var column: String
        package var entityColumn: String?
        package var destinationEntityName: String
    }

    /// Where a to-many relationship's members are found.
    package enum ToManyStorage: Sendable, Hashable {
        /// A foreign key on the destination's table pointing back at the source.
        case foreignKey(table: String, column: String)
        /// A join table: `ownColumn` holds the source's `Z_PK`, `otherColumn` the destination's.
        case joinTable(name: String, ownColumn: String, otherColumn: String)
    }

    /// A many-to-many join table.
    package struct JoinTable: Sendable, Hashable {
        package var name: String
        package var firstColumn: String
        package var secondColumn: String
        package var index: Index
        /// `Z_FOK_<n><REL>` columns keeping the order of an ordered side.
        package var orderColumns: [String] = []
    }

    /// Everything the store needs about one entity.
    package struct EntityMapping: Sendable {
        package var entity: Entity
        /// `Z_ENT`.
        package var number: Int
        package var table: Table
        /// Stored attributes (own and inherited) with their columns, in `entity.attributes` order.
        package var attributes: [(attribute: AttributeDescription, column: String)]
        /// To-one relationships with their columns.
        package var toOne: [(relationship: RelationshipDescription, key: ForeignKey)]
        /// To-many relationships with their storage.
        package var toMany: [(relationship: RelationshipDescription, storage: ToManyStorage)]

        /// Each attribute column's position in `entity.attributes`, in column order.
        package var attributePositions: [Int] {
            attributes.map { entity.attributeIndex(of: $0.attribute.name)! }
        }

        /// For each attribute column, whether its values may live in files outside the
        /// database (binary and transformable attributes that allow external storage).
        package var externalColumns: [Bool] {
            attributes.map { $0.attribute.allowsExternalBinaryDataStorage && ($0.attribute.type == .binary || $0.attribute.type == .transformable) }
        }

        package func column(forAttribute name: String) -> String? {
            attributes.first { $0.attribute.name == name }?.column
        }

        package func foreignKey(for name: String) -> ForeignKey? {
            toOne.first { $0.relationship.name == name }?.key
        }

        /// Whether saving a change to a to-many relationship writes its members from the
        /// owner's row: a join table, a foreign key without an inverse, or member positions.
        /// Otherwise (a to-one inverse holds it, unordered) the members' own rows say it all.
        package func writesMembers(of name: String) -> Bool {
            guard let storage = toManyStorage(for: name) else { return false }
            if case .foreignKey = storage, orderColumns[name] == nil,
               toMany.first(where: { $0.relationship.name == name })?.relationship.inverseName != nil { return false }
            return true
        }

        package func toManyStorage(for name: String) -> ToManyStorage? {
            toMany.first { $0.relationship.name == name }?.storage
        }

        /// For ordered to-many relationships: the column holding each member's position
        /// (on the destination table, or in the join table).
        package var orderColumns: [String: String] = [:]
    }

    /// A store's `Z_PRIMARYKEY` lacks an entity of the model.
    package struct MissingEntity: Error {
        package var name: String
    }

    package let model: ManagedObjectModel
    package private(set) var tables: [Table] = []
    package private(set) var joinTables: [JoinTable] = []
    package private(set) var mappings: [String: EntityMapping] = [:]
    package private(set) var entityNamesByNumber: [Int: String] = [:]

    /// The schema of a model, with entity numbers taken from `numbers` (an existing store's
    /// `Z_PRIMARYKEY`) where given, else from the model.
    package init(model: ManagedObjectModel, numbers: [String: Int]? = nil) throws {
        self.model = model
        var numberOf: [String: Int] = [:]
        for entity in model.entities {
            if let numbers {
                guard let n = numbers[entity.name] else {
                    throw MissingEntity(name: entity.name)
                }
                numberOf[entity.name] = n
            } else {
                numberOf[entity.name] = entity.number
            }
        }
        for (name, n) in numberOf { entityNamesByNumber[n] = name }

        // Column names per (declaring entity, property), one namespace per root table.
        var columnOfProperty: [String: [String: String]] = [:]   // root -> "Entity.property" -> column
        var tablesByRoot: [String: Table] = [:]
        let roots = model.entities.filter { $0.parentName == nil }.sorted { numberOf[$0.name]! < numberOf[$1.name]! }
        for root in roots {
            let tableName = "Z" + root.name.uppercased()
            let members = root.kindNames.compactMap { model.entity(named: $0) }.sorted { numberOf[$0.name]! < numberOf[$1.name]! }
            var used: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
            var names: [String: String] = [:]
            func unique(_ base: String) -> String {
                if !used.contains(base) { used.insert(base); return base }
                var i = 1
                while used.contains("\(base)\(i)") { i += 1 }
                used.insert("\(base)\(i)")
                return "\(base)\(i)"
            }
            // Columns are grouped by type, as Core Data groups them. Within the integers, each
            // member entity's attributes come before its foreign keys, and the members follow
            // one another: Apple's ZCAR holds Car's ZOWNER before ExpensiveSportCar's
            // ZISLIMITEDEDITION.
            var integers: [Column] = [], timestamps: [Column] = [], floats: [Column] = [], texts: [Column] = [], blobs: [Column] = []
            var indexes: [Index] = []
            for member in members {
                for a in member.declaration.attributes where !a.isTransient {
                    let column = unique("Z" + a.name.uppercased())
                    names["\(member.name).\(a.name)"] = column
                    let c = Column(name: column, declaredType: Self.declaredType(of: a.type))
                    switch c.declaredType {
                    case .integer: integers.append(c)
                    case .timestamp: timestamps.append(c)
                    case .float, .decimal: floats.append(c)
                    case .varchar: texts.append(c)
                    default: blobs.append(c)
                    }
                    if a.isIndexed {
                        indexes.append(Index(name: "\(tableName)_\(column)_INDEX", table: tableName, columns: [column]))
                    }
                }
                for r in member.declaration.relationships where !r.isTransient && !r.isToMany {
                    let column = unique("Z" + r.name.uppercased())
                    names["\(member.name).\(r.name)"] = column
                    if let destination = model.entity(named: r.destinationEntityName), destination.kindNames.count > 1 {
                        let entityColumn = unique("Z\(numberOf[destination.name]!)_" + r.name.uppercased())
                        names["\(member.name).\(r.name)#ent"] = entityColumn
                        integers.append(Column(name: entityColumn, declaredType: .integer))
                    }
                    integers.append(Column(name: column, declaredType: .integer))
                    if let inverseName = r.inverseName,
                       model.entity(named: r.destinationEntityName)?.relationship(named: inverseName)?.isOrdered == true {
                        let order = unique("Z_FOK_" + r.name.uppercased())
                        names["\(member.name).\(r.name)#order"] = order
                        integers.append(Column(name: order, declaredType: .integer))
                    }
                    indexes.append(Index(name: "\(tableName)_\(column)_INDEX", table: tableName, columns: [column]))
                }
            }
            // To-many relationships without an inverse keep a foreign key on the destination.
            columnOfProperty[root.name] = names
            let table = Table(name: tableName, rootEntityName: root.name,
                              columns: integers + timestamps + floats + texts + blobs,
                              indexes: indexes, entityNumbers: members.map { numberOf[$0.name]! })
            tablesByRoot[root.name] = table
        }
        // Foreign keys for to-many relationships that have no inverse: `Z<n><REL>` on the destination.
        for entity in model.entities {
            for r in entity.declaration.relationships where r.isToMany && !r.isTransient && r.inverseName == nil {
                guard let destination = model.entity(named: r.destinationEntityName) else { continue }
                let root = destination.rootName
                let column = "Z\(numberOf[entity.name]!)" + r.name.uppercased()
                columnOfProperty[root, default: [:]]["\(entity.name).\(r.name)#noinverse"] = column
                tablesByRoot[root]!.columns.append(Column(name: column, declaredType: .integer))
                if r.isOrdered {
                    let order = "Z_FOK_\(numberOf[entity.name]!)" + r.name.uppercased()
                    columnOfProperty[root, default: [:]]["\(entity.name).\(r.name)#noinverse#order"] = order
                    tablesByRoot[root]!.columns.append(Column(name: order, declaredType: .integer))
                }
                tablesByRoot[root]!.indexes.append(Index(name: "\(tablesByRoot[root]!.name)_\(column)_INDEX",
                                                         table: tablesByRoot[root]!.name, columns: [column]))
            }
        }
        // The indexes the model asks for: compound and fetch indexes, uniqueness constraints.
        let tableNames = tablesByRoot.mapValues(\.name)
        for (root, index) in Self.modelIndexes(of: model, tableNames: tableNames, columnOfProperty: columnOfProperty) {
            tablesByRoot[root]!.indexes.append(index)
        }
        tables = roots.map { tablesByRoot[$0.name]! }

        // Join tables for many-to-many relationships, named after the lower-numbered side.
        var joinByRelationship: [String: ToManyStorage] = [:]  // "Entity.rel"
        var joinOrder: [String: String] = [:]                  // "Entity.rel" -> order column
        for entity in model.entities {
            for r in entity.declaration.relationships where r.isToMany && !r.isTransient {
                guard let inverseName = r.inverseName, let destination = model.entity(named: r.destinationEntityName),
                      let inverse = destination.relationship(named: inverseName), inverse.isToMany else { continue }
                let key = "\(entity.name).\(r.name)"
                if joinByRelationship[key] != nil { continue }
                let inverseOwner = Self.declaringEntity(of: inverseName, in: destination, model: model)
                let (n1, n2) = (numberOf[entity.name]!, numberOf[inverseOwner]!)
                // The table is named after the side with the smaller number (the smaller name when reflexive).
                let selfNames = n1 < n2 || (n1 == n2 && r.name <= inverseName)
                let (ownerNumber, ownerRel, otherNumber, otherRel) = selfNames
                    ? (n1, r.name, n2, inverseName) : (n2, inverseName, n1, r.name)
                var name = "Z_\(ownerNumber)\(ownerRel.uppercased())"
                while joinTables.contains(where: { $0.name == name }) { name += "1" }
                let first = "Z_\(ownerNumber)\(otherRel.uppercased())"    // the owner's Z_PK
                let second = "Z_\(otherNumber)\(ownerRel.uppercased())"  // the other side's Z_PK
                let ownerRelationship = selfNames ? r : inverse
                let otherRelationship = selfNames ? inverse : r
                var orderColumns: [String] = []
                let ownerKey = selfNames ? key : "\(inverseOwner).\(inverseName)"
                let otherKey = selfNames ? "\(inverseOwner).\(inverseName)" : key
                if ownerRelationship.isOrdered {
                    orderColumns.append("Z_FOK_" + second.dropFirst(2))
                    joinOrder[ownerKey] = orderColumns.last!
                }
                if otherRelationship.isOrdered {
                    orderColumns.append("Z_FOK_" + first.dropFirst(2))
                    joinOrder[otherKey] = orderColumns.last!
                }
                joinTables.append(JoinTable(name: name, firstColumn: first, secondColumn: second,
                                            index: Index(name: "\(name)_\(second)_INDEX", table: name, columns: [second, first]),
                                            orderColumns: orderColumns))
                joinByRelationship[ownerKey] = .joinTable(name: name, ownColumn: first, otherColumn: second)
                joinByRelationship[otherKey] = .joinTable(name: name, ownColumn: second, otherColumn: first)
            }
        }

        for entity in model.entities {
            let root = entity.rootName
            let names = columnOfProperty[root] ?? [:]
            var attributes: [(AttributeDescription, String)] = []
            for a in entity.attributes where !a.isTransient {
                let declaring = Self.declaringEntity(of: a.name, in: entity, model: model)
                attributes.append((a, names["\(declaring).\(a.name)"]!))
            }
            var toOne: [(RelationshipDescription, ForeignKey)] = []
            var toMany: [(RelationshipDescription, ToManyStorage)] = []
            var orderColumns: [String: String] = [:]
            for r in entity.relationships where !r.isTransient {
                let declaring = Self.declaringEntity(of: r.name, in: entity, model: model)
                if !r.isToMany {
                    toOne.append((r, ForeignKey(column: names["\(declaring).\(r.name)"]!,
                                                entityColumn: names["\(declaring).\(r.name)#ent"],
                                                destinationEntityName: r.destinationEntityName)))
                } else if let join = joinByRelationship["\(declaring).\(r.name)"] {
                    toMany.append((r, join))
                    orderColumns[r.name] = joinOrder["\(declaring).\(r.name)"]
                } else if let destination = model.entity(named: r.destinationEntityName) {
                    let destinationTable = tablesByRoot[destination.rootName]!.name
                    if let inverseName = r.inverseName {
                        let inverseOwner = Self.declaringEntity(of: inverseName, in: destination, model: model)
                        let column = columnOfProperty[destination.rootName]?["\(inverseOwner).\(inverseName)"] ?? ""
                        toMany.append((r, .foreignKey(table: destinationTable, column: column)))
                        orderColumns[r.name] = columnOfProperty[destination.rootName]?["\(inverseOwner).\(inverseName)#order"]
                    } else {
                        let column = columnOfProperty[destination.rootName]?["\(declaring).\(r.name)#noinverse"] ?? ""
                        toMany.append((r, .foreignKey(table: destinationTable, column: column)))
                        orderColumns[r.name] = columnOfProperty[destination.rootName]?["\(declaring).\(r.name)#noinverse#order"]
                    }
                }
            }
            var mapping = EntityMapping(entity: entity, number: numberOf[entity.name]!,
                                        table: tablesByRoot[root]!, attributes: attributes,
                                        toOne: toOne, toMany: toMany)
            mapping.orderColumns = orderColumns.filter { _, column in !column.isEmpty }
            mappings[entity.name] = mapping
        }
    }

    /// The mapping of an entity.
    package func mapping(for entityName: String) -> EntityMapping? { mappings[entityName] }

    /// The names of the entities objects can have, indexed by `Z_ENT`: empty where the number
    /// is no entity's or an abstract one's, since no row can be an object of those.
    package var concreteEntityNamesByNumber: [String] {
        let top = entityNamesByNumber.keys.max() ?? 0
        return (0...top).map { n in
            guard let name = entityNamesByNumber[n], model.entity(named: name)?.isAbstract == false else { return "" }
            return name
        }
    }

    /// The entity a `Z_ENT` value stands for.
    package func entityName(forNumber number: Int) -> String? { entityNamesByNumber[number] }

    /// Why a row with `Z_ENT` `number` (nil for NULL) can be no object: what a store's
    /// schema-mismatch error says of it.
    package func unplacedRow(key: Int64, entityNumber number: Int?) -> String {
        "the row with Z_PK \(key) has Z_ENT \(number.map(String.init) ?? "NULL"), which is "
            + (number.flatMap(entityName(forNumber:)).map { "the abstract entity \($0)" } ?? "no entity of the model")
    }

    /// The declared SQL type Core Data uses for an attribute type.
    package static func declaredType(of type: AttributeType) -> SQLColumnType {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: return .integer
        case .date: return .timestamp
        case .double, .float: return .float
        case .decimal: return .decimal
        case .string, .uri: return .varchar
        case .binary, .transformable, .uuid, .objectID, .undefined: return .blob
        }
    }

    /// The entity (the given one or an ancestor) that declares a property.
    package static func declaringEntity(of property: String, in entity: Entity, model: ManagedObjectModel) -> String {
        var current: Entity? = entity
        while let e = current {
            if e.declaration.attributes.contains(where: { $0.name == property })
                || e.declaration.relationships.contains(where: { $0.name == property }) { return e.name }
            current = e.parentName.flatMap { model.entity(named: $0) }
        }
        return entity.name
    }
}
