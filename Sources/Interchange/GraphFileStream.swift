import Foundation
import ObjectGraph
import ObjectModel
import Predicates

/// A graph file read from disk in passes, one object at a time, never held whole: a first
/// pass checks it against a model (`check`), a second writes its objects as rows straight to
/// a store, in parts, in one transaction (`importObjects`). Memory stays near what the
/// checks keep across objects (a number per `@id`, the references between objects) and one
/// part of rows, whatever the file's size.
///
/// ```swift
/// let file = try GraphFileStream(path: "todo.json")
/// try file.check(against: model)           // GraphFileError or GraphImportError
/// let count = try file.importObjects(into: coordinator)
/// ```
public final class GraphFileStream {
    /// The path the file was opened from, as errors name it.
    public let path: String
    private let mapped: MappedFile
    private var checked: GraphCheck?

    /// How many rows are written at a time.
    public static let partSize = 10_000

    /// Opens the file for reading.
    ///
    /// - Throws: `GraphFileStreamError` when it cannot be read.
    public init(path: String) throws {
        self.path = path
        mapped = try MappedFile(path: path)
    }

    /// The file's size in bytes.
    public var byteCount: Int { mapped.count }

    /// How many objects the file holds, once checked.
    public var objectCount: Int { Int(checked?.count ?? 0) }

    /// Whether the checked file can be written as rows in turn (`importObjects(into:)`);
    /// one that gives ordered relationships, or to-many ones without an inverse, or objects
    /// of an entity with uniqueness constraints, is imported through a context
    /// (`GraphFile(data:)`), whose objects set them and whose save checks the constraints.
    public var writesAsRows: Bool { checked.map { !$0.needsObjects } ?? false }

    /// The whole file, read into values at once, for an import through a context
    /// (`GraphFile.importObjects(into:)`) where rows cannot be written.
    ///
    /// - Throws: `GraphFileStreamError.changed` when the file changed since it was opened;
    ///   `GraphFileError` when it is not a graph file.
    public func wholeFile() throws -> GraphFile {
        guard mapped.isUnchanged else { throw GraphFileStreamError.changed(path: path) }
        let json: JSONValue
        do {
            json = try mapped.withBytes { try JSONSyntax.parse($0) }
        } catch {
            throw GraphFileError(.notJSON("at \(error)"))
        }
        return try GraphFile(json: json)
    }

    /// Reads the whole file and checks it against the model, as `GraphFile.problems(for:)`
    /// does, and the model's rules for values and relationship counts besides.
    ///
    /// - Parameter model: the model the file's entities, values and relationships must fit.
    /// - Parameter progress: called now and then with the bytes read so far.
    /// - Throws: `GraphFileError` when the file is not a graph file; `GraphImportError`
    ///   with every problem found.
    public func check(against model: ManagedObjectModel, progress: ((Int) throws -> Void)? = nil) throws {
        var check = GraphCheck(model: model, checksModelRules: true)
        let top = try read(passed: progress) { name in
            check.begin(entity: name)
        } object: { _, index, object in
            check.add(object, index: index)
        }
        try Self.checkHeader(top)
        let problems = check.finish()
        guard problems.isEmpty else { throw GraphImportError(problems: problems) }
        checked = check
    }

