import ArgumentParser
import Foundation
import Interchange
import ObjectGraph
import ObjectModel
import SQLiteStore
import TermDataResources
import ToDoApp

/// `--store PATH --model MODEL [--type sqlite|xml|binary]`: which store to open, with which model.
///
/// Without `--store`, the ToDo application's store (`$XDG_DATA_HOME/termdata/ToDo.sqlite`)
/// with the bundled ToDo model.
struct StoreArguments: ParsableArguments {
    @Option(help: "The store file (default: the ToDo store in $XDG_DATA_HOME/termdata).")
    var store: String?

    @Option(help: "The model: an .xcdatamodeld bundle or .xcdatamodel folder, or ToDo for the bundled ToDo model (the default for a ToDo store).")
    var model: String?

    @Option(help: "The store type: sqlite, xml or binary (default: what an existing file holds, else from the file extension, else sqlite).")
    var type: StoreKind?

    var storeURL: URL { store.map { URL(fileURLWithPath: $0) } ?? ToDoStore.defaultURL() }

    var storeType: StoreType { (type ?? StoreKind(inferringFrom: storeURL, default: .sqlite)).storeType }

    func loadModel() throws -> ManagedObjectModel {
        try loadVersions().current
    }

    /// A model named on the command line: a file or folder, or `ToDo` for the bundled ToDo
    /// model (unless a file has that name), so that a ToDo store can be made anywhere.
    static func modelURL(_ argument: String) -> URL {
        argument.lowercased() == "todo" && !FileManager.default.fileExists(atPath: argument)
            ? BundledResources.toDoModelURL : URL(fileURLWithPath: argument)
    }

    /// Every version of the model (for migration).
    func loadVersions() throws -> ModelVersions {
        let url: URL
        if let model {
            url = Self.modelURL(model)
        } else if store == nil {
            url = BundledResources.toDoModelURL
        } else {
            let bundled = try ModelCommand.load(BundledResources.toDoModelURL)
            // A store that cannot be read is said to be so, not taken for another model's.
            try CommandFailure.rethrowing { try StoreFiles.checkPermissions(storeURL, readOnly: true) }
            guard isToDoStore(storeURL, versions: bundled) else {
                throw CommandFailure("--model is required for a store other than the ToDo store (--model ToDo names the bundled ToDo model)")
            }
            return bundled
        }
        guard FileManager.default.fileExists(atPath: url.path) else { throw CommandFailure("no model at \(url.path)") }
        return try ModelCommand.load(url)
    }

    /// Whether a store was written with a version of the bundled ToDo model (a ToDo store
    /// kept somewhere else), so that it needs no `--model`.
    private func isToDoStore(_ url: URL, versions: ModelVersions) -> Bool {
        guard let metadata = try? PersistentStoreCoordinator.metadataForStore(ofType: storeType, at: url),
              !metadata.versionHashes.isEmpty else { return false }
        return versions.versions.contains { $0.model.isCompatible(withVersionHashes: metadata.versionHashes) }
    }

    /// Opens the store; when `creating`, makes it (and its folder) if missing. A `readOnly`
    /// store is left exactly as it was: no journal-mode change, no write of any kind.
    /// With `tracksHistory`, a SQLite store records its history from now on (see `termdata history`).
    func open(model: ManagedObjectModel, creating: Bool = false, readOnly: Bool = false,
              tracksHistory: Bool = false) throws -> ManagedObjectContext {
        let url = storeURL
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw CommandFailure("\(url.path) is a folder, not a store file")
        }
        if !FileManager.default.fileExists(atPath: url.path) {
            guard creating else {
                let folder = url.deletingLastPathComponent().path
                throw CommandFailure("no store at \(url.path)" + (FileManager.default.fileExists(atPath: folder) ? "" : " (there is no folder \(folder))"))
            }
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        let coordinator = PersistentStoreCoordinator(model: model)
        do {
            var options = StoreOptions()
            options.readOnly = readOnly
            options.tracksHistory = tracksHistory && !readOnly
            try coordinator.addStore(type: storeType, at: url, options: options)
        } catch {
            throw CommandFailure(error)
        }
        return ManagedObjectContext(coordinator: coordinator)
    }

    /// The entity of this name, or a clear failure.
    static func entity(_ name: String, in model: ManagedObjectModel) throws -> Entity {
        guard let entity = model.entity(named: name) else {
            throw CommandFailure("unknown entity '\(name)' (the model has \(model.entityNames.sorted().joined(separator: ", ")))")
        }
        return entity
    }
}
