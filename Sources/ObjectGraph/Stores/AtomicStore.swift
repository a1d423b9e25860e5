import Foundation
import OrderedCollections
import ObjectModel
import Predicates

/// A store that keeps every row in memory and writes its whole file at each save:
/// the base of the in-memory, XML and binary stores.
///
/// Subclasses read and write the file; the base class answers fetches by evaluating
/// them in memory, hands out primary keys, checks row versions, and writes atomically
/// (temporary file, fsync, rename), so a failed save leaves the old file in place.
open class AtomicStore: PersistentStore {
    /// The store's type, which the subclass gives: in-memory, XML or binary.
    public let type: StoreType
    /// The store's file; `nil` for an in-memory store.
    public let url: URL?
    /// The configuration whose entities the store holds; `nil` for all.
    public let configurationName: String?
    /// The model the store's rows are objects of, and whose version hashes its file records.
    public let model: ManagedObjectModel
    /// The store's metadata: its type, UUID and model version hashes, as read from its file or made
    /// for a new store.
    public private(set) var metadata: StoreMetadata
    /// Whether the store was opened read-only (`StoreOptions.readOnly`); saves to it fail.
    public let isReadOnly: Bool

    var rows: [ManagedObjectID: StoredRow] = [:]
    var idsByEntity: [String: OrderedSet<ManagedObjectID>] = [:]
    /// The next primary key to hand out; nil once the largest 64-bit key is used.
    var nextPrimaryKey: Int64? = 1
    /// The version of the file the rows were read from or last written as; a save that finds
    /// another reads the file again first, so another process's save is merged, not lost.
    private var fileIdentity: StoreFileIdentity?

    /// The store's UUID, from its metadata; permanent object IDs carry it.
    public var identifier: String { metadata.uuid }

    /// Opens the store, reading its file when it exists.
    ///
    /// - Throws: `ObjectGraphError.storeFormat` for a file that cannot be read, and
    ///   `.incompatibleStore` for one written with another model version (unless
    ///   `options.ignoresVersioning`).
    public init(type: StoreType, model: ManagedObjectModel, url: URL?, configurationName: String?,
                options: StoreOptions) throws {
        self.type = type
        self.model = model
        self.url = url
        self.configurationName = configurationName
        self.isReadOnly = options.readOnly
        self.metadata = StoreMetadata(storeType: type, versionHashes: model.entityVersionHashes,
                                      versionIdentifiers: model.versionIdentifier.map { [$0] } ?? [])
        self.ignoresVersioning = options.ignoresVersioning
        // A missing file, or an empty one (as SQLite takes it, and as `touch` makes it), is a
        // new store, written at the first save.
        guard let url, let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int, size > 0 else { return }
        try load(from: url)
    }

    private let ignoresVersioning: Bool

    /// Reads the file and takes its rows, in place of those held; the identity recorded is
    /// that of the file read (read again when another save replaced it meanwhile).
    private func load(from url: URL) throws {
        var contents: AtomicStoreContents
        var identity: StoreFileIdentity?
        var attempts = 0
        repeat {
            identity = StoreFileIdentity(of: url)
            do {
                contents = try readContents(at: url)
            } catch {
                // Rows of entities the model lacks: said as another model when the store's
                // metadata (read without a model) shares no entity with it.
                if let stored = try? PersistentStoreCoordinator.metadataForStore(ofType: type, at: url).versionHashes,
                   case .otherModel = ObjectGraphError.mismatch(file: url.path, storeHashes: stored, model: model) {
                    throw ObjectGraphError.mismatch(file: url.path, storeHashes: stored, model: model)
                }
                throw error
            }
            attempts += 1
        } while StoreFileIdentity(of: url) != identity && attempts < 5
        if !ignoresVersioning, !contents.metadata.versionHashes.isEmpty {
            let differing = model.entitiesDiffering(fromVersionHashes: contents.metadata.versionHashes)
            if !differing.isEmpty { throw ObjectGraphError.mismatch(file: url.path, storeHashes: contents.metadata.versionHashes, model: model) }
        }
        var rows: [ManagedObjectID: StoredRow] = [:]
        var idsByEntity: [String: OrderedSet<ManagedObjectID>] = [:]
        // Keys and counters come from a file another program may have written: any 64-bit
        // number, the largest among them.
        var next: Int64? = max(1, contents.nextPrimaryKey)
        for row in contents.rows {
            try Self.check(row, in: model, file: url.path, seen: rows)
            rows[row.objectID] = row
            idsByEntity[row.objectID.entityName, default: []].append(row.objectID)
            if let key = row.objectID.primaryKey, let n = next, key >= n {
                next = key == .max ? nil : key + 1
            }
        }
        metadata = contents.metadata
        metadata.storeType = type
        self.rows = rows
        self.idsByEntity = idsByEntity
        nextPrimaryKey = next
        fileIdentity = identity
    }

