import GRDB
import SQLSyntax
import ObjectModel

extension StoreSchema {
    /// The entity numbers a store's `Z_PRIMARYKEY` table gives, by entity name, for the
    /// entities of `models`.
    ///
    /// Core Data renames an entity through its renaming identifier without renaming its row
    /// in `Z_PRIMARYKEY`: SampleModel's store written with version 2 still names `LuxuryCar`
    /// there `ExpensiveSportCar`. An entity whose name the table lacks takes the number of
    /// the row its renaming identifier names, unless that name is an entity of the same
    /// model.
    static func entityNumbers(in db: Database, for models: [ManagedObjectModel]) throws -> [String: Int] {
        var numbers: [String: Int] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY") {
            // Read as they are: another program may have written text where a number belongs,
            // and such a row names no entity (GRDB would stop the program at a typed read).
            if let name = String.fromDatabaseValue(row["Z_NAME"]), let number = Int.fromDatabaseValue(row["Z_ENT"]) { numbers[name] = number }
        }
        let stored = numbers
        for model in models {
            for entity in model.entityDescriptions where stored[entity.name] == nil {
                guard let old = entity.renamingIdentifier, model.entity(named: old) == nil,
                      let number = stored[old] else { continue }
                numbers[entity.name] = number
            }
        }
        return numbers
    }
}
