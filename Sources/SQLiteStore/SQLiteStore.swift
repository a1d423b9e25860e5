import Foundation
import GRDB
import ObjectGraph
import ObjectModel
import Predicates
import SQLSyntax

/// A store in a SQLite file laid out as Core Data lays it out, so stores written by
/// Apple's Core Data open here and ours open there.
///
/// Fetches compile to SQL; objects load row by row (or a batch at a time) when their
/// faults fire; a save is one transaction in WAL mode, with optimistic locking on `Z_OPT`.
///
/// ```swift
/// SQLiteStore.register()
/// let coordinator = PersistentStoreCoordinator(model: model)
/// try coordinator.addStore(type: .sqlite, at: URL(fileURLWithPath: "ToDo.sqlite"))
/// ```
public final class SQLiteStore: PersistentStore, ExplainingStore {
    /// The store's file; nil for a store in memory.
    public let url: URL?
    /// The configuration whose entities this store holds; nil for all.
    public let configurationName: String?
    /// The model the store was opened with; its tables follow this model's layout.
    public let model: ManagedObjectModel
    /// Whether the store was opened read-only (`StoreOptions.readOnly`); saves to it fail.
    public let isReadOnly: Bool
    /// What the store records about itself (its UUID and the model's version hashes), as read
    /// or written when it was opened.
    public private(set) var metadata: StoreMetadata
    /// The store's type: always `.sqlite`.
    public var type: StoreType { .sqlite }
    /// The store's UUID, from its metadata; permanent object IDs carry it.
    public var identifier: String { metadata.uuid }

    /// The connection that writes (and reads, for a store in memory).
    let database: DatabaseQueue
    /// The connections that read a store file; `nil` in memory, where only `database` sees the data.
    let readers: ReaderPool?
    let schema: StoreSchema
    /// The history tables' triggers and change slots for the schema.
    let historySchema: HistorySchema
    /// Row-loading SQL per entity, built once.
    var rowQueries: [String: RowQuery] = [:]
    /// Insert and update statements per entity, built once.
    var rowWriters: [String: RowWriter] = [:]
    /// `Z_ENT` by entity name.
    var entityNumbers: [String: Int] = [:]
    /// The root entity (the table's owner) by entity name.
    var rootNames: [String: String] = [:]
    /// Where binary values too large for a row are kept.
    let externalData: ExternalData
    /// The file opened: a save refuses to write into one the path no longer names.
    var openedFile: StoreFiles.FileNumber?
    /// Whether the file is in WAL mode. A store is switched to it at its first write, not
    /// when it is opened, so that a store only looked at stays as it was, byte for byte.
    var isInWALMode = false
    /// Whether saves record history, and whether its tables and triggers are known to be
    /// in place (checked at the first save).
    var historyState = (enabled: false, installed: false)

    /// Makes `PersistentStoreCoordinator.addStore(type: .sqlite, ...)` and
    /// `migrateStore(_:to:type: .sqlite)` create SQLite stores.
    public static func register() {
        PersistentStoreCoordinator.registerStoreType(.sqlite) { model, url, configuration, options in
            try SQLiteStore(model: model, url: url, configurationName: configuration, options: options)
        }
        PersistentStoreCoordinator.registerMetadataReader(.sqlite) { url in try readMetadata(at: url) }
        PersistentStoreCoordinator.registerInPlaceMigrator(.sqlite) { url, source, destination, renames in
            try migrateInPlace(at: url, from: source, to: destination, renames: renames)
        }
    }