    /// Refuses a row no context could hold: an object of an entity the model lacks or that is
    /// abstract, a key given twice (one of the two would be lost), a reference to an object
    /// of such an entity, under a key that is no relationship of that kind, or to an object
    /// of an entity the relationship does not lead to.
    private static func check(_ row: StoredRow, in model: ManagedObjectModel, file: String,
                              seen: [ManagedObjectID: StoredRow]) throws {
        func fault(_ id: ManagedObjectID) -> String? {
            guard let entity = model.entity(named: id.entityName) else { return "names entity '\(id.entityName)', which the model lacks" }
            return entity.isAbstract ? "is of the abstract entity \(id.entityName)" : nil
        }
        let id = row.objectID
        let name = "object \(id.entityName) \(id.primaryKey.map(String.init) ?? "?")"
        if let why = fault(id) {
            throw ObjectGraphError.storeFormat(file: file, reason: "\(name) \(why)")
        }
        if seen[id] != nil {
            throw ObjectGraphError.storeFormat(file: file, reason: "\(name) appears twice")
        }
        let entity = model.entity(named: id.entityName)!
        let references = row.toOne.map { ($0.key, $0.value, false) } + row.toMany.flatMap { key, ids in ids.map { (key, $0, true) } }
        for (key, target, toMany) in references {
            if let why = fault(target) {
                throw ObjectGraphError.storeFormat(file: file, reason: "\(name): '\(key)' refers to an object that \(why)")
            }
            // A reference of the wrong kind would load and read as if it were right.
            guard let relationship = entity.relationship(named: key), relationship.isToMany == toMany else {
                throw ObjectGraphError.storeFormat(file: file, reason: "\(name): '\(key)' is no \(toMany ? "to-many" : "to-one") relationship of \(entity.name)")
            }
            if model.entity(named: target.entityName)?.isKind(of: relationship.destinationEntityName) != true {
                throw ObjectGraphError.storeFormat(
                    file: file, reason: "\(name): '\(key)' refers to \(target.entityName) \(target.primaryKey.map(String.init) ?? "?"), "
                        + "not a \(relationship.destinationEntityName)")
            }
        }
    }

    // MARK: File format (subclasses)

    /// Reads the store's file. The base class has no file format.
    open func readContents(at url: URL) throws -> AtomicStoreContents {
        throw ObjectGraphError.noFileFormat(type)
    }

    /// Encodes the store's contents as the bytes of its file.
    open func encode(_ contents: AtomicStoreContents) throws -> Data {
        throw ObjectGraphError.noFileFormat(type)
    }

    /// Writes the file atomically: a temporary file beside it, flushed, then renamed over it.
    open func writeContents(_ contents: AtomicStoreContents, to url: URL) throws {
        try AtomicFile.write(try encode(contents), to: url)
    }

    // MARK: PersistentStore

    /// The row held for an object, or `nil` when the store does not have it.
    public func row(for objectID: ManagedObjectID) throws -> StoredRow? { rows[objectID] }

    /// The destinations of a to-many relationship, as the object's row holds them; empty for an
    /// object the store does not have.
    public func relatedObjectIDs(of objectID: ManagedObjectID, relationship: RelationshipDescription) throws -> [ManagedObjectID] {
        rows[objectID]?.toMany[relationship.name] ?? []
    }

    /// A value with the store's rows in it (a to-one's destination, a to-many's members)
    /// given by their objects' IDs: the rows are the store's own and never leave it.
    static func identified(_ value: ObjectValue) -> ObjectValue {
        switch value {
        case .object(let reference): return (reference as? RowObject).map { .object($0.row.objectID) } ?? value
        case .array(let values): return .array(values.map(identified))
        case .set(let values): return .set(values.map(identified))
        default: return value
        }
    }

