import Foundation

/// One Swift file of a folder being ported: where it is, and its port.
public struct PortedSource: Sendable {
    /// The file's path under the folder given (or its name, when a file was given).
    public let path: String
    /// The file itself, which `write()` replaces.
    public let url: URL
    /// The file's port: its edits, notes and ported text.
    public let port: CoreDataPort

    /// The port of every `.swift` file under `url` (or of `url`, a Swift file), in path order.
    /// Hidden folders and build folders (`.build`, `.swiftpm`) are passed over, and links are
    /// not followed, so a port never edits what the folder only points at.
    public static func sources(at url: URL) throws -> [PortedSource] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw PortError(path: url.path, reason: "there is no such file or folder")
        }
        guard isFolder.boolValue else {
            guard url.pathExtension == "swift" else { throw PortError(path: url.path, reason: "a port reads Swift files (.swift) or folders of them") }
            return [try read(url, path: url.lastPathComponent)]
        }
        guard let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey, .isSymbolicLinkKey],
                                                          options: [.skipsHiddenFiles]) else {
            throw PortError(path: url.path, reason: "the folder cannot be read")
        }
        let base = url.standardizedFileURL.path
        var sources: [PortedSource] = []
        for case let file as URL in walker {
            let values = try file.resourceValues(forKeys: [.isRegularFileKey, .isSymbolicLinkKey])
            if values.isSymbolicLink == true { continue }
            guard values.isRegularFile == true, file.pathExtension == "swift" else { continue }
            var path = file.standardizedFileURL.path
            if path.hasPrefix(base + "/") { path.removeFirst(base.count + 1) }
            sources.append(try read(file, path: path))
        }
        return sources.sorted { $0.path < $1.path }
    }

    /// Writes the ported source over the file, in one step: a reader sees the old file or the new.
    public func write() throws {
        do {
            try Data(port.ported.utf8).write(to: url, options: .atomic)
        } catch {
            throw PortError(path: url.path, reason: "cannot be written (\(error.localizedDescription))")
        }
    }

    private static func read(_ url: URL, path: String) throws -> PortedSource {
        guard let data = FileManager.default.contents(atPath: url.path) else { throw PortError(path: url.path, reason: "cannot be read") }
        guard let text = String(data: data, encoding: .utf8) else { throw PortError(path: url.path, reason: "is not UTF-8 text, as Swift source is") }
        return PortedSource(path: path, url: url, port: CoreDataPort(source: text))
    }
}

/// A file or folder a port cannot read or write, named with the reason.
public struct PortError: Error, Equatable, CustomStringConvertible {
    /// The file or folder, as its path.
    public var path: String
    /// What is wrong with it, in words: "cannot be read".
    public var reason: String

    /// The failure as `PATH: REASON`.
    public var description: String { "\(path): \(reason)" }
}
