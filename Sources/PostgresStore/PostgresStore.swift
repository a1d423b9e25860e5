import Foundation
import ObjectGraph
import ObjectModel
import PostgresNIO
import Predicates
import SQLSyntax
import Synchronization

/// A store in a PostgreSQL database, shared by every client that opens the same URL: Core
/// Data's tables in a schema of the database, written in one transaction per save, with
/// optimistic locking on `Z_OPT`; fetches run in SQL, built from the same syntax tree as the
/// SQLite store's.
///
/// ```swift
/// PostgresStore.register()
/// try coordinator.addStore(type: .postgres, at: URL(string: "postgres://ann@db.example.com/team?schema=todo"))
/// ```
///
/// Primary keys come from one sequence per inheritance root: clients take keys at once,
/// without a lock that others wait on. `Z_PRIMARYKEY` names the entities, as in SQLite,
/// and its `Z_MAX` is not kept.
public final class PostgresStore: PersistentStore {
    /// Where the store lives: the server, database and schema, and the user it connects as.
    public let location: PostgresLocation
    /// The configuration whose entities this store holds; nil for all.
    public let configurationName: String?
    /// The model the store was opened with; its tables follow this model's layout.
    public let model: ManagedObjectModel
    /// Whether the store was opened read-only (`StoreOptions.readOnly`); saves to it fail.
    public let isReadOnly: Bool
    /// What the store records about itself (its UUID and the model's version hashes), as read
    /// or written when it was opened.
    public private(set) var metadata: StoreMetadata
    /// The store's type: always `.postgres`.
    public var type: StoreType { .postgres }
    /// The store's UUID, from its metadata; permanent object IDs carry it.
    public var identifier: String { metadata.uuid }
    /// The location without its password.
    public var url: URL? { location.url }
    /// Whether opening made the store: the schema held none before.
    public let madeStore: Bool
    /// Whether the store has its history tables and triggers: every writer is recorded.
    public let tracksHistory: Bool
    /// Whether `ACHANGE` has been seen to have `ZPREVIOUS`: once it has, it keeps it, and
    /// reading the history no longer asks. (A store made before gets the column when a
    /// client opens it to write, perhaps after this one opened it to read.)
    let historyKeepsPreviousValues = Mutex(false)

    let connections: PostgresConnections
    /// The digest of `Z_METADATA.Z_PLIST` when the store was opened: a save finds it changed
    /// when another client has migrated the store since.
    let metadataDigest: String
    let schema: PostgresSchema
    var layout: StoreSchema { schema.layout }
    let rootNames: [String: String]
    static let dialect = PostgresDialect()
    let flavor: PostgresFetchFlavor

    /// Registers the store type with the coordinator, so that `addStore(type: .postgres, at:)`
    /// opens one.
    public static func register() {
        PersistentStoreCoordinator.registerStoreType(.postgres) { model, url, configuration, options in
            guard let url else { throw PostgresStoreError.badLocation("a PostgreSQL store needs a postgres:// URL") }
            return try PostgresStore(model: model, location: PostgresLocation(url: url), configurationName: configuration, options: options)
        }
        PersistentStoreCoordinator.registerMetadataReader(.postgres) { url in try readMetadata(at: url) }
        PersistentStoreCoordinator.registerTransactionalMigrator(.postgres) { url, steps in
            try migrateInPlace(at: url, steps: steps)
        }
    }

    /// The metadata of the store at a `postgres://` URL, read without a model: which model
    /// versions wrote it.
    ///
    /// - Throws: `ObjectGraphError.storeFormat` when the schema holds no store.
    public static func readMetadata(at url: URL) throws -> StoreMetadata {
        let location = try PostgresLocation(url: url)
        let connections = PostgresConnections(location: location)
        defer { connections.close() }
        return try connections.withConnection { session in
            guard try hasStore(session) else {
                throw ObjectGraphError.storeFormat(file: location.description, reason: "no store there (the schema \(location.schema) has no Z_METADATA)")
            }
            return try readMetadata(session, place: location.description)
        }
    }

    /// Whether the schema holds a store (its `Z_METADATA` table).
    private static func hasStore(_ session: PostgresConnections.Session) throws -> Bool {
        try session.hasTable("Z_METADATA")
    }

