import Foundation
import ObjectGraph
import ObjectModel
import Predicates
import SQLSyntax

/// SQLite's part of a fetch's translation: values as Core Data stores them, and text tests
/// through the functions and collations each connection registers (`SQLFunctions`), which
/// call the evaluator's own code.
struct SQLiteFetchFlavor: FetchFlavor {
    var engine: String { "SQLite" }

    /// SQLite joins at most 64 tables in one query, the root among them.
    var maximumJoins: Int { 63 }

    func sqlValue(_ value: ObjectValue) -> SQLValue { DatabaseValueCoding.sqlValue(value) }

    func folded(_ column: SQLExpression, options: ComparisonOptions) throws -> SQLExpression {
        .function("td_fold", [column, Self.options(options)])
    }

    func textTest(_ op: ComparisonOperator, _ column: SQLExpression, _ value: String, options: ComparisonOptions) throws -> SQLExpression {
        .function("td_test", [.value(.text(op.rawValue)), column, .value(.text(value)), Self.options(options)])
    }

    func patternTest(_ op: ComparisonOperator, _ column: SQLExpression, _ pattern: String, options: ComparisonOptions) throws -> SQLExpression {
        .function(op == .like ? "td_like" : "td_matches", [column, .value(.text(pattern)), Self.options(options)])
    }

    func collated(_ column: SQLExpression, _ comparison: SortComparison) throws -> SQLExpression {
        column.collated(SQLFunctions.collationName(comparison))
    }

    func unsupported(_ what: String) -> any Error { SQLiteStoreError.unsupportedInSQL(what) }

    func unknownKey(entity: String, key: String) -> any Error { SQLiteStoreError.unknownKey(entity: entity, key: key) }

    private static func options(_ options: ComparisonOptions) -> SQLExpression {
        .value(.integer(Int64(options.rawValue)))
    }
}

extension SQLiteStore {
    /// How fetches over this store become SQL.
    static let flavor = SQLiteFetchFlavor()
}
