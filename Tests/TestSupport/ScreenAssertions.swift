import Testing
import TerminalUI

/// Compare a screen, as lines of text, with the expected lines; a mismatch names each differing row.
///
///     assertScreen(driver.screenLines, [
///         "#  │Title",
///         "───┼─────",
///     ])
///
/// Expected rows past the end of `expected` are not checked, so a test can look at the top of a screen.
public func assertScreen(_ actual: [String], _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    var differences: [String] = []
    for (index, line) in expected.enumerated() {
        let got = index < actual.count ? actual[index] : "<missing>"
        if got != line {
            differences.append("row \(index):\n  expected: \"\(line)\"\n  actual:   \"\(got)\"")
        }
    }
    if !differences.isEmpty {
        let screen = actual.enumerated().map { "\($0.offset < 10 ? " " : "")\($0.offset)|\($0.element)" }.joined(separator: "\n")
        Issue.record("screen differs:\n\(differences.joined(separator: "\n"))\nwhole screen:\n\(screen)",
                     sourceLocation: sourceLocation)
    }
}

/// The rows of a screen buffer, for `assertScreen`.
public func screenLines(_ buffer: ScreenBuffer) -> [String] { buffer.lines }
