import ObjectModel

/// What to tell someone who named a key an entity lacks: the entity's key closest to it, or
/// its keys when none is close.
///
/// ```swift
/// KeyHint.text(for: "subCategories", in: category)   // " (did you mean 'subcategory'?)"
/// KeyHint.text(for: "x", in: category)               // " (its keys: name, subcategory)"
/// KeyHint.closest(to: "subCategories", in: category) // "subcategory"
/// ```
public enum KeyHint {
    /// The hint to append to a message about an unknown key: ` (did you mean 'name'?)` for a
    /// close key, else ` (its keys: …)` with up to twelve of them; empty for an entity with no keys.
    public static func text(for key: String, in entity: Entity) -> String {
        let names = keys(of: entity)
        guard !names.isEmpty else { return "" }
        if let best = closest(to: key, in: entity) { return " (did you mean '\(best)'?)" }
        let listed = names.sorted().prefix(12).joined(separator: ", ")
        return " (its keys: \(listed)\(names.count > 12 ? ", …" : ""))"
    }

    /// The entity's key closest to `key`: within a third of its length, and at least two
    /// edits (a case slip, a plural, a transposition); nil when none is that close.
    public static func closest(to key: String, in entity: Entity) -> String? {
        let typed = Array(key.lowercased())
        let limit = max(2, typed.count / 3)
        let ranked = keys(of: entity).map { ($0, distance(typed, Array($0.lowercased()))) }.filter { $0.1 <= limit }
        return ranked.min(by: { $0.1 < $1.1 })?.0
    }

    private static func keys(of entity: Entity) -> [String] {
        entity.attributes.map(\.name) + entity.relationships.map(\.name) + entity.fetchedProperties.map(\.name)
    }

    /// Levenshtein distance.
    private static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

extension KeyHint {
    /// Checks that a key path names properties, through relationships, from an entity:
    /// `category.name` from ToDo. A step starting with `@` (an operator) ends the check.
    ///
    /// - Throws: `UnknownKeyError` naming the entity that lacks the key and its closest key.
    public static func checkKeyPath(_ path: String, from entity: Entity, in model: ManagedObjectModel) throws {
        var current = entity
        for key in path.split(separator: ".").map(String.init) {
            if key.hasPrefix("@") || current.attribute(named: key) != nil { return }
            guard let r = current.relationship(named: key) else {
                throw UnknownKeyError(entity: current.name, key: key, path: path, suggestion: closest(to: key, in: current),
                                      hint: text(for: key, in: current))
            }
            guard let next = model.entity(named: r.destinationEntityName) else { return }
            current = next
        }
    }
}

/// A key an entity does not have, in a key path given for a sort, a column or a predicate.
public struct UnknownKeyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The name of the entity that lacks the key: the one the path had reached at that step.
    public let entity: String
    /// The step of the path that the entity does not have.
    public let key: String
    /// The whole key path the key was found in.
    public let path: String
    /// The entity's key closest to it, if one is close.
    public let suggestion: String?
    let hint: String

    /// The error as one line: the entity, the key, the path when it has dots, and the hint.
    public var description: String {
        "entity \(entity) has no key '\(key)'" + (path.contains(".") ? " (in '\(path)')" : "") + hint
    }
}
