import ObjectModel

/// What to tell someone who named a key an entity lacks: the entity's key closest to it, or
/// its keys when none is close.
///
/// ```swift
/// KeyHint.text(for: "subCategories", in: category)   // " (did you mean 'subcategory'?)"
/// KeyHint.text(for: "x", in: category)               // " (its keys: name, subcategory)"
/// ```
enum KeyHint {
    static func text(for key: String, in entity: Entity) -> String {
        let names = entity.attributes.map(\.name) + entity.relationships.map(\.name) + entity.fetchedProperties.map(\.name)
        guard !names.isEmpty else { return "" }
        let typed = Array(key.lowercased())
        // Within a third of the key's length, and at least two edits: a case slip, a plural,
        // a transposition.
        let limit = max(2, typed.count / 3)
        let ranked = names.map { ($0, distance(typed, Array($0.lowercased()))) }.filter { $0.1 <= limit }
        if let best = ranked.min(by: { $0.1 < $1.1 }) { return " (did you mean '\(best.0)'?)" }
        let listed = names.sorted().prefix(12).joined(separator: ", ")
        return " (its keys: \(listed)\(names.count > 12 ? ", …" : ""))"
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