    /// Runs a fetch over the rows in memory: filters and sorts them, applies the offset and
    /// limit, and answers with rows, a count or dictionaries.
    public func execute(_ request: StoreRequest) throws -> StoreResult {
        let ids = request.entityNames.flatMap { idsByEntity[$0] ?? [] }
        let query = InMemoryQuery(request: request.fetch)
        if request.fetch.predicate == nil, request.fetch.sortDescriptors.isEmpty, request.fetch.resultType != .dictionaries {
            let window = request.appliesLimits ? query.window(ids) : ids
            if request.fetch.resultType == .count { return .count(window.count) }
            return .rows(ids: window, rows: window.compactMap { rows[$0] })
        }
        let candidates = ids.compactMap { rows[$0] }.map { ObjectValue.object(RowObject(row: $0, store: self)) }
        var matching = try query.filterAndSort(candidates)
        switch request.fetch.resultType {
        case .dictionaries:
            guard let entity = model.entity(named: request.fetch.entityName) else {
                throw ObjectGraphError.unknownEntity(request.fetch.entityName)
            }
            // A relationship's value names its objects by ID, as the SQLite store's does.
            let dictionaries = try query.dictionaries(matching, entity: entity).map { $0.mapValues(Self.identified) }
            return .dictionaries(request.appliesLimits ? query.window(dictionaries) : dictionaries)
        case .count:
            return .count(request.appliesLimits ? query.window(matching).count : matching.count)
        case .managedObjects, .objectIDs:
            if request.appliesLimits { matching = query.window(matching) }
            let found = matching.compactMap { ($0.objectReference as? RowObject)?.row }
            return .rows(ids: found.map(\.objectID), rows: found)
        }
    }

    /// Checks row versions, applies the changes and writes the whole file atomically; all or
    /// nothing.
    ///
    /// - Throws: `ObjectGraphError.readOnlyStore` for a read-only store, `.storeFileMissing` when
    ///   the file was removed under the store, `MergeConflictError` for rows changed since they
    ///   were read (unless `changes.overwritesConflicts`), or the file's write error.
    public func save(_ changes: StoreChanges) throws -> StoreSaveResult {
        guard !isReadOnly else { throw ObjectGraphError.readOnlyStore(url?.path ?? identifier) }
        guard let url else { return try apply(changes) }
        // Another process's save since this store read the file: read it again, so that the
        // checks of row versions below see its changes (conflicts, as on SQLite) and the
        // file written keeps its objects.
        let lock = try StoreFileLock(for: url)
        // A file removed under the store is not made anew behind the user's back; a file
        // put in its place is read again below, and conflicts go through the merge policy.
        if fileIdentity != nil, StoreFileIdentity(of: url) == nil { throw ObjectGraphError.storeFileMissing(file: url.path) }
        if let current = StoreFileIdentity(of: url), current != fileIdentity, current.size > 0 { try load(from: url) }
        let result = try apply(changes)
        fileIdentity = StoreFileIdentity(of: url)
        _ = consume lock
        return result
    }

    /// Checks the changes against the rows held, writes the file with them applied, and
    /// takes them.
    private func apply(_ changes: StoreChanges) throws -> StoreSaveResult {
        var conflicts: [MergeConflict] = []
        for row in changes.updated {
            let stored = rows[row.objectID]
            if stored?.version != row.version {
                conflicts.append(MergeConflict(objectID: row.objectID, oldVersion: row.version,
                                               newVersion: stored?.version ?? 0, persisted: stored))
            }
        }
        for (id, version) in changes.deleted {
            if let stored = rows[id], stored.version != version {
                conflicts.append(MergeConflict(objectID: id, oldVersion: version, newVersion: stored.version, persisted: stored))
            }
        }
        if !conflicts.isEmpty && !changes.overwritesConflicts { throw MergeConflictError(conflicts: conflicts) }

        var newRows = rows
        var newIndex = idsByEntity
        var next = nextPrimaryKey
        var result = StoreSaveResult()
        result.insertedIDs = try changes.inserted.map { row in
            if row.objectID.primaryKey != nil, row.objectID.storeIdentifier == identifier {
                // Handed out by `obtainPermanentIDs` before the save.
                guard rows[row.objectID] == nil else {
                    throw ObjectGraphError.storeFormat(file: url?.path ?? identifier,
                                                       reason: "\(row.objectID) was handed out for a new object, but the store has it already")
                }
                return row.objectID
            }
            guard let key = next else {
                throw ObjectGraphError.primaryKeysExhausted(file: url?.path ?? identifier, entity: row.objectID.entityName)
            }
            next = key == .max ? nil : key + 1
            return ManagedObjectID(entityName: row.objectID.entityName, storeIdentifier: identifier,
                                   reference: .permanent(key))
        }
        let permanentIDs = result.permanentIDs(for: changes)
        func map(_ id: ManagedObjectID) -> ManagedObjectID { permanentIDs[id] ?? id }
        func mapped(_ row: StoredRow, version: Int64) -> StoredRow {
            StoredRow(objectID: map(row.objectID), version: version, attributes: row.attributes,
                      toOne: row.toOne.mapValues(map), toMany: row.toMany.mapValues { $0.map(map) })
        }
        for row in changes.inserted {
            let stored = mapped(row, version: 1)
            newRows[stored.objectID] = stored
            newIndex[stored.objectID.entityName, default: []].append(stored.objectID)
        }
        for row in changes.updated {
            // Versions only need to differ from the last: after the largest, 1 (as on SQLite).
            let previous = rows[row.objectID]?.version ?? row.version
            let version = previous == .max ? 1 : previous + 1
            var stored = mapped(row, version: version)
            // To-many relationships the context did not load are unchanged.
            for (name, members) in rows[row.objectID]?.toMany ?? [:] where stored.toMany[name] == nil {
                stored.toMany[name] = members
            }
            newRows[row.objectID] = stored
            if rows[row.objectID] == nil { newIndex[row.objectID.entityName, default: []].append(row.objectID) }
            result.versions[row.objectID] = version
        }
        for (id, _) in changes.deleted {
            newRows[id] = nil
            newIndex[id.entityName]?.remove(id)
        }
        var newMetadata = metadata
        newMetadata.versionHashes = model.entityVersionHashes
        newMetadata.versionIdentifiers = model.versionIdentifier.map { [$0] } ?? []
        if let url {
            let contents = AtomicStoreContents(
                metadata: newMetadata,
                rows: newIndex.keys.sorted().flatMap { newIndex[$0]!.compactMap { newRows[$0] } },
                nextPrimaryKey: next ?? .max)
            try writeContents(contents, to: url)
        }
        rows = newRows
        idsByEntity = newIndex
        nextPrimaryKey = next
        metadata = newMetadata
        return result
    }

