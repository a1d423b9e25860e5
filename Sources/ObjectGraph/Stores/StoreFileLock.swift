import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The version of a file a store read or wrote last: which file the path named, its size
/// and when it last changed. A save replaces the file (a new inode), so any other process's
/// save shows as a different identity.
struct StoreFileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let seconds: Int
    let nanoseconds: Int

    /// The identity of the file `url` names now, or nil when there is none.
    init?(of url: URL) {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        seconds = Int(info.st_mtim.tv_sec)
        nanoseconds = Int(info.st_mtim.tv_nsec)
    }
}

/// An exclusive lock that saves of one store file take, across processes: `flock` on a
/// `.<name>.lock` file beside the store (beside the file a symbolic link names). It is held
/// from the check that the file is the version last read until the new file is in place.
///
/// The lock file lives only while a save holds it, as SQLite's journal does: the holder
/// removes it before letting go. A process that was waiting on the removed file finds, once
/// it has the lock, that the path no longer names that file, and starts again.
struct StoreFileLock: ~Copyable {
    private let descriptor: Int32
    private let path: String

    /// Takes the lock, waiting up to `timeout` seconds for another process's save.
    ///
    /// - Throws: `ObjectGraphError.storeFormat` when the lock file cannot be made, or the
    ///   lock is still held after the timeout.
    init(for store: URL, timeout: TimeInterval = 10) throws {
        let target = store.resolvingSymlinksInPath()
        path = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).lock").path
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                throw ObjectGraphError.storeFormat(file: store.path, reason: "cannot make the lock file beside it: \(String(cString: strerror(errno)))")
            }
            while flock(fd, LOCK_EX | LOCK_NB) != 0 {
                guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else {
                    close(fd)
                    throw ObjectGraphError.storeFormat(file: store.path, reason: "another process has been saving it for \(Int(timeout)) s; try again")
                }
                usleep(10_000)
            }
            var held = stat(), named = stat()
            if fstat(fd, &held) == 0, stat(path, &named) == 0, held.st_ino == named.st_ino, held.st_dev == named.st_dev {
                descriptor = fd
                return
            }
            close(fd)   // the holder before removed this file: lock the one the path names now
        }
    }

    deinit {
        unlink(path)
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
