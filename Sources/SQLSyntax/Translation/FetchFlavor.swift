import Foundation
import ObjectGraph
import ObjectModel
import Predicates

/// What one engine brings to the translation of a fetch: how a value is bound, how text is
/// compared and sorted as memory compares and sorts it, how many tables a query may join,
/// and how a fetch with no SQL form is reported.
///
/// The translator builds the same tree for every engine; only these leaves differ. SQLite
/// calls back into the evaluator through functions it registers (`td_test`); PostgreSQL
/// compares folded copies of the text that the store keeps beside each string column.
package protocol FetchFlavor: Sendable {
    /// The engine's name, as messages give it.
    var engine: String { get }

    /// The most to-one steps one query may join, the root table not counted.
    var maximumJoins: Int { get }

    /// The value bound for a predicate's constant or a row's value.
    func sqlValue(_ value: ObjectValue) -> SQLValue

    /// A string column folded as `options` fold text (`[c]`, `[d]`, `[cd]`), to compare with
    /// a constant folded in Swift.
    func folded(_ column: SQLExpression, options: ComparisonOptions) throws -> SQLExpression

    /// `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, or `IN` with a string: true where memory's test holds.
    func textTest(_ op: ComparisonOperator, _ column: SQLExpression, _ value: String, options: ComparisonOptions) throws -> SQLExpression

    /// `LIKE` or `MATCHES` with a constant pattern.
    func patternTest(_ op: ComparisonOperator, _ column: SQLExpression, _ pattern: String, options: ComparisonOptions) throws -> SQLExpression

    /// A sort key ordered by a comparison other than `compare:`.
    func collated(_ column: SQLExpression, _ comparison: SortComparison) throws -> SQLExpression

    /// The error for a fetch, predicate or sort that has no SQL form here.
    func unsupported(_ what: String) -> any Error

    /// The error for a key the entity does not have.
    func unknownKey(entity: String, key: String) -> any Error

    /// `column ==[options] value`, true or false and never NULL, when the engine has a
    /// faster form than comparing folded text; `nil` to compare `folded` text.
    func foldedEquality(_ column: SQLExpression, _ value: String, options: ComparisonOptions) -> SQLExpression?

    /// An integer operand of arithmetic, as the engine computes it so that a result too
    /// large for 64 bits is still a number (SQLite's own integers already turn into doubles).
    func integerOperand(_ operand: SQLExpression) -> SQLExpression
}

extension FetchFlavor {
    package func foldedEquality(_ column: SQLExpression, _ value: String, options: ComparisonOptions) -> SQLExpression? { nil }
    package func integerOperand(_ operand: SQLExpression) -> SQLExpression { operand }
}
