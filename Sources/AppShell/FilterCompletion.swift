import Foundation
import ObjectModel
import TerminalUI

/// Tab on the filter line: the key path or keyword being typed at the end, completed from
/// the entity's keys (through relationships after a dot: `category.na` → `category.name`)
/// and the predicate language's words (`BEGIN` → `BEGINSWITH`). One candidate completes
/// whole; several complete as far as they agree, and are listed.
package enum FilterCompletion {
    package static let keywords = [
        "AND", "OR", "NOT", "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES", "IN", "BETWEEN",
        "ANY", "ALL", "NONE", "SOME", "SUBQUERY", "TRUEPREDICATE", "FALSEPREDICATE", "nil", "YES", "NO",
    ]

    /// The completion of `text` for filters of `entity`, or nil when nothing fits.
    package static func complete(_ text: String, entity: Entity, model: ManagedObjectModel) -> PromptCompletion? {
        let wordCharacters = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "_.@"))
        let word = String(text.unicodeScalars.reversed().prefix { wordCharacters.contains($0) }.reversed().map(Character.init))
        let head = String(text.dropLast(word.count))
        var parts = word.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let typed = parts.removeLast()
        // The entity the last part is a key of: through each relationship before it.
        var current = entity
        for part in parts {
            guard let relationship = current.relationship(named: part),
                  let next = model.entity(named: relationship.destinationEntityName) else { return nil }
            current = next
        }
        var candidates = (current.attributes.map(\.name) + current.relationships.map(\.name)).filter { $0.hasPrefix(typed) }.sorted()
        if parts.isEmpty {
            candidates += keywords.filter { $0.lowercased().hasPrefix(typed.lowercased()) && !typed.isEmpty }
        }
        guard !candidates.isEmpty else { return nil }
        let prefix = parts.isEmpty ? "" : parts.joined(separator: ".") + "."
        let common = commonPrefix(of: candidates)
        // A keyword typed in lower case completes in its own case only when it is the one candidate.
        let completed = candidates.count == 1 ? candidates[0] : (common.count >= typed.count ? common : typed)
        return PromptCompletion(text: head + prefix + completed, candidates: candidates.count > 1 ? candidates : [])
    }

    /// What candidates share at their start (the first one whole, for one).
    static func commonPrefix(of candidates: [String]) -> String {
        guard let first = candidates.first else { return "" }
        return candidates.dropFirst().reduce(first) { shared, next in String(zip(shared, next).prefix { $0 == $1 }.map(\.0)) }
    }
}
