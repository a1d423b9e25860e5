import Foundation

/// `localizedCaseInsensitiveCompare:` for text of ASCII letters, digits and spaces, without
/// the locale's collator: each character's place in the locale's order, compared in turn.
/// That is what the collator does with such text where the locale orders these characters
/// one by one (no "ch" or "aa" taken together, no space ignored) — which is checked against
/// the collator itself, once, before the shortcut is ever used; where it does not hold, the
/// shortcut stays off. A store sorting a million names calls the comparison millions of
/// times, and the collator takes microseconds a call.
///
/// ```swift
/// LocalizedASCIIOrder.compare("Item 10", "item 9")   // .orderedAscending, as the collator says
/// LocalizedASCIIOrder.compare("Café", "cafe")        // nil: not plain ASCII, ask the collator
/// ```
package enum LocalizedASCIIOrder {
    /// The place of each byte in the locale's order (equal for a letter's two cases), 0 for a
    /// byte the shortcut does not take; nil when the locale's order is not character by character.
    package static let places: [UInt8]? = verifiedPlaces()

    static let alphabet = Array(" 0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)

    /// The collator's answer for two texts of the alphabet, or nil for any other text.
    static func compare(_ a: String, _ b: String) -> ComparisonResult? {
        // Every character first: a later one outside the alphabet (a combining mark) could
        // change how an earlier one sorts.
        guard let places, a.utf8.allSatisfy({ places[Int($0)] != 0 }), b.utf8.allSatisfy({ places[Int($0)] != 0 }) else { return nil }
        return order(a, b, places)
    }

    private static func verifiedPlaces() -> [UInt8]? {
        let characters = alphabet.map { String(UnicodeScalar($0)) }
        let sorted = characters.sorted { $0.localizedCaseInsensitiveCompare($1) == .orderedAscending }
        var places = [UInt8](repeating: 0, count: 256)
        var place: UInt8 = 0
        for (i, c) in sorted.enumerated() {
            if i == 0 || sorted[i - 1].localizedCaseInsensitiveCompare(c) != .orderedSame { place += 1 }
            places[Int(c.utf8.first!)] = place
        }
        // A letter and its other case are one place, and nothing else shares a place.
        guard Set(places.filter { $0 > 0 }).count == 37 else { return nil }
        func agrees(_ a: String, _ b: String) -> Bool {
            let expected = a.localizedCaseInsensitiveCompare(b)
            return order(a, b, places) == expected
        }
        // No two letters taken together ("ch" after "h", "aa" after "z"): each pair against
        // its first letter followed by every other letter.
        let letters = Array("abcdefghijklmnopqrstuvwxyz").map(String.init)
        for x in letters {
            for y in letters {
                for z in letters where z != y {
                    guard agrees(x + y, x + z) else { return nil }
                }
            }
        }
        // Spaces and digits count where they stand, and texts of every kind agree.
        var generator = SplitMix(seed: 0x7E57)
        for _ in 0..<4_000 {
            let a = String(decoding: (0..<generator.next(upTo: 9)).map { _ in alphabet[generator.next(upTo: alphabet.count)] }, as: UTF8.self)
            let b = String(decoding: (0..<generator.next(upTo: 9)).map { _ in alphabet[generator.next(upTo: alphabet.count)] }, as: UTF8.self)
            guard agrees(a, b), agrees(a, a.uppercased()), agrees(a + " " + b, a + b) else { return nil }
        }
        return places
    }

    private static func order(_ a: String, _ b: String, _ places: [UInt8]) -> ComparisonResult {
        for (p, q) in zip(a.utf8, b.utf8) where places[Int(p)] != places[Int(q)] {
            return places[Int(p)] < places[Int(q)] ? .orderedAscending : .orderedDescending
        }
        return a.utf8.count == b.utf8.count ? .orderedSame : a.utf8.count < b.utf8.count ? .orderedAscending : .orderedDescending
    }

    /// A small deterministic generator for the check.
    private struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next(upTo bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }
}
