import Foundation
import ObjectModel
import Predicates

/// A store in one compact binary file, read whole on open and written whole, atomically, at
/// each save. The format is in `docs/StoreFormats.md`.
public final class BinaryStore: AtomicStore {
    public init(model: ManagedObjectModel, url: URL, configurationName: String? = nil,
                options: StoreOptions = StoreOptions()) throws {
        try super.init(type: .binary, model: model, url: url, configurationName: configurationName, options: options)
    }

    public override func readContents(at url: URL) throws -> AtomicStoreContents {
        let data = try AtomicFile.read(url)
        return try BinaryStoreCoding.decode(data, model: model, file: url.path)
    }

    public override func encode(_ contents: AtomicStoreContents) throws -> Data {
        try BinaryStoreCoding.encode(contents)
    }
}
