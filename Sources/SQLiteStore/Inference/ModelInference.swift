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
    /// The model read off the layout, marked with `markerKey` (the store's path) as inferred.
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
struct LayoutReader {
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

    var entities: [Int: StoredEntity] = [:]
    var byName: [String: StoredEntity] = [:]
    var descriptions: [String: EntityDescription] = [:]
    var guesses: [String: String] = [:]
    /// Each table's columns (names in capitals), read once.
    var tableColumns: [String: [TableColumn]] = [:]

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
}
