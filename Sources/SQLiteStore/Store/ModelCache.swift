import CZlib
import Foundation
import GRDB
import ObjectGraph
import ObjectModel
import SQLSyntax

/// The model a Core Data SQLite store keeps of itself: `Z_MODELCACHE.Z_CONTENT`, the
/// compiled model (a `.mom` archive, in the cache's own layout) compressed with raw DEFLATE.
///
/// ```swift
/// if let model = try SQLiteStore.cachedModel(at: url) { ... }   // no .xcdatamodeld needed
/// ```
extension SQLiteStore {
    /// The largest cached model inflated: a model is kilobytes; a larger result is not one.
    public static let maximumCachedModelSize = 64 * 1_048_576

    /// The model cached in the store at `url`, or `nil` when the store keeps none (older
    /// stores have no `Z_MODELCACHE`; some have the table with no row). The file is read as
    /// it is and left so, WAL included.
    ///
    /// - Throws: `ObjectGraphError.storeFormat` when the file cannot be read as a store;
    ///   `ModelError` naming the store when the cached model is damaged.
    public static func cachedModel(at url: URL) throws -> ManagedObjectModel? {
        let blob = try readingFile(at: url) { database in
            try database.read { db -> Data? in
                guard try db.tableExists("Z_MODELCACHE") else { return nil }
                return try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE WHERE Z_CONTENT IS NOT NULL LIMIT 1")
            }
        }
        guard let blob, !blob.isEmpty else { return nil }
        let name = "\(url.path) (Z_MODELCACHE)"
        let archive: Data
        do { archive = try inflateRaw(blob, limit: maximumCachedModelSize) } catch let problem as InflateProblem {
            throw ModelError(.unreadable("the cached model is not DEFLATE data: \(problem.message)"), file: name)
        }
        return try CompiledModelFile.model(archive: archive, file: name)
    }

    /// What in the tables of the store at `url` contradicts `model`: entities `Z_PRIMARYKEY`
    /// lacks, tables and columns missing or beyond the model, columns declared for another
    /// kind of value than the model keeps in them. Empty when the store's tables fit the
    /// model, as they fit the model a store caches of itself unless something else changed
    /// them.
    public static func contradictions(between model: ManagedObjectModel, andTablesAt url: URL) throws -> [String] {
        try readingFile(at: url) { database in
            try database.read { db -> [String] in
                let numbers = try StoreSchema.entityNumbers(in: db, for: [model])
                let missing = model.entities.map(\.name).filter { numbers[$0] == nil }
                if !missing.isEmpty { return ["Z_PRIMARYKEY lacks \(missing.sorted().joined(separator: ", "))"] }
                return try StoreSchema(model: model, numbers: numbers).differences(from: db)
            }
        }
    }

    /// The model a store found without one opens on.
    public enum OwnModel: Sendable {
        /// The model the store caches of itself (`Z_MODELCACHE`), which its tables fit.
        case cached(ManagedObjectModel)
        /// A model inferred from the store's tables, where it caches none; or where its cache
        /// does not fit its tables (another program changed them), with a note saying how, which
        /// is also the first of the model's notes.
        case inferred(InferredModel, cacheMisfit: String?)
    }

    /// The model of a Core Data SQLite store found without one: the model it caches of
    /// itself while its tables fit it, else one inferred from its tables. The file is read
    /// as it is and left so.
    ///
    /// ```swift
    /// if case .cached(let model) = try SQLiteStore.ownModel(at: url) { ... }
    /// ```
    public static func ownModel(at url: URL) throws -> OwnModel {
        var misfit: String?
        if let cached = try cachedModel(at: url) {
            let contradictions = try contradictions(between: cached, andTablesAt: url)
            if contradictions.isEmpty { return .cached(cached) }
            misfit = "The model \(url.lastPathComponent) caches of itself (Z_MODELCACHE) does not fit its tables, "
                + "so this one is inferred from them: " + contradictions.joined(separator: "; ")
        }
        var inferred = try inferModel(at: url)
        if let misfit { inferred.notes.insert(misfit, at: 0) }
        return .inferred(inferred, cacheMisfit: misfit)
    }

    struct InflateProblem: Error { var message: String }

    /// Inflates raw DEFLATE data (no zlib or gzip header), refusing a result over `limit`.
    static func inflateRaw(_ data: Data, limit: Int) throws -> Data {
        var stream = z_stream()
        // Negative window bits: raw DEFLATE, as Core Data writes the cache.
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw InflateProblem(message: "zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var input = [UInt8](data)
        let count = input.count
        return try input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = uInt(count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { out -> Int32 in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                output.append(contentsOf: chunk[0..<produced])
                guard output.count <= limit else {
                    throw InflateProblem(message: "it inflates to more than \(limit / 1_048_576) MB")
                }
                switch status {
                case Z_STREAM_END: return output
                case Z_OK: continue
                case Z_BUF_ERROR where stream.avail_in == 0:
                    throw InflateProblem(message: "it ends before its last block")
                default:
                    let message = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                    throw InflateProblem(message: message)
                }
            }
        }
    }
}
