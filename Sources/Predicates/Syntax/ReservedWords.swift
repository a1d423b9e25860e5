import Foundation

/// The reserved words of the format language. A key with one of these names is
/// written with a leading `#`: `#size`, `#first`.
enum ReservedWords {
    static let all: Set<String> = [
        "AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE", "CI",
        "MATCHES", "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF",
        "TRUE", "YES", "FALSE", "NO", "FIRST", "LAST", "SIZE", "ANYKEY", "SUBQUERY", "FETCH",
        "CAST", "TRUEPREDICATE", "FALSEPREDICATE", "UTI-CONFORMS-TO", "UTI-EQUALS",
    ]

    /// Whether `word` is reserved, in any case.
    static func contains(_ word: String) -> Bool {
        all.contains(word.uppercased())
    }
}
