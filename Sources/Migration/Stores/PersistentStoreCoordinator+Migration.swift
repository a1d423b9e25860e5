import Foundation
import ObjectGraph
import ObjectModel

extension PersistentStoreCoordinator {
    /// A coordinator for the current version of a model that knows its earlier versions:
    /// `addStore` with `migratesAutomatically` finds the version a store was written with
    /// among them and migrates it step by step, through `mappings` where they are given
    /// (custom policies included) and inference elsewhere unless `infersMappingModel` is off.
    ///
    /// ```swift
    /// let versions = try ModelFile.read(modelURL)
    /// let coordinator = PersistentStoreCoordinator(versions: versions, mappings: try MappingModel.bundled(with: modelURL))
    /// try coordinator.addStore(type: .sqlite, at: url, options: StoreOptions(migratesAutomatically: true, infersMappingModel: true))
    /// ```
    public convenience init(versions: ModelVersions, mappings: [MappingModel] = []) {
        self.init(model: versions.current) { url, type, options in
            var migrator = StoreMigrator(versions: versions, mappings: mappings)
            migrator.infersMappings = options.infersMappingModel
            try migrator.migrateStore(at: url, type: type)
        }
    }

    /// Adds a store, first migrating it to the coordinator's model when it was written with
    /// an earlier version and `options.migratesAutomatically` is set (Core Data's automatic
    /// migration). Without the option a store of another version is refused, untouched.
    ///
    /// - Parameters:
    ///   - type: the kind of store.
    ///   - url: where the store lives (a file, or a server's address).
    ///   - versions: the model's versions; the coordinator's model must be one of them.
    ///   - mappings: mappings for what inference cannot do (custom policies included).
    ///   - options: how the store is opened; `migratesAutomatically` allows the migration and
    ///     `infersMappingModel` lets it infer mappings.
    ///   - progress: called as a migration goes, with the fraction done (0...1) and a line
    ///     saying what.
    /// - Returns: the store, and the migration reports (empty when none was needed).
    @discardableResult
    public func addStore(type: StoreType, at url: URL, versions: ModelVersions, mappings: [MappingModel] = [],
                         options: StoreOptions = StoreOptions(),
                         progress: ((Double, String) -> Void)? = nil) throws -> (store: any PersistentStore, migrations: [MigrationReport]) {
        var reports: [MigrationReport] = []
        // A file is there or not; a server's store is there when its metadata can be read
        // (what else goes wrong, adding the store says).
        let metadata = url.isFileURL
            ? (FileManager.default.fileExists(atPath: url.path) ? try Self.metadataForStore(ofType: type, at: url) : nil)
            : try? Self.metadataForStore(ofType: type, at: url)
        if let metadata {
            if !metadata.versionHashes.isEmpty && !model.isCompatible(withVersionHashes: metadata.versionHashes) {
                guard options.migratesAutomatically else {
                    throw ObjectGraphError.incompatibleStore(file: url.path,
                                                             differingEntities: model.entitiesDiffering(fromVersionHashes: metadata.versionHashes))
                }
                var migrator = StoreMigrator(versions: versions, mappings: mappings)
                migrator.infersMappings = options.infersMappingModel
                migrator.progress = progress
                reports = try migrator.migrateStore(at: url, type: type)
            }
        }
        return (try addStore(type: type, at: url, options: options), reports)
    }
}

extension PersistentContainer {
    /// A container for the current version of a model that migrates stores written with
    /// its earlier versions as it loads them (each store description's
    /// `shouldMigrateStoreAutomatically`, on by default), through `mappings` where given.
    ///
    /// ```swift
    /// let modelURL = URL(fileURLWithPath: "ToDo.xcdatamodeld")
    /// let container = PersistentContainer(name: "ToDo", versions: try ModelFile.read(modelURL),
    ///                                     mappings: try MappingModel.bundled(with: modelURL))
    /// try container.loadPersistentStores()
    /// ```
    public convenience init(name: String, versions: ModelVersions, mappings: [MappingModel] = [],
                            storeDescriptions: [StoreDescription]? = nil) {
        self.init(name: name, coordinator: PersistentStoreCoordinator(versions: versions, mappings: mappings),
                  storeDescriptions: storeDescriptions)
    }
}
