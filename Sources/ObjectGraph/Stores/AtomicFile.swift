import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes a file so that readers see the old bytes or the new, never a mixture: the
/// data goes to a temporary file in the same folder, is flushed to disk, then renamed
/// over the target.
package enum AtomicFile {
    /// The whole file; a failure names the file.
    package static func read(_ url: URL) throws -> Data {
        do { return try Data(contentsOf: url) } catch {
            throw ObjectGraphError.storeFormat(file: url.path, reason: "cannot be read: \(error.localizedDescription)")
        }
    }

    package static func write(_ data: Data, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw ObjectGraphError.storeFormat(file: url.path, reason: "cannot create a temporary file in \(folder.path)")
        }
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw ObjectGraphError.storeFormat(file: url.path, reason: "cannot write: \(error.localizedDescription)")
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw ObjectGraphError.storeFormat(file: url.path, reason: "cannot replace the file: \(reason)")
        }
    }
}
