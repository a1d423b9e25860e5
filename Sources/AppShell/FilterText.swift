import Foundation
import Interchange
import ObjectGraph
import ObjectModel
import Predicates
import TerminalUI

/// What a filter typed at the `/` prompt stands for: plain words, or a predicate.
///
/// ```swift
/// try FilterText.predicate(for: "milk bread", entity: item, searchKeys: ["name"])
/// // name CONTAINS[cd] "milk" AND name CONTAINS[cd] "bread"
/// try FilterText.predicate(for: "priority > 2", entity: item, searchKeys: ["name"])
/// ```
package enum FilterText {
    /// The predicate a filter text stands for, checked against the entity's keys: words
    /// match any of `searchKeys` (case and accents ignored); other text is a predicate,
    /// whose key paths must name the entity's properties. Empty text is no filter.
    package static func predicate(for text: String, entity: Entity, searchKeys: [String]) throws -> ObjectPredicate? {
        guard !text.isEmpty else { return nil }
        guard looksLikePredicate(text) else {
            guard !searchKeys.isEmpty else {
                throw FilterTextError.noTextAttribute(entity: entity.name)
            }
            return words(text, matchingAnyOf: searchKeys)
        }
        let predicate = try ObjectPredicate(format: text)
        try FilterKeyCheck.check(predicate, entity: entity)
        return predicate
    }

    /// What an alert shows for a filter that was refused: a syntax error's caret measured in
    /// terminal cells, so that it stays under the position after wide (CJK) characters.
    package static func message(for error: any Error) -> String {
        ErrorText.message(for: error, cellWidth: { DisplayWidth.of($0) })
    }

    /// Plain words: each word must appear (case and accents ignored), in any order, in one
    /// of the keys — `item beta` finds "Item 00016 Beta".
    package static func words(_ text: String, matchingAnyOf keys: [String]) -> ObjectPredicate {
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        let each: [ObjectPredicate] = words.map { word in
            let inKeys = keys.map { ObjectPredicate.comparison($0, .contains, word, options: [.caseInsensitive, .diacriticInsensitive]) }
            return inKeys.count == 1 ? inKeys[0] : .or(inKeys)
        }
        return each.count == 1 ? each[0] : .and(each)
    }

    package static func looksLikePredicate(_ text: String) -> Bool {
        let operators = ["=", "<", ">", "!", "(", "\"", "'", "$", "%", "&&", "||"]
        let keywords = ["CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES", "IN", "BETWEEN", "AND", "OR", "NOT",
                        "ANY", "ALL", "NONE", "TRUEPREDICATE", "FALSEPREDICATE"]
        let words = text.uppercased().split(separator: " ").map(String.init)
        return operators.contains { text.contains($0) } || words.contains { keywords.contains($0) }
    }
}

/// Why a filter text stands for no predicate.
package enum FilterTextError: Error, Equatable, CustomStringConvertible {
    /// Words were typed for an entity with no text attribute to find them in.
    case noTextAttribute(entity: String)

    package var description: String {
        switch self {
        case .noTextAttribute(let entity): return "\(entity) has no text attribute to search; type a predicate, such as value > 3"
        }
    }
}

/// Checks that a filter's key paths exist, so a typo is reported before it empties the list.
package enum FilterKeyCheck {
    package static func check(_ predicate: ObjectPredicate, entity: Entity) throws {
        switch predicate {
        case .true, .false: return
        case .and(let ps), .or(let ps): for p in ps { try check(p, entity: entity) }
        case .not(let p): try check(p, entity: entity)
        case .comparison(let c):
            try check(c.lhs, entity: entity)
            try check(c.rhs, entity: entity)
        }
    }

    package static func check(_ expression: ObjectExpression, entity: Entity) throws {
        guard case .keyPath(let path) = expression else { return }
        let first = String(path.split(separator: ".").first ?? "")
        guard first.hasPrefix("@") || entity.hasProperty(first) || first == "SELF" else {
            throw KeyValueError.unknownKey(first, typeName: entity.name)
        }
    }
}
