import Foundation
import ObjectModel

extension PersistentStoreCoordinator {
    /// Reads a store file's metadata — its type, UUID and the version hashes of the model
    /// it was written with — without a model and without opening it.
    public typealias MetadataReader = @Sendable (URL) throws -> StoreMetadata

    nonisolated(unsafe) private static var metadataReaders: [StoreType: MetadataReader] = [
        .xml: { try XMLStore.readMetadata(at: $0) },
        .binary: { try BinaryStore.readMetadata(at: $0) },
    ]
    private static let metadataLock = NSLock()

    /// Lets `metadataForStore(ofType:at:)` read stores of another type.
    public static func registerMetadataReader(_ type: StoreType, reader: @escaping MetadataReader) {
        metadataLock.lock()
        defer { metadataLock.unlock() }
        metadataReaders[type] = reader
    }

    /// The metadata of the store file at `url`.
    ///
    /// - Throws: `ObjectGraphError.storeFormat` when the file is not a store of that type.
    public static func metadataForStore(ofType type: StoreType, at url: URL) throws -> StoreMetadata {
        metadataLock.lock()
        let reader = metadataReaders[type]
        metadataLock.unlock()
        guard let reader else { throw ObjectGraphError.noMetadataReader(type) }
        // A server's store (postgres://) is asked by its reader; a file is looked at first.
        if url.isFileURL {
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw ObjectGraphError.storeFormat(file: url.path, reason: "no such store file")
            }
            try StoreFiles.checkIsRegularFile(url)
            try StoreFiles.checkPermissions(url, readOnly: true)
        }
        return try reader(url)
    }
}

extension XMLStore {
    /// The metadata of an XML store file, read without a model.
    public static func readMetadata(at url: URL) throws -> StoreMetadata {
        // The metadata comes first; read up to its end tag.
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ObjectGraphError.storeFormat(file: url.path, reason: "cannot be read: \(error.localizedDescription)")
        }
        let text = String(decoding: data.prefix(1 << 20), as: UTF8.self)
        guard let end = text.range(of: "</metadata>") else {
            throw ObjectGraphError.storeFormat(file: url.path, reason: "not a TermData XML store (no metadata)")
        }
        let head = String(text[..<end.upperBound]) + "</store>"
        let empty = try ManagedObjectModel(entities: [])
        return try XMLStoreReader(model: empty, file: url.path).read(Data(head.utf8)).metadata
    }
}

extension BinaryStore {
    /// The metadata of a binary store file, read without a model.
    public static func readMetadata(at url: URL) throws -> StoreMetadata {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ObjectGraphError.storeFormat(file: url.path, reason: "cannot be read: \(error.localizedDescription)")
        }
        return try BinaryStoreCoding.decodeMetadata(data, file: url.path)
    }
}