    /// Opens the store at `url`, creating it when the file does not exist; `nil` keeps it in memory.
    ///
    /// - Throws: `ObjectGraphError.storeFormat` for a file that is not a Core Data SQLite
    ///   store, `.incompatibleStore` when its tables (or, for stores written here, its
    ///   version hashes) do not fit the model, unless `options.ignoresVersioning`.
    public init(model: ManagedObjectModel, url: URL?, configurationName: String? = nil,
                options: StoreOptions = StoreOptions()) throws {
        self.model = model
        self.url = url
        self.configurationName = configurationName
        self.isReadOnly = options.readOnly
        self.externalData = ExternalData(storeURL: url)
        let path = url?.path ?? ":memory:"
        let exists = url.map { FileManager.default.fileExists(atPath: $0.path) } ?? false
        if options.readOnly, !exists {
            throw ObjectGraphError.storeFormat(file: path, reason: "no such store (it cannot be created read-only)")
        }
        if exists, let url, let reason = Self.notSQLite(url) {
            throw ObjectGraphError.storeFormat(file: path, reason: reason)
        }
        // SQLite would say "unable to open database file" and nothing more, after making an
        // empty file: beside the store it keeps files of the store's name and a suffix, the
        // longest "-journal", and the name must leave room for it.
        if let url, url.lastPathComponent.utf8.count > Self.longestName {
            let count = url.lastPathComponent.utf8.count
            throw ObjectGraphError.storeFormat(
                file: path, reason: count > Int(NAME_MAX)
                    ? "the file name is \(count) bytes long, more than the file system allows (\(NAME_MAX))"
                    : "the file name is \(count) bytes long; SQLite keeps a file beside it named so with \"-journal\" added, "
                        + "and the file system allows \(NAME_MAX) bytes, so a store's name has at most \(Self.longestName)")
        }
        // A model SQLite cannot hold is refused before a file is made for it.
        if !exists {
            for table in try StoreSchema(model: model).tables where table.columns.count + 3 > Self.maximumColumns {
                throw ObjectGraphError.storeFormat(
                    file: path, reason: "the entity \(table.rootEntityName) and its sub-entities need \(table.columns.count + 3) columns in one table, "
                        + "and SQLite takes at most \(Self.maximumColumns); split the entity")
            }
        }
        var configuration = Self.connectionConfiguration(readOnly: options.readOnly)
        configuration.prepareDatabase { db in try SQLFunctions.register(in: db) }
        var readerConfiguration = configuration
        readerConfiguration.readonly = true
        // Readers open the file as the writer did: as it is, or as an immutable file.
        var readerPath = url.map { options.readOnly ? Self.readOnlyPath($0) : $0.path }
        do {
            if let url {
                database = options.readOnly ? try Self.openReadOnly(url, configuration: configuration)
                                            : try DatabaseQueue(path: path, configuration: configuration)
            } else {
                database = try DatabaseQueue(configuration: configuration)
            }
        } catch {
            // A WAL store read where its -shm file cannot be made (a folder the user may not
            // write to) opens as an immutable file: read as it is, without the shared memory.
            // Not when a -wal file holds changes the main file lacks: those would go unread.
            let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
            guard options.readOnly, walSize == 0, let url,
                  let immutable = try? DatabaseQueue(path: Self.immutableURI(for: url), configuration: configuration) else {
                if case let damaged as ObjectGraphError = Self.damage(error, path: path) { throw damaged }
                throw ObjectGraphError.storeFormat(file: path, reason: "cannot open the SQLite file (\(Self.describe(error)))")
            }
            database = immutable
            readerPath = Self.immutableURI(for: url)
        }
        readers = readerPath.map { readerPath in
            ReaderPool { [readerConfiguration] in try DatabaseQueue(path: readerPath, configuration: readerConfiguration) }
        }

        var opened: (StoreSchema, StoreMetadata)?
        do {
            opened = try database.inDatabase { db -> (StoreSchema, StoreMetadata)? in
                // Asked of the file itself: another process may have made the store since this
                // connection first read the schema, and GRDB keeps what it read.
                db.clearSchemaCache()
                // One statement, so one look at the file: asked in two, another process's
                // creation could commit in between, and its complete store would read as tables
                // without Z_METADATA.
                let look = try Row.fetchOne(db, sql: """
                    SELECT COUNT(*), COALESCE(SUM(name = 'Z_METADATA' COLLATE NOCASE), 0) FROM sqlite_master WHERE type = 'table'
                    """)
                let tables = look.flatMap { Int.fromDatabaseValue($0[0]) } ?? 0
                let hasMetadata = (look.flatMap { Int.fromDatabaseValue($0[1]) } ?? 0) > 0
                guard hasMetadata else {
                    if tables > 0 {
                        throw ObjectGraphError.storeFormat(file: path, reason: "not a Core Data store (no Z_METADATA table)")
                    }
                    return nil
                }
                return try Self.open(db, model: model, path: path, options: options)
            }
        } catch let error as ObjectGraphError {
            throw error
        } catch {
            if case let damaged as ObjectGraphError = Self.damage(error, path: path) { throw damaged }
            throw ObjectGraphError.storeFormat(file: path, reason: Self.describe(error))
        }
        if let opened {
            (schema, metadata) = opened
        } else {
            if options.readOnly { throw ObjectGraphError.storeFormat(file: path, reason: "an empty file cannot be opened read-only") }
            let fresh = try StoreSchema(model: model)
            let freshMetadata = StoreMetadata(storeType: .sqlite, versionHashes: model.entityVersionHashes,
                                              versionIdentifiers: model.versionIdentifier.map { [$0] } ?? [])
            if url != nil { isInWALMode = Self.switchToWALMode(database) }
            // Another process may make the store between the look above and this write: the
            // immediate transaction waits for its transaction, and looks again inside.
            var made: (StoreSchema, StoreMetadata)?
            do {
                try database.inTransaction(.immediate) { db in
                    // Asked of the file itself: the connection's cached schema predates the wait.
                    db.clearSchemaCache()
                    if try db.tableExists("Z_METADATA") {
                        made = try Self.open(db, model: model, path: path, options: options)
                        return .commit
                    }
                    try fresh.create(in: db)
                    try db.execute(sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                                   arguments: [freshMetadata.uuid, try SQLiteMetadata.encode(freshMetadata)])
                    return .commit
                }
            } catch let error as ObjectGraphError {
                throw error
            } catch {
                throw ObjectGraphError.storeFormat(file: path, reason: "cannot create the store (\(Self.describe(error)))")
            }
            (schema, metadata) = made ?? (fresh, freshMetadata)
        }
        historySchema = HistorySchema(schema: schema)
        openedFile = url.flatMap { StoreFiles.FileNumber(of: $0) }
        // History is on when asked for, or when the file has its triggers: then every writer
        // records anyway, and this store's saves name themselves.
        let historyFound = (try? database.inDatabase { try Self.hasHistoryTriggers($0) }) ?? false
        // History Core Data keeps itself (in its save, without triggers) is read, not added to.
        let othersHistory = !historyFound && ((try? database.inDatabase { db in
            try Self.hasHistoryTables(db) && (try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM ATRANSACTION)") ?? false)
        }) ?? false)
        historyState.enabled = !options.readOnly && !othersHistory && (options.tracksHistory || historyFound)
        // Asked for, history starts now, so that other programs' writes are recorded from here
        // on, even before this store's first save.
        if historyState.enabled, options.tracksHistory {
            switchToWALMode()
            do {
                try database.inTransaction(.immediate) { db in
                    try installHistory(in: db)
                    return .commit
                }
            } catch {
                throw ObjectGraphError.storeFormat(file: path, reason: "could not turn on history (\(Self.describe(error)))")
            }
            historyState.installed = true
        }
        if exists, !options.readOnly { createMissingModelIndexes() }
        for entity in model.entities {
            let mapping = schema.mapping(for: entity.name)!
            rowQueries[entity.name] = RowQuery(mapping: mapping)
            rowWriters[entity.name] = RowWriter(mapping: mapping)
            entityNumbers[entity.name] = mapping.number
            rootNames[entity.name] = mapping.table.rootEntityName
        }
    }

