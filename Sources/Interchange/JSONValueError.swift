import Foundation
import ObjectGraph
import ObjectModel
import Predicates

/// Why text is not the JSON value it was given as.
public struct JSONValueError: Error, Equatable, CustomStringConvertible {
    /// What is wrong with the text, with what the message needs to say so.
    public enum Kind: Equatable, Sendable {
        /// `what` (such as `--arg 2`) does not parse; a bare word was most likely meant as a string.
        case notJSON(what: String, text: String, isBareWord: Bool)
        /// `{"$date": 5}`
        case dateTagNeedsString
        /// `{"$date": "soon"}`
        case notADate(String)
        /// `{"$date": "…", "x": 1}`
        case dateTagNotAlone
        /// `{"$Date": "…"}`
        case unknownTag(String)
    }

    /// What is wrong.
    public let kind: Kind

    /// An error saying what is wrong.
    public init(_ kind: Kind) { self.kind = kind }

    /// What is wrong, as one line of text; for a bare word, with the quoted string meant.
    public var description: String {
        switch kind {
        case .notJSON(let what, let text, let isBareWord):
            return "\(what) is not valid JSON: \(text)" + (isBareWord ? " (a string takes JSON quotes: '\"\(text)\"')" : "")
        case .dateTagNeedsString:
            return "{\"$date\": …} takes an ISO-8601 string, such as \"2024-05-01T00:00:00Z\""
        case .notADate(let text):
            if let impossible = JSONValue.impossibleField(text) { return "not a date: \(text) (\(impossible))" }
            return "not an ISO-8601 date: \(text)"
        case .dateTagNotAlone:
            return "{\"$date\": …} stands alone: an object with it holds nothing else"
        case .unknownTag(let tag):
            return "unknown tag \(tag): the one tag is {\"$date\": \"ISO-8601\"}; a dictionary's keys do not start with $"
        }
    }
}
