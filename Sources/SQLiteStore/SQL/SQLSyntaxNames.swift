import SQLSyntax

// GRDB, which this target also imports, has types of the same names (its query
// interface's `SQLExpression` and `SQLOrdering`). Inside this target the names mean the
// syntax tree that the store renders.
typealias SQLExpression = SQLSyntax.SQLExpression
typealias SQLOrdering = SQLSyntax.SQLOrdering
typealias SQLSelect = SQLSyntax.SQLSelect
typealias SQLJoin = SQLSyntax.SQLJoin
typealias SQLStatement = SQLSyntax.SQLStatement
typealias SQLValue = SQLSyntax.SQLValue
