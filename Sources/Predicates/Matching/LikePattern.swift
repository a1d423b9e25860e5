import Foundation

/// A `LIKE` pattern: `*` matches any run of characters (newlines included), `?` exactly
/// one character, `\` makes the next `*`, `?` or `\` literal; everything else matches
/// itself. The whole string must match.
///
/// Stores register this as a SQL function so that `LIKE` agrees with evaluation in memory.
///
/// ```swift
/// LikePattern("w?t*", options: .caseInsensitive).matches("WAter")   // true
/// ```
public struct LikePattern: Hashable, Sendable {
    private enum Element: Hashable, Sendable {
        case literal(Character)
        case one
        case any
    }

    private let elements: [Element]
    /// The options the pattern and the matched strings are folded with.
    public let options: ComparisonOptions

    /// Compiles a pattern; `[c]`, `[d]` fold the pattern and each matched string alike.
    public init(_ pattern: String, options: ComparisonOptions = []) {
        self.options = options
        var elements: [Element] = []
        var escaped = false
        for c in options.fold(pattern) {
            if escaped {
                elements.append(.literal(c))
                escaped = false
                continue
            }
            switch c {
            case "\\": escaped = true
            case "*": if elements.last != .any { elements.append(.any) }
            case "?": elements.append(.one)
            default: elements.append(.literal(c))
            }
        }
        if escaped { elements.append(.literal("\\")) }
        self.elements = elements
    }

    /// Whether the whole string matches.
    public func matches(_ string: String) -> Bool {
        let text = Array(options.fold(string))
        // Greedy matching with a single backtrack point per star: linear for each star.
        var t = 0, p = 0
        var star = -1, starText = 0
        while t < text.count {
            if p < elements.count {
                switch elements[p] {
                case .any:
                    star = p
                    starText = t
                    p += 1
                    continue
                case .one:
                    t += 1; p += 1
                    continue
                case .literal(let c) where c == text[t]:
                    t += 1; p += 1
                    continue
                default:
                    break
                }
            }
            guard star >= 0 else { return false }
            p = star + 1
            starText += 1
            t = starText
        }
        while p < elements.count, elements[p] == .any { p += 1 }
        return p == elements.count
    }
}