    /// Writes the checked file's objects to the store that holds their entities, in one
    /// transaction recorded under `transaction`, in parts of `partSize` rows. Nothing is
    /// made of them in any context: a context that is to show them fetches them, or merges
    /// the store's history.
    ///
    /// - Parameter coordinator: the coordinator whose store receives the rows.
    /// - Parameter transaction: the author and context name the transaction is recorded under
    ///   in the store's history.
    /// - Parameter partSize: how many rows are written at a time.
    /// - Parameter progress: called after each part with the objects written so far; an
    ///   error it throws ends the import with nothing written, and is thrown.
    /// - Returns: how many objects were imported.
    /// - Throws: `GraphFileStreamError.notChecked`, `.cannotWriteRows` (one store does not
    ///   hold every entity, or does not write rows in bulk, or an entity has a class of its
    ///   own, whose hooks and checks run on objects: import through a context); the store's
    ///   error, with nothing written.
    @discardableResult
    public func importObjects(into coordinator: PersistentStoreCoordinator, transaction: TransactionInfo = TransactionInfo(),
                              partSize: Int = GraphFileStream.partSize, progress: ((Int) throws -> Void)? = nil) throws -> Int {
        guard let check = checked else { throw GraphFileStreamError.notChecked }
        let runs = check.runs.filter { $0.count > 0 }
        guard !runs.isEmpty else { return 0 }
        // The second pass reads the file again: it must be the file the first one checked.
        guard mapped.isUnchanged else { throw GraphFileStreamError.changed(path: path) }
        // A class of one's own may set values as it is inserted or refuse some at a save:
        // its objects are made, in a context.
        guard writesAsRows, runs.allSatisfy({ coordinator.objectClass(forEntityName: $0.name) == ManagedObject.self }),
              let store = coordinator.bulkInsertingStore(for: runs.map(\.name)) else {
            throw GraphFileStreamError.cannotWriteRows
        }
        let storeIdentifier = store.identifier
        try coordinator.insertInOneTransaction(into: store, counts: Dictionary(uniqueKeysWithValues: runs.map { ($0.name, Int($0.count)) }),
                                               transaction: transaction) { firstKeys, write in
            // The IDs of referred objects, kept while there are few: many rows refer to the
            // same few owners, and the history groups owners by instance.
            var targets: [Int32: ManagedObjectID] = [:]
            func id(of number: Int32) -> ManagedObjectID {
                if let known = targets[number] { return known }
                let (run, index) = check.place(of: number)
                let id = ManagedObjectID(entityName: run.name, storeIdentifier: storeIdentifier,
                                         reference: .permanent(firstKeys[run.name]! + Int64(index)))
                if targets.count >= 100_000 { targets.removeAll(keepingCapacity: true) }
                targets[number] = id
                return id
            }
            var rows: [StoredRow] = []
            rows.reserveCapacity(partSize)
            var written = 0
            var plan: RowPlan?
            _ = try read { _ in } object: { name, index, object in
                if plan?.name != name { plan = RowPlan(name: name, check: check, firstKey: firstKeys[name] ?? 0) }
                let plan = plan!
                let number = plan.start + Int32(index)
                var values = plan.defaults
                var toOne: [String: ManagedObjectID] = [:]
                var toMany: [String: [ManagedObjectID]] = [:]
                for (key, value) in object where key != "@id" {
                    if let i = plan.entity.attributeIndex(of: key) {
                        if !plan.transient[i], let v = value.attributeValue(plan.entity.attributes[i].type) { values[i] = v }
                    } else if let r = plan.entity.relationship(named: key) {
                        if !r.isToMany {
                            if case .string(let target) = value { toOne[key] = id(of: check.numbers[target]!) }
                        } else if plan.joinTables.contains(key), case .array(let members) = value {
                            // A many-to-many's join rows; a one-to-many is said by its members' rows.
                            toMany[key] = members.compactMap { member in
                                if case .string(let target) = member { return id(of: check.numbers[target]!) }
                                return nil
                            }
                        }
                    }
                }
                for (key, name) in plan.impliedToOnes where toOne[key] == nil && !object.contains(where: { $0.key == key }) {
                    if let owner = check.impliedToOne[check.pair(number, name)] { toOne[key] = id(of: owner) }
                }
                let objectID = ManagedObjectID(entityName: plan.entity.name, storeIdentifier: storeIdentifier,
                                               reference: .permanent(plan.firstKey + Int64(index)))
                rows.append(StoredRow(objectID: objectID, entity: plan.entity, values: values, toOne: toOne, toMany: toMany))
                if rows.count == partSize {
                    try write(rows)
                    written += rows.count
                    rows.removeAll(keepingCapacity: true)
                    try progress?(written)
                }
            }
            if !rows.isEmpty {
                try write(rows)
                written += rows.count
                try progress?(written)
            }
        }
        return objectCount
    }

    /// What the rows of one entity are made of, looked up once per entity.
    private struct RowPlan {
        let name: String
        let entity: Entity
        let start: Int32
        let firstKey: Int64
        let defaults: [ObjectValue]
        let transient: [Bool]
        /// Many-to-many relationships, whose join rows each side's rows may carry.
        let joinTables: Set<String>
        /// To-one relationships with an inverse, by name number: the other side may give them.
        let impliedToOnes: [(key: String, name: Int32)]

        init(name: String, check: GraphCheck, firstKey: Int64) {
            let run = check.runs.first { $0.name == name }!
            let entity = run.entity!
            self.name = name
            self.entity = entity
            start = run.start
            self.firstKey = firstKey
            defaults = entity.attributes.map { $0.isTransient ? .null : $0.defaultValue }
            transient = entity.attributes.map(\.isTransient)
            let model = check.model
            joinTables = Set(entity.relationships.filter { r in
                r.isToMany && r.inverseName.flatMap { model.entity(named: r.destinationEntityName)?.relationship(named: $0)?.isToMany } == true
            }.map(\.name))
            impliedToOnes = entity.relationships.filter { !$0.isToMany && $0.inverseName != nil }
                .compactMap { r in check.number(ofRelationship: r.name).map { (r.name, $0) } }
        }
    }

    // MARK: Reading

