import Foundation

/// Paths to the files tests read: the package's own resources and the shared corpus of
/// files written by Apple's tools.
public enum Fixtures {
    /// The package's root folder.
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// `../shared/corpus` beside the checkout.
    public static let corpus: URL = packageRoot
        .deletingLastPathComponent()
        .appendingPathComponent("shared/corpus", isDirectory: true)

    /// A file in the corpus, by its path below `corpus/`.
    public static func corpusFile(_ path: String) -> URL {
        corpus.appendingPathComponent(path)
    }

    /// A new, empty temporary folder, removed by the caller when done.
    public static func temporaryDirectory(_ label: String = "termdata") throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