    static func readMetadata(_ session: PostgresConnections.Session, place: String) throws -> StoreMetadata {
        let rows = try session.run(#"SELECT "Z_UUID", "Z_PLIST" FROM "Z_METADATA" ORDER BY "Z_VERSION" LIMIT 1"#, [])
        guard let row = rows.first.map(Array.init), case .string(let uuid) = try PostgresValueCoding.plainValue(row[0]),
              case .data(let plist) = try PostgresValueCoding.plainValue(row[1]) else {
            throw ObjectGraphError.storeFormat(file: place, reason: "Z_METADATA has no property list")
        }
        return try PostgresMetadata.decode(plist, uuid: uuid, place: place)
    }

    /// Opens the store at `location`, making its schema and tables when they are not there.
    ///
    /// - Throws: `PostgresStoreError.unreachable` when the server cannot be reached;
    ///   `ObjectGraphError.mismatch` when another version of the model wrote the store.
    public init(model: ManagedObjectModel, location: PostgresLocation, configurationName: String? = nil,
                options: StoreOptions = StoreOptions()) throws {
        self.model = model
        self.location = location
        self.configurationName = configurationName
        self.isReadOnly = options.readOnly
        connections = PostgresConnections(location: location)
        var made = false
        var history = false
        var digest = ""
        let (layout, metadata) = try connections.inTransaction { session -> (StoreSchema, StoreMetadata) in
            let opened = try Self.openOrCreate(session, model: model, location: location, options: options, made: &made)
            digest = try Self.metadataDigest(session)
            // History is on where the schema has it; asked for, it starts now, so that every
            // client's writes are recorded from here on.
            history = try Self.hasHistory(session)
            if history, !options.readOnly, try !session.hasColumn("ZPREVIOUS", in: "ACHANGE") {
                for sql in PostgresHistorySchema(schema: PostgresSchema(layout: opened.0)).previousValuesUpgrade { try session.execute(sql) }
            }
            if !history, options.tracksHistory, !options.readOnly {
                try Self.installHistory(PostgresSchema(layout: opened.0), in: session)
                history = true
            }
            return opened
        }
        madeStore = made
        tracksHistory = history
        if history { historyKeepsPreviousValues.withLock { $0 = made || !options.readOnly } }
        metadataDigest = digest
        self.metadata = metadata
        schema = PostgresSchema(layout: layout)
        let icu = try connections.withConnection { session in
            try session.run("SELECT count(*) FROM pg_collation WHERE collname = 'und-x-icu'", [])
        }
        flavor = PostgresFetchFlavor(regexCollation: try icu.first.flatMap { try PostgresValueCoding.integer(Array($0)[0]) } == 1 ? "und-x-icu" : nil)
        var roots: [String: String] = [:]
        for entity in model.entities { roots[entity.name] = layout.mapping(for: entity.name)?.table.rootEntityName }
        rootNames = roots
    }

    /// The digest of the metadata's property list, which a migration changes.
    static func metadataDigest(_ session: PostgresConnections.Session, lockingForSave: Bool = false) throws -> String {
        let rows = try session.run(#"SELECT md5("Z_PLIST") FROM "Z_METADATA" WHERE "Z_VERSION" = 1"# + (lockingForSave ? " FOR SHARE" : ""), [])
        guard let cell = rows.first.map(Array.init)?.first, case .string(let digest) = try PostgresValueCoding.plainValue(cell) else { return "" }
        return digest
    }

    /// Opens the store in the schema, or makes it there; inside the caller's transaction.
    private static func openOrCreate(_ session: PostgresConnections.Session, model: ManagedObjectModel, location: PostgresLocation,
                                     options: StoreOptions, made: inout Bool) throws -> (StoreSchema, StoreMetadata) {
        let place = location.description
        // One client makes or checks the tables at a time; the others wait here, then find them.
        try lockSchema(session, location: location)
        if let found = try Self.open(session, model: model, place: place, options: options) { return found }
        if options.readOnly {
            throw ObjectGraphError.storeFormat(file: place, reason: "no store there (it cannot be created read-only)")
        }
        let layout = try StoreSchema(model: model)
        let schema = PostgresSchema(layout: layout)
        // Checked before anything is made: PostgreSQL cuts a longer name to 63 bytes, and two
        // cut alike would be one table or column.
        let creation = schema.creationStatements
        let history = PostgresHistorySchema(schema: schema)
        let statements = creation + history.installStatements + history.triggerStatements
        let schemaName = location.schema.utf8.count > PostgresSchema.longestName ? location.schema : nil
        if let long = schemaName ?? PostgresSchema.firstLongName(in: statements) {
            throw ObjectGraphError.storeFormat(
                file: place, reason: "the name “\(long)” is \(long.utf8.count) bytes long, and PostgreSQL keeps \(PostgresSchema.longestName) bytes "
                    + "of a name (it would cut it, and two names cut alike would be one); shorten the entity or property it comes from, or the schema")
        }
        try session.execute("CREATE SCHEMA IF NOT EXISTS " + Self.dialect.quote(location.schema))
        let metadata = StoreMetadata(storeType: .postgres, versionHashes: model.entityVersionHashes,
                                     versionIdentifiers: model.versionIdentifier.map { [$0] } ?? [])
        for sql in creation { try session.execute(sql) }
        for (_, mapping) in layout.mappings.sorted(by: { $0.value.number < $1.value.number }) {
            let parent = mapping.entity.parentName.flatMap { layout.mapping(for: $0)?.number } ?? 0
            try session.run(Self.dialect.render(.insert(into: "Z_PRIMARYKEY", columns: ["Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX"], values: [
                .value(.integer(Int64(mapping.number))), .value(.text(mapping.entity.name)), .value(.integer(Int64(parent))), .literal(0),
            ])))
        }
        try session.run(Self.dialect.render(.insert(into: "Z_METADATA", columns: ["Z_VERSION", "Z_UUID", "Z_PLIST"], values: [
            .literal(1), .value(.text(metadata.uuid)), .value(.blob(try PostgresMetadata.encode(metadata))),
        ])))
        made = true
        return (layout, metadata)
    }

    /// The schema and metadata of a store already there, checked against the model; nil when
    /// the schema has no store yet.
    private static func open(_ session: PostgresConnections.Session, model: ManagedObjectModel, place: String,
                             options: StoreOptions) throws -> (StoreSchema, StoreMetadata)? {
        guard try hasStore(session) else {
            // Tables of something else in the schema: not a store to write into.
            let tables = try session.run("SELECT count(*) FROM information_schema.tables WHERE table_schema = $1", [.text(session.location.schema)])
            if let count = try tables.first.flatMap({ try PostgresValueCoding.integer(Array($0)[0]) }), count > 0 {
                throw ObjectGraphError.storeFormat(
                    file: place, reason: "the schema \(session.location.schema) holds tables but no Z_METADATA: not a Core Data store")
            }
            return nil
        }
        let metadata = try readMetadata(session, place: place)
        if !options.ignoresVersioning, !metadata.versionHashes.isEmpty,
           !model.entitiesDiffering(fromVersionHashes: metadata.versionHashes).isEmpty {
            throw ObjectGraphError.mismatch(file: place, storeHashes: metadata.versionHashes, model: model)
        }
        let numbers = try entityNumbers(session)
        let missing = model.entities.map(\.name).filter { numbers[$0] == nil }
        if !missing.isEmpty {
            throw ObjectGraphError.incompatibleStore(file: place, differingEntities: missing)
        }
        do {
            return (try StoreSchema(model: model, numbers: numbers), metadata)
        } catch let error as StoreSchema.MissingEntity {
            throw ObjectGraphError.incompatibleStore(file: place, differingEntities: [error.name])
        }
    }

    /// Refuses: a PostgreSQL store is not copied to a file.
    ///
    /// - Throws: `ObjectGraphError.storeFormat`, saying to export the store or use `pg_dump`.
    public func copyStore(to url: URL) throws {
        throw ObjectGraphError.storeFormat(file: location.description,
                                           reason: "a PostgreSQL store is not copied to a file; export it (termdata export) or use pg_dump")
    }

    /// Closes the store's connections to the server.
    public func close() { connections.close() }

    /// Always true: reads run on connections of the pool, so the coordinator need not take turns for them.
    public var readsConcurrently: Bool { true }

    /// Always true: a sorted fetch ends its ORDER BY with Z_PK.
    public var ordersTiesByKey: Bool { true }

    /// Whether a save that changes this to-many relationship carries all its members: not when
    /// the members' own foreign keys hold it (unordered, with a to-one inverse).
    public func needsMembers(ofRelationship name: String, entityName: String) -> Bool {
        layout.mapping(for: entityName)?.writesMembers(of: name) ?? true
    }

    /// A page of a fetch's results is read in one round trip when its first fault fires.
    public var faultBatchSize: Int { 200 }

    func objectID(entityName: String, primaryKey: Int64) -> ManagedObjectID {
        ManagedObjectID(entityName: entityName, storeIdentifier: identifier, reference: .permanent(primaryKey))
    }

    /// Runs the program's own SQL and reads every cell in its own type: for inspection and tests.
    package func plainRows(_ sql: String, _ values: [SQLValue] = []) throws -> [[ObjectValue]] {
        try connections.withConnection { session in
            try session.run(sql, values).map { row in try row.map(PostgresValueCoding.plainValue) }
        }
    }

    /// The SQL of a fetch as the store would run it, for inspection and tests.
    public func sql(for request: StoreRequest) throws -> (sql: String, arguments: [String]) {
        let query = try FetchQuery(schema: layout, request: request, flavor: flavor)
        let rendered = Self.dialect.render(try query.selectForResult())
        return (rendered.sql, rendered.arguments.map(\.description))
    }
}

/// The property list in `Z_METADATA.Z_PLIST`, as the SQLite store keeps it: the store type,
/// the version hashes of the model that wrote the store, and application keys.
enum PostgresMetadata {
    static func encode(_ metadata: StoreMetadata) throws -> Data { try metadata.propertyList() }

    static func decode(_ data: Data, uuid: String, place: String) throws -> StoreMetadata {
        guard let plist = (try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)) as? [String: Any] else {
            throw ObjectGraphError.storeDamaged(file: place, detail: "its metadata (Z_METADATA.Z_PLIST) is not a property list")
        }
        return StoreMetadata(propertyList: plist, storeType: .postgres, uuid: uuid)
    }
}
