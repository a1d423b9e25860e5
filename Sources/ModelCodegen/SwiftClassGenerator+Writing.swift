import Foundation
import ObjectModel
import Predicates

extension SwiftClassGenerator {
    /// What `write(to:)` did.
    public struct Written: Equatable, Sendable {
        /// The files written, by name.
        public var files: [String]
        /// Files generated before from this model that it no longer has an entity for.
        public var removed: [String]
    }

    /// Writes every file into a folder (made if missing), replacing what an earlier run
    /// generated from this model and removing what it generated for entities gone since.
    ///
    /// - Throws: `CodegenError` for a model whose classes cannot be generated, or a
    ///   `CocoaError` naming a file in the way that was not generated (a class written by
    ///   hand is never overwritten); in either case nothing is written.
    @discardableResult
    public func write(to folder: URL) throws -> Written {
        let files = try files()
        let fm = FileManager.default
        try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in files {
            let url = folder.appendingPathComponent(file.name)
            if fm.fileExists(atPath: url.path), !isGenerated(url) {
                throw CocoaError(.fileWriteFileExists, userInfo: [NSFilePathErrorKey: url.path, NSLocalizedDescriptionKey:
                    "\(url.path) exists and was not generated: it is left as it is, and nothing was written (move it, or generate elsewhere)"])
            }
        }
        var written = Written(files: [], removed: [])
        for file in files {
            let url = folder.appendingPathComponent(file.name)
            // An unchanged file is left alone, so that a build does not compile it again.
            if (try? String(contentsOf: url, encoding: .utf8)) != file.text {
                try file.text.write(to: url, atomically: true, encoding: .utf8)
            }
            written.files.append(file.name)
        }
        let names = Set(files.map(\.name))
        for name in (try fm.contentsOfDirectory(atPath: folder.path)).sorted() where name.hasSuffix(".swift") && !names.contains(name) {
            let url = folder.appendingPathComponent(name)
            if isGenerated(url, fromThisModel: true) {
                try fm.removeItem(at: url)
                written.removed.append(name)
            }
        }
        return written
    }

    /// Whether a file starts as generated files do (from this model, when asked).
    private func isGenerated(_ url: URL, fromThisModel: Bool = false) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let head = String(decoding: (try? handle.read(upToCount: 512)) ?? Data(), as: UTF8.self)
        guard head.hasPrefix(Self.marker) else { return false }
        return !fromThisModel || head.contains(" of \(modelFileName): written again")
    }
}
