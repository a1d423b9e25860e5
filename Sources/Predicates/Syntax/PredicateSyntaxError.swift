import Foundation

/// A format string that does not parse: where, what was expected, and what was found.
///
/// `description` shows the message with the input line and a caret under the position:
///
/// ```
/// expected a value after LIKE at 1:13
///   name LIKE[c]
///               ^
/// ```
///
/// The command line puts it after its own `Error: invalid predicate: `; the terminal
/// applications show it in a dialog.
public struct PredicateSyntaxError: Error, CustomStringConvertible, Equatable {
    /// The whole format string.
    public var source: String
    /// Offset of the error in `source`, in characters.
    public var offset: Int
    /// What the parser was looking for: "a value after LIKE", "')'".
    public var expected: String
    /// What it found: "end of input", "'=='", "string \"x\"".
    public var found: String

    /// A syntax error at a character offset in `source`.
    public init(source: String, offset: Int, expected: String, found: String) {
        self.source = source
        self.offset = max(0, min(offset, source.count))
        self.expected = expected
        self.found = found
    }

    /// A syntax error at an offset counted in Unicode scalars, as the lexer counts.
    init(source: String, scalarOffset: Int, expected: String, found: String) {
        let scalars = source.unicodeScalars
        let clamped = max(0, min(scalarOffset, scalars.count))
        let index = scalars.index(scalars.startIndex, offsetBy: clamped)
        // An offset inside a character (a combining mark) points at that character.
        let characters = source.distance(from: source.startIndex, to: index)
        self.init(source: source, offset: characters, expected: expected, found: found)
    }

    /// The 1-based line of the error.
    public var line: Int { position.line }
    /// The 1-based column of the error, in characters.
    public var column: Int { position.column }

    private var position: (line: Int, column: Int, lineText: Substring) {
        var line = 1
        var lineStart = source.startIndex
        var index = source.startIndex
        var count = 0
        while count < offset, index < source.endIndex {
            if source[index] == "\n" || source[index] == "\r\n" {
                line += 1
                lineStart = source.index(after: index)
            }
            index = source.index(after: index)
            count += 1
        }
        let column = source.distance(from: lineStart, to: index) + 1
        let lineEnd = source[lineStart...].firstIndex(where: { $0 == "\n" || $0 == "\r\n" })
            ?? source.endIndex
        return (line, column, source[lineStart..<lineEnd])
    }

    /// The short message without the caret lines.
    public var message: String {
        "expected \(expected) at \(line):\(column), found \(found)"
    }

    /// The message, the input line and a caret under the position, on three lines.
    public var description: String { description(cellWidth: { _ in 1 }) }

    /// The three-line message for a terminal, where `cellWidth` gives the cells a character
    /// takes (two for most CJK characters), so that the caret stays under the position.
    ///
    /// ```swift
    /// print(error.description(cellWidth: DisplayWidth.of))
    /// ```
    public func description(cellWidth: (Character) -> Int) -> String {
        let p = position
        // Tabs keep their width so the caret stays under the character.
        let caretPad = p.lineText.prefix(p.column - 1)
            .map { $0 == "\t" ? "\t" : String(repeating: " ", count: max(0, cellWidth($0))) }.joined()
        return """
            expected \(expected) at \(p.line):\(p.column)
              \(p.lineText)
              \(caretPad)^
            """
    }
}
