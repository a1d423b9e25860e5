import Foundation

/// One thing wrong with a graph file for a model, or one thing an export could not write
/// as the store has it: the object (by its `@id`, or its entity and place in the file),
/// the key, what is wrong, and the key that was most likely meant.
///
/// ```swift
/// GraphProblem("ToDo t1", "unknown key 'nmae' (did you mean 'name'?)", key: "nmae", suggestion: "name").description
/// // ToDo t1: unknown key 'nmae' (did you mean 'name'?)
/// ```
public struct GraphProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The object: `ToDo t1`, `ToDo[3]` (no `@id`), `Note/1`; nil for the file as a whole.
    public var subject: String?
    /// What is wrong, without the object: the text after the colon in `description`.
    public var message: String
    /// The key the problem is about (an unknown key, an attribute or a relationship); nil when it is about no one key.
    public var key: String?
    /// The entity's key closest to an unknown one.
    public var suggestion: String?

    /// A problem with `subject` (nil for the whole file), with what is wrong, the key it concerns
    /// and the key most likely meant.
    public init(_ subject: String?, _ message: String, key: String? = nil, suggestion: String? = nil) {
        self.subject = subject
        self.message = message
        self.key = key
        self.suggestion = suggestion
    }

    /// The problem as one line: the object, a colon and the message (the message alone for the file).
    public var description: String { subject.map { "\($0): \(message)" } ?? message }
}

/// Why data is not a graph file (before any model is consulted).
public struct GraphFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with the data.
    public enum Kind: Equatable, Sendable {
        /// The JSON parser's own account of where and why.
        case notJSON(String)
        /// The top level is not a JSON object.
        case notAnObject
        /// The `format` key is missing or is not `termdata-graph`.
        case wrongFormat
        /// The `version` key is missing or is not the one version read (`GraphFile.version`).
        case unsupportedVersion
        /// There is no `entities` key, or it does not hold an object.
        case noEntities
        /// The named entity's objects are not listed in an array.
        case entityNotAnArray(String)
        /// The item at `index` (from 0) in the entity's list is not a JSON object.
        case objectNotAnObject(entity: String, index: Int)
    }

    /// What is wrong.
    public let kind: Kind

    /// An error saying what is wrong.
    public init(_ kind: Kind) { self.kind = kind }

    /// What is wrong, as one line of text.
    public var description: String {
        switch kind {
        case .notJSON(let detail): return "not valid JSON: \(detail)"
        case .notAnObject: return "the file is not a JSON object"
        case .wrongFormat: return "the file's \"format\" is not \"\(GraphFile.format)\""
        case .unsupportedVersion: return "unsupported graph file version (this reads version \(GraphFile.version))"
        case .noEntities: return "the file has no \"entities\" object"
        case .entityNotAnArray(let name): return "\"entities.\(name)\" is not an array"
        case .objectNotAnObject(let entity, let index): return "\(entity)[\(index)] is not an object"
        }
    }
}

/// An import that wrote nothing, with every problem found.
public struct GraphImportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Every problem found, each naming its object; the import wrote nothing because of them.
    public let problems: [GraphProblem]

    /// An error for an import refused because of these problems.
    public init(problems: [GraphProblem]) { self.problems = problems }

    /// How many problems a message lists before it counts the rest: a file made by a
    /// program tends to repeat one mistake thousands of times.
    public static let listedProblems = 20

    /// "nothing imported:" and the problems, one per line, the first twenty and a count of
    /// the rest.
    public var description: String {
        var lines = problems.prefix(Self.listedProblems).map { "  \($0)" }
        if problems.count > Self.listedProblems {
            lines.append("  … and \(problems.count - Self.listedProblems) more (\(problems.count) problems in all)")
        }
        return "nothing imported:\n" + lines.joined(separator: "\n")
    }
}
