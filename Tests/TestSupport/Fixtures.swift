import Foundation

/// Paths to the files tests read: the package's own resources and the corpus of files
/// written by Apple's tools, kept in `Tests/TestSupport/Fixtures/Corpus`.
public enum Fixtures {
    /// The package's root folder.
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// `Tests/TestSupport/Fixtures/Corpus`: real files written by Xcode and by Apple's Core
    /// Data, each folder with its licence and a PROVENANCE note.
    public static let corpus: URL = packageRoot
        .appendingPathComponent("Tests/TestSupport/Fixtures/Corpus", isDirectory: true)

    /// A file in the corpus, by its path below `corpus/`.
    public static func corpusFile(_ path: String) -> URL {
        corpus.appendingPathComponent(path)
    }

    /// A copy of a corpus file in a new temporary folder, under the same name, for tests
    /// that write: the files in the repository are never written.
    public static func copyOfCorpusFile(_ url: URL) throws -> URL {
        let copy = try temporaryDirectory("corpus").appendingPathComponent(url.lastPathComponent)
        try FileManager.default.copyItem(at: url, to: copy)
        return copy
    }

    /// A built executable of the package: beside the test bundle, or in `.build/debug`.
    public static func builtExecutable(named name: String) -> URL? {
        var candidates: [URL] = []
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name))
        candidates.append(Bundle.main.bundleURL.appendingPathComponent(name))
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(directory.appendingPathComponent(name))
            directory.deleteLastPathComponent()
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug/\(name)"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// A new, empty temporary folder. It lives in a folder of this test process, removed
    /// when the process exits (and, should a run be killed, by the next run).
    public static func temporaryDirectory(_ label: String = "termdata") throws -> URL {
        let url = testRoot.appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private static let rootPrefix = "termdata-tests-"

    /// `termdata-tests-<pid>` in the system's temporary folder.
    private static let testRoot: URL = {
        let temporary = FileManager.default.temporaryDirectory
        removeAbandonedRoots(in: temporary)
        let root = temporary.appendingPathComponent("\(rootPrefix)\(getpid())", isDirectory: true)
        try? FileManager.default.removeItem(at: root)
        atexit { try? FileManager.default.removeItem(at: Fixtures.testRoot) }
        return root
    }()

    /// Removes the folders of test processes that are no longer running.
    private static func removeAbandonedRoots(in temporary: URL) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [] where name.hasPrefix(rootPrefix) {
            guard let pid = Int32(name.dropFirst(rootPrefix.count)), pid != getpid(),
                  kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
    }
}
