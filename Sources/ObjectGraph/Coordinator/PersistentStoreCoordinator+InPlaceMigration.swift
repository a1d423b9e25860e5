import Foundation
import ObjectModel

extension PersistentStoreCoordinator {
    /// Changes a store file from one model version to another where it lies, when the
    /// store type can: `renames` gives, per entity, new attribute or relationship names →
    /// old ones. Returns false, having changed nothing, when the change is beyond it.
    public typealias InPlaceMigrator = @Sendable (_ url: URL, _ source: ManagedObjectModel, _ destination: ManagedObjectModel,
                                                  _ renames: [String: [String: String]]) throws -> Bool

    nonisolated(unsafe) private static var inPlaceMigrators: [StoreType: InPlaceMigrator] = [:]
    private static let registryLock = NSLock()

    /// Lets migrations of a store type change the file in place (the SQLite store does).
    public static func registerInPlaceMigrator(_ type: StoreType, migrator: @escaping InPlaceMigrator) {
        registryLock.lock()
        defer { registryLock.unlock() }
        inPlaceMigrators[type] = migrator
    }

    /// The in-place migrator of a store type, if it has one.
    public static func inPlaceMigrator(for type: StoreType) -> InPlaceMigrator? {
        registryLock.lock()
        defer { registryLock.unlock() }
        return inPlaceMigrators[type]
    }
}