    /// One pass over the file: each entity's list as it begins, each object in it.
    private func read(passed: ((Int) throws -> Void)?, entity: (String) throws -> Void = { _ in },
                      object: (_ entity: String, _ index: Int, _ object: [(key: String, value: JSONValue)]) throws -> Void) throws -> JSONValue {
        mapped.rewind()
        defer { mapped.letGo(upTo: mapped.count) }
        do {
            return try mapped.withBytes { bytes in
                try JSONSyntax.stream(bytes, arraysIn: "entities", passed: { offset in
                    mapped.letGo(upTo: offset)
                    try passed?(offset)
                }, opened: entity) { name, index, value in
                    guard let index else { throw GraphFileError(.entityNotAnArray(name)) }
                    guard case .members(let members) = value else { throw GraphFileError(.objectNotAnObject(entity: name, index: index)) }
                    try object(name, index, members)
                }
            }
        } catch let error as JSONSyntaxError {
            throw GraphFileError(.notJSON("at \(error)"))
        }
    }

    /// The members besides `entities`, as `GraphFile(data:)` checks them.
    private static func checkHeader(_ value: JSONValue) throws {
        guard case .object(let top) = value else { throw GraphFileError(.notAnObject) }
        guard top["format"] == .string(GraphFile.format) else { throw GraphFileError(.wrongFormat) }
        guard top["version"] == .int(GraphFile.version) else { throw GraphFileError(.unsupportedVersion) }
        guard case .object? = top["entities"] else { throw GraphFileError(.noEntities) }
    }
}

/// Why a graph file could not be read or imported as a stream.
public enum GraphFileStreamError: Error, Equatable, CustomStringConvertible {
    /// The file could not be opened or mapped: its path and the system's reason.
    case cannotRead(path: String, reason: String)
    /// `importObjects` before `check`.
    case notChecked
    /// The file was changed or replaced after it was checked.
    case changed(path: String)
    /// The entities are not all in one store that writes rows in bulk, or the file gives
    /// relationships that need objects: import it through a context.
    case cannotWriteRows

    /// The failure as one line of text, naming the file where there is one.
    public var description: String {
        switch self {
        case let .cannotRead(path, reason): "cannot read \(path): \(reason)"
        case .notChecked: "the file is imported after it is checked"
        case .changed(let path): "\(path) changed after it was checked; nothing imported"
        case .cannotWriteRows: "the file's objects cannot be written as rows to this store; import them through a context"
        }
    }
}

/// A file's bytes mapped into memory, read front to back: pages behind the reading are let
/// go, so that reading a large file holds little of it at a time. What is not a regular file
/// (a pipe, `/dev/stdin`) is read into memory whole instead, to be read again.
final class MappedFile {
    let count: Int
    private let base: UnsafeMutableRawPointer?
    private let owned: Data?
    private let path: String
    private let identity: [Int]
    private var released = 0
    private static let page = Int(sysconf(Int32(_SC_PAGESIZE)))

    init(path: String) throws {
        self.path = path
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            let reason = errno == ENOENT ? "there is no such file" : errno == EACCES ? "you may not read it (permission denied)" : String(cString: strerror(errno))
            throw GraphFileStreamError.cannotRead(path: path, reason: reason)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw GraphFileStreamError.cannotRead(path: path, reason: String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            if (info.st_mode & S_IFMT) == S_IFDIR { throw GraphFileStreamError.cannotRead(path: path, reason: "it is a folder") }
            let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: false)
            do {
                owned = try handle.readToEnd() ?? Data()
            } catch {
                throw GraphFileStreamError.cannotRead(path: path, reason: "\(error.localizedDescription)")
            }
            count = owned!.count
            base = nil
            identity = []
            return
        }
        owned = nil
        identity = Self.identity(info)
        count = Int(info.st_size)
        guard count > 0 else { base = nil; return }
        guard let mapping = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0), mapping != MAP_FAILED else {
            throw GraphFileStreamError.cannotRead(path: path, reason: String(cString: strerror(errno)))
        }
        madvise(mapping, count, MADV_SEQUENTIAL)
        base = mapping
    }

    deinit {
        if let base { munmap(base, count) }
    }

    private static func identity(_ info: stat) -> [Int] {
        [Int(info.st_dev), Int(info.st_ino), Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
    }

    /// Whether the file is still the one mapped, as it was: a file written over between two
    /// readings would be read half old, half new.
    var isUnchanged: Bool {
        guard owned == nil else { return true }
        var info = stat()
        return stat(path, &info) == 0 && Self.identity(info) == identity
    }

    func withBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        if let owned { return try owned.withUnsafeBytes(body) }
        return try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Reading starts again from the front.
    func rewind() { released = 0 }

    /// Lets go of the pages before `offset`: read again, they come back from the file.
    func letGo(upTo offset: Int) {
        guard let base else { return }
        let end = offset / Self.page * Self.page
        guard end > released else { return }
        madvise(base + released, end - released, MADV_DONTNEED)
        released = end
    }
}