    /// Reads an existing store's metadata and entity numbers and checks it fits the model.
    private static func open(_ db: Database, model: ManagedObjectModel, path: String,
                             options: StoreOptions) throws -> (StoreSchema, StoreMetadata) {
        guard let row = try Row.fetchOne(db, sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1"),
              let plist = Data.fromDatabaseValue(row["Z_PLIST"]) else {
            throw ObjectGraphError.storeFormat(file: path, reason: "Z_METADATA has no property list")
        }
        let uuid = String.fromDatabaseValue(row["Z_UUID"]) ?? UUID().uuidString
        let (metadata, ownFormat) = try SQLiteMetadata.decode(plist, uuid: uuid)
        let numbers = try StoreSchema.entityNumbers(in: db, for: [model])
        // A model inferred from this very layout has no hashes to compare: its tables are checked below.
        if ownFormat, !options.ignoresVersioning, !metadata.versionHashes.isEmpty, !InferredModel.isInferred(model) {
            let differing = model.entitiesDiffering(fromVersionHashes: metadata.versionHashes)
            if !differing.isEmpty { throw ObjectGraphError.mismatch(file: path, storeHashes: metadata.versionHashes, model: model) }
        }
        let missing = model.entities.map(\.name).filter { numbers[$0] == nil }
        if !missing.isEmpty {
            // The metadata says the model wrote the store: its entity table lost rows.
            if ownFormat, !metadata.versionHashes.isEmpty, model.entitiesDiffering(fromVersionHashes: metadata.versionHashes).isEmpty {
                throw ObjectGraphError.storeDamaged(
                    file: path, detail: "Z_PRIMARYKEY lacks \(missing.joined(separator: ", ")), which the store's metadata says it holds")
            }
            if missing.count == model.entities.count {
                // Not one entity in common: another model altogether, not another version.
                let stored = try String.fetchAll(db, sql: "SELECT Z_NAME FROM Z_PRIMARYKEY ORDER BY Z_NAME")
                throw ObjectGraphError.otherModel(file: path, storeEntities: stored, modelEntities: model.entityNames.sorted())
            }
            throw ObjectGraphError.incompatibleStore(file: path, differingEntities: missing)
        }
        let schema: StoreSchema
        do { schema = try StoreSchema(model: model, numbers: numbers) } catch let error as StoreSchema.MissingEntity {
            throw ObjectGraphError.storeFormat(file: path, reason: SQLiteStoreError.schemaMismatch("the store has no entity '\(error.name)' in Z_PRIMARYKEY").description)
        }
        // Apple's version hashes cannot be computed here: a store written elsewhere opens when its tables fit.
        let problems = try schema.differences(from: db)
        if !problems.isEmpty, !options.ignoresVersioning {
            let entities = problems.map { String($0.prefix { $0 != ":" }) }
            throw ObjectGraphError.incompatibleStore(file: path, differingEntities: Array(Set(entities)).sorted())
        }
        return (schema, metadata)
    }

    /// A sorted fetch ends its ORDER BY with Z_PK.
    public var ordersTiesByKey: Bool { true }

    /// Whether a save that changes this to-many relationship carries all its members: not when
    /// the members' own foreign keys hold it (unordered, with a to-one inverse).
    public func needsMembers(ofRelationship name: String, entityName: String) -> Bool {
        schema.mapping(for: entityName)?.writesMembers(of: name) ?? true
    }

    /// Reads go to connections of their own, on any thread: the coordinator need not take
    /// turns for them.
    public var readsConcurrently: Bool { true }

    /// Copies the database as this store's connection sees it (`VACUUM INTO`: the file it
    /// opened, even when another now stands at its path or none does) to `url`, with the
    /// folder of large binary values beside it.
    public func copyStore(to url: URL) throws {
        guard !FileManager.default.fileExists(atPath: url.path) else {
            throw ObjectGraphError.storeFormat(file: url.path, reason: "a file is there already; choose a new name")
        }
        do {
            try database.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [url.path]) }
        } catch {
            throw ObjectGraphError.storeFormat(file: url.path, reason: "could not write the copy (\(Self.describe(error)))")
        }
        if let from = externalData.directory, FileManager.default.fileExists(atPath: from.path) {
            let to = StoreFiles.externalDataDirectory(forStoreAt: url)
            try FileManager.default.createDirectory(at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: from, to: to)
        }
    }

    /// The object ID for a primary key of an entity.
    func objectID(entityName: String, primaryKey: Int64) -> ManagedObjectID {
        ManagedObjectID(entityName: entityName, storeIdentifier: identifier, reference: .permanent(primaryKey))
    }

    /// The SQL of a fetch as the store would run it, for inspection and tests.
    public func sql(for request: StoreRequest) throws -> (sql: String, arguments: [String]) {
        let query = try FetchQuery(schema: schema, request: request, flavor: Self.flavor)
        let rendered = Self.dialect.render(try query.selectForResult())
        return (rendered.sql, rendered.arguments.map(\.description))
    }
}
