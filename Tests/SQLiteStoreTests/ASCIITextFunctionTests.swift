import CSQLiteText
import Foundation
import GRDB
import GRDBSQLite
import Testing

/// The C text tests a fetch calls for every row (`td_ascii_*`): the evaluator's answer for
/// plain ASCII text, 0 for NULL, and NULL (so that the evaluator's own function decides) for
/// any other value or constant.
@Suite("Text tests on plain ASCII, in C")
struct ASCIITextFunctionTests {
    /// `valueSQL` reads the value, bound as `?`: `CAST(? AS TEXT)` makes text of bytes, as a
    /// store's own writes keep a NUL that a bound `String` would end at.
    static func answer(_ function: String, _ value: DatabaseValueConvertible?, _ constant: String, caseless: Bool,
                       valueSQL: String = "?") throws -> Int? {
        let queue = try DatabaseQueue()
        return try queue.inDatabase { db in
            #expect(termdata_sqlite_register_ascii_tests(UnsafeMutableRawPointer(db.sqliteConnection)) == SQLITE_OK)
            let answer = try DatabaseValue.fetchOne(db, sql: "SELECT \(function)(\(valueSQL), ?, ?)", arguments: [value, constant, caseless]) ?? .null
            return answer.isNull ? nil : Int.fromDatabaseValue(answer)
        }
    }

    @Test("each test gives the evaluator's answer on plain ASCII text", arguments: [
        ("td_ascii_beginswith", "Gamma", "GAM", true, 1), ("td_ascii_beginswith", "Gamma", "GAM", false, 0),
        ("td_ascii_beginswith", "Ga", "Gam", true, 0), ("td_ascii_beginswith", "Gamma", "", true, 0),
        ("td_ascii_endswith", "Gamma", "MA", true, 1), ("td_ascii_endswith", "Gamma", "mm", false, 0),
        ("td_ascii_endswith", "a", "ba", false, 0), ("td_ascii_endswith", "a", "", false, 0),
        ("td_ascii_contains", "aaab", "aab", false, 1), ("td_ascii_contains", "abcabd", "ABD", true, 1),
        ("td_ascii_contains", "abc", "abcd", false, 0), ("td_ascii_contains", "abc", "", false, 0),
        ("td_ascii_contains", "tab\there", "\t", false, 1),
        ("td_ascii_equal", "GAMMA", "gamma", true, 1), ("td_ascii_equal", "GAMMA", "gamma", false, 0),
        ("td_ascii_equal", "", "", true, 1), ("td_ascii_equal", "gamm", "gamma", true, 0),
        ("td_ascii_equal", "[@]", "[`]", true, 0),   // the bytes beside A and Z do not fold
        ("td_ascii_like", "aaab", "*ab", false, 1), ("td_ascii_like", "ab*cd", "ab\\*cd", false, 1),
        ("td_ascii_like", "abxcd", "ab\\*cd", false, 0), ("td_ascii_like", "ends\\", "*\\", false, 1),
        ("td_ascii_like", "Gamma", "g?MMA", true, 1), ("td_ascii_like", "Gamma", "g?MMA", false, 0),
        ("td_ascii_like", "", "*", false, 1), ("td_ascii_like", "", "?", false, 0),
        ("td_ascii_like", "abc", "a*b*c*", false, 1), ("td_ascii_like", "acb", "a*b*c", false, 0),
        ("td_ascii_like", "a%b", "a%b", false, 1), ("td_ascii_like", "axb", "a_b", false, 0),
        ("td_ascii_like", "mississippi", "*sip*i", false, 1), ("td_ascii_like", "mississippi", "*sip*s", false, 0),
    ])
    func plain(_ function: String, _ value: String, _ constant: String, _ caseless: Bool, _ expected: Int) throws {
        #expect(try Self.answer(function, value, constant, caseless: caseless) == expected)
    }

    @Test("text that is not plain ASCII, a constant that is not, and a value that is not text give NULL", arguments: [
        "td_ascii_beginswith", "td_ascii_endswith", "td_ascii_contains", "td_ascii_equal", "td_ascii_like",
    ])
    func notPlain(_ function: String) throws {
        for value in ["café", "cr\r\nlf", "x\u{301}"] {
            #expect(try Self.answer(function, value, "a", caseless: true) == nil, "\(value.debugDescription)")
        }
        #expect(try Self.answer(function, Data("a\u{0}b".utf8), "a", caseless: true, valueSQL: "CAST(? AS TEXT)") == nil)
        #expect(try Self.answer(function, Data("ab".utf8), "a", caseless: true, valueSQL: "CAST(? AS TEXT)") != nil)
        #expect(try Self.answer(function, "cafe", "é", caseless: true) == nil)
        #expect(try Self.answer(function, 123, "1", caseless: false) == nil)
        #expect(try Self.answer(function, Data("abc".utf8), "a", caseless: false) == nil)
        #expect(try Self.answer(function, nil, "a", caseless: false) == 0)
    }
}
