import Foundation
import ObjectModel
import Predicates

/// A store in one compact binary file, read whole on open and written whole, atomically, at
/// each save. The format is in `docs/StoreFormats.md`.
public final class BinaryStore: AtomicStore {
    /// Opens the binary file at `url`, reading it when it exists; a missing or empty file is a new
    /// store, written at the first save.
    ///
    /// - Throws: `ObjectGraphError.storeFormat` for a file that cannot be read;
    ///   `.incompatibleStore` for one written with another model version (unless
    ///   `options.ignoresVersioning`), `.otherModel` for one of another model altogether.
    public init(model: ManagedObjectModel, url: URL, configurationName: String? = nil,
                options: StoreOptions = StoreOptions()) throws {
        try super.init(type: .binary, model: model, url: url, configurationName: configurationName, options: options)
    }

    /// Reads and decodes the binary file at `url`.
    public override func readContents(at url: URL) throws -> AtomicStoreContents {
        let data = try AtomicFile.read(url)
        return try BinaryStoreCoding.decode(data, model: model, file: url.path)
    }

    /// Encodes the contents in the binary format.
    public override func encode(_ contents: AtomicStoreContents) throws -> Data {
        try BinaryStoreCoding.encode(contents)
    }
}
