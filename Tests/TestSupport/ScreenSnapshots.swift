import Foundation
import Testing

/// Whole screens kept as text files beside the tests (`Tests/<target>/Screens/<name>.txt`),
/// compared line by line, every line. `TERMDATA_RECORD_SCREENS=1 swift test` writes them
/// anew from what the tests see; a missing file is written and the test fails, so that a new
/// snapshot is looked at before it is trusted.
public enum ScreenSnapshots {
    public static var isRecording: Bool { ProcessInfo.processInfo.environment["TERMDATA_RECORD_SCREENS"] == "1" }

    /// The snapshot file of a test target.
    public static func url(_ name: String, target: String) -> URL {
        Fixtures.packageRoot.appendingPathComponent("Tests/\(target)/Screens/\(name).txt")
    }

    /// The lines of a snapshot, or nil when there is none.
    public static func lines(_ name: String, target: String) -> [String]? {
        guard let text = try? String(contentsOf: url(name, target: target), encoding: .utf8) else { return nil }
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}

/// Compares a whole screen with its snapshot: every row, and the number of rows.
///
/// `replacing` maps text as the snapshot holds it to text as this run shows it, of the same
/// width: a stored time shown in the machine's time zone, where the snapshot keeps it in UTC.
public func assertScreen(_ actual: [String], snapshot name: String, target: String, replacing: [(String, String)] = [],
                         sourceLocation: SourceLocation = #_sourceLocation) {
    let file = ScreenSnapshots.url(name, target: target)
    guard !ScreenSnapshots.isRecording, var expected = ScreenSnapshots.lines(name, target: target) else {
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        var recorded = actual
        for (stored, shown) in replacing where stored != shown {
            recorded = recorded.map { $0.replacingOccurrences(of: shown, with: stored) }
        }
        try? Data((recorded.joined(separator: "\n") + "\n").utf8).write(to: file)
        if !ScreenSnapshots.isRecording {
            Issue.record("no snapshot \(name) yet: written to \(file.path); look at it, then run again", sourceLocation: sourceLocation)
        }
        return
    }
    for (stored, shown) in replacing { expected = expected.map { $0.replacingOccurrences(of: stored, with: shown) } }
    if actual.count != expected.count {
        Issue.record("screen \(name) has \(actual.count) rows, its snapshot \(expected.count)", sourceLocation: sourceLocation)
    }
    assertScreen(actual, expected, sourceLocation: sourceLocation)
}
