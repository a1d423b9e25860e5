import Foundation
import ObjectModel

extension PersistentStoreCoordinator {
    /// Changes a store file from one model version to another where it lies, when the
    /// store type can: `renames` gives, per entity, new attribute or relationship names →
    /// old ones. Returns false, having changed nothing, when the change is beyond it.
    public typealias InPlaceMigrator = @Sendable (_ url: URL, _ source: ManagedObjectModel, _ destination: ManagedObjectModel,
                                                  _ renames: [String: [String: String]]) throws -> Bool

    /// Changes a store on a server through every step of a migration in one transaction;
    /// returns the index of the first step beyond a change in place (the store left as it
    /// was), or nil when the store is at the last step's version.
    public typealias TransactionalMigrator = @Sendable (_ url: URL, _ steps: [InPlaceMigrationStep]) throws -> Int?

    // Unsafe only in name: every read and write of these two goes through `registryLock`
    // (below). A `Mutex` around them trips ThreadSanitizer's access checks on this toolchain
    // when two stores register at once, though the lock holds.
    nonisolated(unsafe) private static var inPlaceMigrators: [StoreType: InPlaceMigrator] = [:]
    nonisolated(unsafe) private static var transactionalMigrators: [StoreType: TransactionalMigrator] = [:]
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

    /// Lets migrations of a store type run every step in one transaction (the PostgreSQL store does).
    public static func registerTransactionalMigrator(_ type: StoreType, migrator: @escaping TransactionalMigrator) {
        registryLock.lock()
        defer { registryLock.unlock() }
        transactionalMigrators[type] = migrator
    }

    /// The transactional migrator of a store type, if it has one.
    public static func transactionalMigrator(for type: StoreType) -> TransactionalMigrator? {
        registryLock.lock()
        defer { registryLock.unlock() }
        return transactionalMigrators[type]
    }
}

/// One step of a migration done in place: the versions it goes between and what it renames
/// (per entity, new property name → old name).
public struct InPlaceMigrationStep: Sendable {
    /// The model version the store is at before the step.
    public var source: ManagedObjectModel
    /// The model version the step brings the store to.
    public var destination: ManagedObjectModel
    /// The properties the step renames: per entity name, each new property name to its old one.
    public var renames: [String: [String: String]]

    /// A step from one model version to another, with what it renames.
    public init(source: ManagedObjectModel, destination: ManagedObjectModel, renames: [String: [String: String]]) {
        self.source = source
        self.destination = destination
        self.renames = renames
    }
}
