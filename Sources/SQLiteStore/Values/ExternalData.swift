import Foundation
import ObjectGraph

/// Binary values of attributes that allow external storage, kept as Core Data keeps them.
///
/// The column holds a tag byte, then either the bytes themselves (tag 1) or, for a large
/// value, the name of a file (tag 2; ASCII, ending in a NUL byte) in
/// `.<store name>_SUPPORT/_EXTERNAL_DATA/` beside the store file. A store in memory keeps
/// every value inline.
struct ExternalData {
    static let inlineTag: UInt8 = 1
    static let fileTag: UInt8 = 2
    /// Values of this many bytes or more go to a file; smaller ones stay in the row, where
    /// reading them costs less than opening a file.
    static let fileThreshold = 128 * 1024

    /// Where the files live; `nil` for a store in memory.
    let directory: URL?

    init(storeURL: URL?) {
        directory = storeURL.map(StoreFiles.externalDataDirectory(forStoreAt:))
    }

    /// The file a stored value refers to; `nil` when the value holds its bytes, or when the
    /// name could leave the folder (a name is a single component that does not start with a
    /// dot; Core Data's are UUIDs).
    static func fileName(of stored: Data) -> String? {
        guard stored.first == fileTag else { return nil }
        let name = String(decoding: stored.dropFirst().prefix { $0 != 0 }, as: UTF8.self)
        guard !name.isEmpty, !name.hasPrefix("."), !name.contains("/"), !name.contains("\\") else { return nil }
        return name
    }

    /// The bytes a stored value stands for. A value without a tag (written before values
    /// were tagged) is its own bytes.
    ///
    /// - Throws: `ObjectGraphError.storeFormat` naming the file when a referenced file is
    ///   missing or unreadable.
    func bytes(of stored: Data, attribute: String) throws -> Data {
        switch stored.first {
        case Self.inlineTag?:
            return Data(stored.dropFirst())
        case Self.fileTag?:
            guard let directory, let name = Self.fileName(of: stored) else {
                let name = String(decoding: stored.dropFirst().prefix { $0 != 0 }.prefix(80), as: UTF8.self)
                throw ObjectGraphError.storeFormat(file: directory?.path ?? ":memory:",
                                                   reason: "\(attribute) refers to an external file '\(name)' that cannot be read here")
            }
            let file = directory.appendingPathComponent(name)
            do {
                return try Data(contentsOf: file, options: .mappedIfSafe)
            } catch {
                throw ObjectGraphError.storeFormat(file: file.path, reason: "the external data of \(attribute) is missing or unreadable")
            }
        default:
            return stored
        }
    }

    /// The stored value for bytes: inline, or in a new file when large. `previous` is the
    /// file the row referred to; it is kept when it holds the same bytes.
    ///
    /// - Returns: the value to store and the name of the file written, if any.
    func stored(_ bytes: Data, previous: String?) throws -> (value: Data, written: String?) {
        guard let directory, bytes.count >= Self.fileThreshold else {
            var value = Data(capacity: bytes.count + 1)
            value.append(Self.inlineTag)
            value.append(bytes)
            return (value, nil)
        }
        if let previous, let existing = try? Data(contentsOf: directory.appendingPathComponent(previous), options: .mappedIfSafe),
           existing == bytes {
            return (Self.reference(previous), nil)
        }
        let name = UUID().uuidString
        // Flushed to disk before the row that refers to it is committed.
        try AtomicFile.write(bytes, to: directory.appendingPathComponent(name))
        return (Self.reference(name), name)
    }

    private static func reference(_ name: String) -> Data {
        var value = Data([fileTag])
        value.append(contentsOf: Array(name.utf8))
        value.append(0)
        return value
    }

    /// Removes files no row refers to any more; a file that cannot be removed stays.
    func remove(_ names: [String]) {
        guard let directory else { return }
        for name in names {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }
}

/// The files a save wrote and those it made obsolete: after a commit the obsolete ones are
/// removed, after a failure the written ones, so the folder always matches the rows.
final class ExternalDataChanges {
    var written: [String] = []
    var obsolete: [String] = []
}
