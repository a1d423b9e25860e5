import Foundation

/// One lexical unit of a format string, with where it starts and ends.
struct Token: Equatable {
    /// What the token is.
    var kind: Kind
    /// Offset of its first character in the source, in characters.
    var offset: Int
    /// Offset just past its last character.
    var end: Int

    enum Kind: Equatable {
        /// End of input.
        case end
        /// A C-style identifier, or `#word` (a reserved word used as a key).
        case identifier(String)
        /// A reserved word, upper-cased: `AND`, `ANY`, `TRUEPREDICATE`, ...
        case keyword(String)
        /// `@count`, `@sum`, ...
        case collectionOperator(String)
        /// A selector with colons before a parenthesis: `add:to:`, `sum:`.
        case selector(String)
        /// `"text"` or `'text'`, escapes resolved.
        case string(String)
        /// A numeric literal.
        case number(ObjectValue)
        /// `$name`
        case variable(String)
        /// `%@`, `%K`, `%d`, ...: the conversion (length modifiers dropped) and which
        /// argument it takes.
        case argument(conversion: Character, index: Int)
        /// Punctuation and operators: `(`, `==`, `&&`, `**`, ...
        case symbol(String)
    }

    /// How the token reads in an error message.
    var description: String {
        switch kind {
        case .end: return "end of input"
        case .identifier(let s): return "'\(s)'"
        case .keyword(let s): return s
        case .collectionOperator(let s): return "'\(s)'"
        case .selector(let s): return "'\(s)'"
        case .string(let s): return "string \"\(s)\""
        case .number(let v): return "number \(ExpressionFormatter.format(constant: v))"
        case .variable(let s): return "$\(s)"
        case .argument(let c, _): return "%\(c)"
        case .symbol(let s): return "'\(s)'"
        }
    }

    /// Whether this is the given symbol.
    func isSymbol(_ s: String) -> Bool {
        if case .symbol(let t) = kind { return t == s }
        return false
    }

    /// Whether this is the given keyword (upper-case).
    func isKeyword(_ k: String) -> Bool {
        if case .keyword(let t) = kind { return t == k }
        return false
    }
}
