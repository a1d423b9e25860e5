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
    public var message: String
    public var key: String?
    /// The entity's key closest to an unknown one.
    public var suggestion: String?

    public init(_ subject: String?, _ message: String, key: String? = nil, suggestion: String? = nil) {
        self.subject = subject
        self.message = message
        self.key = key
        self.suggestion = suggestion
    }

    public var description: String { subject.map { "\($0): \(message)" } ?? message }
}

/// Why data is not a graph file (before any model is consulted).
public struct GraphFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The JSON parser's own account of where and why.
        case notJSON(String)
        case notAnObject
        case wrongFormat
        case unsupportedVersion
        case noEntities
        case entityNotAnArray(String)
        case objectNotAnObject(entity: String, index: Int)
    }

    public let kind: Kind

    public init(_ kind: Kind) { self.kind = kind }

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
    public let problems: [GraphProblem]

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
