import ArgumentParser
import Foundation
import Interchange
import ObjectGraph
import ObjectModel
import PostgresStore
import SQLiteStore
import TermDataResources
import ToDoApp

/// `--store PATH --model MODEL [--type sqlite|xml|binary]`: which store to open, with which model.
///
/// Without `--store`, the ToDo application's store (`$XDG_DATA_HOME/termdata/ToDo.sqlite`)
/// with the bundled ToDo model.
struct StoreArguments: ParsableArguments {
    @Option(help: "The store: a file, or postgres://user@host:port/database?schema=NAME for a shared PostgreSQL store (default: the ToDo store in $XDG_DATA_HOME/termdata).")
    var store: String?

    @Option(help: "The model: an .xcdatamodeld bundle or .xcdatamodel folder, a compiled .momd folder or .mom file, or ToDo for the bundled ToDo model (the default for a ToDo store).")
    var model: String?

    @Flag(help: "Open a store whose model was inferred from its layout (no --model, no model cached in it) for writing; it opens read-only otherwise.")
    var writable = false

    @Option(help: "The store type: sqlite, xml or binary (default: what an existing file holds, else from the file extension, else sqlite).")
    var type: StoreKind?

    var storeURL: URL { (try? StoreLocation.url(of: store)) ?? ToDoStore.defaultURL() }

    var storeType: StoreType { StoreLocation.type(of: storeURL, named: type) }

    /// Whether the store is on a server rather than in a file.
    var isServerStore: Bool { !storeURL.isFileURL }

    /// The store as messages show it (a server's URL without its password).
    var storeName: String { StoreLocation.displayName(storeURL) }

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
        try loadModelFile().versions
    }

    /// Every version of the model, and the file it was read from (nil for a store's own
    /// model): the mappings bundled beside that file go with it.
    func loadModelFile() throws -> (versions: ModelVersions, file: URL?) {
        let url: URL
        if let model {
            url = Self.modelURL(model)
        } else if store == nil {
            url = BundledResources.toDoModelURL
        } else {
            let bundled = try ModelCommand.load(BundledResources.toDoModelURL)
            // A store that cannot be read is said to be so, not taken for another model's.
            if !isServerStore { try CommandFailure.rethrowing { try StoreFiles.checkPermissions(storeURL, readOnly: true) } }
            if isToDoStore(storeURL, versions: bundled) { return (bundled, BundledResources.toDoModelURL) }
            if FileManager.default.fileExists(atPath: storeURL.path),
               let own = try StoreArguments.storesOwnModel(storeURL, type: storeType) { return (own.versions, nil) }
            throw CommandFailure("--model is required for \(storeName): it is not a ToDo store and keeps no model of its own (--model ToDo names the bundled ToDo model)")
        }
        guard FileManager.default.fileExists(atPath: url.path) else { throw CommandFailure("no model at \(url.path)") }
        return (try ModelCommand.load(url), url)
    }

    /// The name a model read from its store goes by.
    static let cachedVersionName = "Z_MODELCACHE"

    /// The name a model inferred from a store's layout goes by.
    static let inferredVersionName = "inferred"

    /// The model of a Core Data SQLite store found without one: the model it caches of
    /// itself, else one inferred from its layout (with its guesses).
    static func storesOwnModel(_ url: URL, type: StoreType) throws -> (versions: ModelVersions, inferred: InferredModel?)? {
        guard url.isFileURL, type == .sqlite else { return nil }
        switch try CommandFailure.rethrowing({ try SQLiteStore.ownModel(at: url) }) {
        case .cached(let cached):
            return (try ModelVersions(versions: [.init(name: cachedVersionName, model: cached)], currentVersionName: cachedVersionName), nil)
        case .inferred(let inferred, let cacheMisfit):
            if let cacheMisfit { FileHandle.standardError.write(Data("warning: \(TerminalText.safe(cacheMisfit))\n".utf8)) }
            return (try ModelVersions(versions: [.init(name: inferredVersionName, model: inferred.model)],
                                      currentVersionName: inferredVersionName), inferred)
        }
    }

    /// Whether the model was inferred from the store's layout and `--writable` not given.
    func opensReadOnlyForItsModel(_ model: ManagedObjectModel) -> Bool {
        InferredModel.isInferred(model) && !writable
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
    /// A store opened on a model inferred from its layout is read-only unless `--writable`.
    func open(model: ManagedObjectModel, creating: Bool = false, readOnly: Bool = false,
              tracksHistory: Bool = false) throws -> ManagedObjectContext {
        if !readOnly, opensReadOnlyForItsModel(model) {
            throw CommandFailure("\(storeName) keeps no model of its own, and one inferred from its layout may miss what the store's own model says (names, optionality, delete rules): it is only read. Give --writable to write with it anyway, or --model to name the store's model")
        }
        let url = try CommandFailure.rethrowing { try StoreLocation.url(of: store) } ?? ToDoStore.defaultURL()
        if !url.isFileURL { return try openServerStore(url, model: model, readOnly: readOnly) }
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
            throw CommandFailure("unknown entity '\(name)' (" + (model.entityNames.isEmpty ? "the model has no entities" : "the model has \(model.entityNames.sorted().joined(separator: ", "))") + ")")
        }
        return entity
    }
}

