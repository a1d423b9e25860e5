import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file so that readers see the old bytes or the new, never a mixture: the
/// data goes to a temporary file in the same folder, is flushed to disk, then renamed
/// over the target.
///
/// The file is the one a path leads to: a symbolic link stays a link, and the file it names
/// is replaced, beside itself. The new file keeps the old one's permissions and, where the
/// system allows, its owner and group. A file nobody may write (no write permission bit)
/// is refused rather than replaced. A failed write removes its temporary file; one left by
/// a process that was killed mid-save is removed by the next save in that folder.
package enum AtomicFile {
    /// The whole file; a failure names the file.
    package static func read(_ url: URL) throws -> Data {
        do { return try Data(contentsOf: url) } catch {
            throw ObjectGraphError.storeFormat(file: url.path, reason: "cannot be read: \(error.localizedDescription)")
        }
    }

    package static func write(_ data: Data, to url: URL) throws {
        let target = url.resolvingSymlinksInPath()
        let folder = target.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var existing = stat()
        let exists = stat(target.path, &existing) == 0
        if exists, existing.st_mode & 0o222 == 0 || access(target.path, W_OK) != 0 {
            throw ObjectGraphError.storeFormat(file: url.path, reason: "the file is read-only (mode \(String(existing.st_mode & 0o7777, radix: 8))); "
                                               + "make it writable (chmod u+w) to save, or open it read-only")
        }
        removeAbandonedTemporaries(of: target)
        let temporary = folder.appendingPathComponent(".\(target.lastPathComponent).\(getpid()).\(UUID().uuidString).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil,
                                             attributes: [.posixPermissions: exists ? Int(existing.st_mode & 0o7777) : 0o644]) else {
            throw ObjectGraphError.storeFormat(file: url.path, reason: "cannot create a temporary file in \(folder.path)")
        }
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            if exists {
                // The permissions again (createFile's are narrowed by the umask), then the
                // owner, which only a privileged process may give away: failing that is fine.
                _ = fchmod(handle.fileDescriptor, existing.st_mode & 0o7777)
                _ = fchown(handle.fileDescriptor, existing.st_uid, existing.st_gid)
            }
            try handle.synchronize()
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw ObjectGraphError.storeFormat(file: url.path, reason: "cannot write: \(error.localizedDescription)")
        }
        guard rename(temporary.path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw ObjectGraphError.storeFormat(file: url.path, reason: "cannot replace the file: \(reason)")
        }
        // The rename is on disk once the folder is.
        let directory = open(folder.path, O_RDONLY)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
    }

    /// Removes temporary files of `target` that processes no longer running left behind:
    /// `.<name>.<pid>.<UUID>.tmp`, where no process `pid` exists.
    static func removeAbandonedTemporaries(of target: URL) {
        let folder = target.deletingLastPathComponent()
        let prefix = ".\(target.lastPathComponent)."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let parts = name.dropFirst(prefix.count).dropLast(".tmp".count).split(separator: ".")
            guard parts.count == 2, UUID(uuidString: String(parts[1])) != nil, let pid = Int32(parts[0]),
                  pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }
}
