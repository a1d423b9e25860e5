import Foundation
import Migration
import ObjectGraph
import Predicates

/// The versioning article's custom policy for moving ToDo items from version 1 to 2:
/// items whose name starts with "a" (in either case) get doNotAlert = YES; the rest keep
/// the default NO. The bundled mapping, `ToDo.termdata-mapping` beside the model, names it;
/// every program that migrates ToDo stores registers it (the app and `termdata` do).
public final class DoNotAlertMigrationPolicy: EntityMigrationPolicy {
    /// The name the ToDo mapping refers to.
    public static let name = "ToDoDoNotAlert"

    public static func register() {
        MigrationPolicies.register(DoNotAlertMigrationPolicy.self, as: name)
    }

    public override func createDestinationInstances(forSource source: ManagedObject, mapping: EntityMapping,
                                                    manager: MigrationManager) throws {
        try super.createDestinationInstances(forSource: source, mapping: mapping, manager: manager)
        // The source is of version 1, whose objects have no class: its keys are read by name.
        guard (source.string("name") ?? "").lowercased().hasPrefix("a") else { return }
        for destination in manager.destinationInstances(forEntityMappingNamed: mapping.name, sourceInstances: [source]) {
            try destination.setValue(true, forKey: "doNotAlert")
        }
    }
}
