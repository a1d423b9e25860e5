import Foundation
import Predicates

/// How an error reads to a person, the same on the command line and in the terminal
/// applications: errors carry their fields, and this renders them.
///
/// - a predicate that does not parse: the message, the input line and a caret under the
///   position, measured in terminal cells (`cellWidth`), so it stays put after wide characters;
/// - anything else: its description.
///
/// ```swift
/// ErrorText.message(for: error, cellWidth: DisplayWidth.of)
/// ```
public enum ErrorText {
    /// The error as a person reads it: for a predicate that does not parse, the message, the
    /// input line and a caret under the position; for anything else, its description.
    ///
    /// - Parameter error: the error to describe.
    /// - Parameter cellWidth: How many terminal cells a character takes; one each unless given.
    public static func message(for error: any Error, cellWidth: (Character) -> Int = { _ in 1 }) -> String {
        switch error {
        case let syntax as PredicateSyntaxError:
            return syntax.description(cellWidth: cellWidth)
        default:
            return String(describing: error)
        }
    }
}