    /// Writes the rows held, as the last save left them, to a file at `url`.
    public func copyStore(to url: URL) throws {
        let contents = AtomicStoreContents(
            metadata: metadata,
            rows: idsByEntity.keys.sorted().flatMap { idsByEntity[$0]!.compactMap { rows[$0] } },
            nextPrimaryKey: nextPrimaryKey ?? .max)
        try writeContents(contents, to: url)
    }

    /// Permanent IDs for objects not saved yet, one per entity name: keys from the store's
    /// counter, which the next save writes to the file.
    public func obtainPermanentIDs(for entityNames: [String]) throws -> [ManagedObjectID] {
        var next = nextPrimaryKey
        let ids = try entityNames.map { name in
            guard let key = next else {
                throw ObjectGraphError.primaryKeysExhausted(file: url?.path ?? identifier, entity: name)
            }
            next = key == .max ? nil : key + 1
            return ManagedObjectID(entityName: name, storeIdentifier: identifier, reference: .permanent(key))
        }
        nextPrimaryKey = next
        return ids
    }

    /// Does nothing: an atomic store holds no file open between saves.
    public func close() {}
}

/// Everything an atomic store's file holds.
public struct AtomicStoreContents: Sendable {
    /// The store's metadata: its type, UUID, model version hashes and application keys.
    public var metadata: StoreMetadata
    /// Every row the store holds, of every entity.
    public var rows: [StoredRow]
    /// The next primary key to hand out.
    public var nextPrimaryKey: Int64

    /// The contents of a file: its metadata, its rows and the next primary key to hand out.
    public init(metadata: StoreMetadata, rows: [StoredRow], nextPrimaryKey: Int64) {
        self.metadata = metadata
        self.rows = rows
        self.nextPrimaryKey = nextPrimaryKey
    }
}

/// A stored row seen as an object, so predicates and sort descriptors can walk its
/// relationships to other rows.
final class RowObject: KeyValueObject {
    let row: StoredRow
    unowned let store: AtomicStore

    init(row: StoredRow, store: AtomicStore) {
        self.row = row
        self.store = store
    }

    var identity: AnyHashable { AnyHashable(row.objectID) }
    var keyValueTypeName: String { row.objectID.entityName }

    func value(forKey key: String) throws -> ObjectValue {
        guard let entity = store.model.entity(named: row.objectID.entityName) else { return .null }
        if entity.attribute(named: key) != nil { return row.attributes[key] ?? .null }
        if let relationship = entity.relationship(named: key) {
            if relationship.isToMany {
                let members = (row.toMany[key] ?? []).compactMap { store.rows[$0] }
                    .map { ObjectValue.object(RowObject(row: $0, store: store)) }
                return relationship.isOrdered ? .array(members) : .set(members)
            }
            guard let id = row.toOne[key], let destination = store.rows[id] else { return .null }
            return .object(RowObject(row: destination, store: store))
        }
        if key == "objectID" { return .object(row.objectID) }
        throw KeyValueError.unknownKey(key, typeName: entity.name)
    }
}