extension StoreArguments {
    /// Opens a store on a server: it is made when missing unless `readOnly`.
    private func openServerStore(_ url: URL, model: ManagedObjectModel, readOnly: Bool) throws -> ManagedObjectContext {
        if let type { throw CommandFailure("--type \(type.rawValue) does not fit \(StoreLocation.displayName(url)), a PostgreSQL store") }
        let coordinator = PersistentStoreCoordinator(model: model)
        var options = StoreOptions()
        options.readOnly = readOnly
        try CommandFailure.rethrowing { try coordinator.addStore(type: .postgres, at: url, options: options) }
        return ManagedObjectContext(coordinator: coordinator)
    }
}

/// What a `--store` argument names: a file, or a store on a server. A URL is never taken
/// for a file name: `postgres://…` opens PostgreSQL, and any other `scheme://` or a
/// `postgres:` without `//` is refused, rather than made into a folder of that name.
enum StoreLocation {
    /// The URL of a `--store` argument; nil when none was given.
    static func url(of argument: String?) throws -> URL? {
        guard let argument else { return nil }
        if PostgresLocation.isPostgresURL(argument) {
            guard let url = URL(string: argument), url.host != nil || argument.contains(":///") || argument.hasSuffix("://") else {
                throw CommandFailure("“\(argument)” is not a valid postgres:// URL (postgres://user:password@host:port/database?schema=NAME)")
            }
            _ = try CommandFailure.rethrowing { try PostgresLocation(url: url) }
            return url
        }
        let lower = argument.lowercased()
        if lower.hasPrefix("postgres:") || lower.hasPrefix("postgresql:") {
            throw CommandFailure("“\(argument)” is not a postgres:// URL: a PostgreSQL store is written postgres://user@host:port/database?schema=NAME")
        }
        if let range = argument.range(of: "://"), let scheme = Optional(argument[..<range.lowerBound]),
           !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }), scheme.first!.isLetter {
            throw CommandFailure("“\(argument)” names a \(scheme):// store; stores are files, or PostgreSQL at postgres://…")
        }
        return URL(fileURLWithPath: argument)
    }

    /// The location as messages show it: a file's path, or the server's URL without its password.
    static func displayName(_ url: URL) -> String {
        url.isFileURL ? url.path : ((try? PostgresLocation(url: url))?.description ?? "a PostgreSQL store")
    }

    /// The store type of a location: PostgreSQL for a server; for a file, `--type`, else
    /// what the file holds, else its extension, else SQLite.
    static func type(of url: URL, named kind: StoreKind?) -> StoreType {
        url.isFileURL ? (kind ?? StoreKind(inferringFrom: url, default: .sqlite)).storeType : .postgres
    }
}
