import Foundation

/// How tightly an expression binds, lowest first: an operand is put in parentheses when it
/// binds no tighter than its place needs.
enum SQLPrecedence: Int, Comparable {
    case lowest, or, and, not, comparison, bits, plus, remainder, collate, atom

    static func < (a: SQLPrecedence, b: SQLPrecedence) -> Bool { a.rawValue < b.rawValue }
}

/// Writes a statement as a dialect's text, collecting the bound values in order.
struct SQLRenderer {
    let dialect: any SQLDialect
    private var sql = ""
    private var arguments: [SQLValue] = []
    private var placeholders = 0
    private var hasParameters = false

    init(dialect: any SQLDialect) { self.dialect = dialect }

    var result: RenderedSQL {
        precondition(!hasParameters || arguments.isEmpty, "a statement binds its values either when rendered or when run, not both: \(sql)")
        return RenderedSQL(sql: sql, arguments: arguments)
    }

    private mutating func name(_ identifier: String) { sql += dialect.quote(identifier) }

    /// `CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON table (`, up to the columns.
    private mutating func indexHead(_ index: String, on table: String, ifNotExists: Bool, unique: Bool) {
        sql += unique ? "CREATE UNIQUE INDEX " : "CREATE INDEX "
        if ifNotExists { sql += "IF NOT EXISTS " }
        name(index)
        sql += " ON "
        name(table)
        sql += " ("
    }

    private mutating func names(_ identifiers: [String]) {
        for (i, identifier) in identifiers.enumerated() {
            if i > 0 { sql += ", " }
            name(identifier)
        }
    }

    // MARK: Statements

    mutating func write(_ statement: SQLStatement) {
        switch statement.kind {
        case .select(let select):
            write(select)
        case .insert(let table, let columns, let values, let orIgnore):
            insertInto(table, columns, orIgnore: orIgnore)
            sql += " VALUES ("
            list(values.map(\.node))
            sql += ")"
            if orIgnore, dialect.ignoresConflicts == .onConflictDoNothing { sql += " ON CONFLICT DO NOTHING" }
        case .insertSelect(let table, let columns, let select):
            insertInto(table, columns, orIgnore: false)
            sql += " "
            write(select)
        case .update(let table, let assignments, let filter):
            sql += "UPDATE "
            name(table)
            sql += " SET "
            for (i, a) in assignments.enumerated() {
                if i > 0 { sql += ", " }
                name(a.column)
                sql += " = "
                write(a.value.node, needing: .lowest)
            }
            whereClause(filter)
        case .delete(let table, let filter):
            sql += "DELETE FROM "
            name(table)
            whereClause(filter)
        case .createTable(let table, let columns, let primaryKey, let padded):
            sql += "CREATE TABLE "
            name(table)
            sql += padded ? " ( " : " ("
            for (i, column) in columns.enumerated() {
                if i > 0 { sql += ", " }
                write(column)
            }
            if !primaryKey.isEmpty {
                sql += ", PRIMARY KEY ("
                names(primaryKey)
                sql += ")"
            }
            sql += padded ? " )" : ")"
        case .createIndex(let index, let table, let columns, let ifNotExists, let unique):
            indexHead(index, on: table, ifNotExists: ifNotExists, unique: unique)
            if dialect.sortsNullsFirst {
                names(columns)
            } else {
                // In the order fetches sort (nil first), so that an index serves ORDER BY both ways.
                sql += columns.map { dialect.quote($0) + " NULLS FIRST" }.joined(separator: ", ")
            }
            sql += ")"
        case .createKeyIndex(let index, let table, let keys, let ifNotExists, let unique):
            indexHead(index, on: table, ifNotExists: ifNotExists, unique: unique)
            sql += keys.map { key in
                let direction = key.ascending ? "ASC" : "DESC"
                // SQLite: as Core Data writes it. Elsewhere nil sorts first, as fetches sort it.
                if dialect.sortsNullsFirst { return dialect.quote(key.column) + " COLLATE BINARY " + direction }
                return dialect.quote(key.column) + " " + direction + (key.ascending ? " NULLS FIRST" : " NULLS LAST")
            }.joined(separator: ", ")
            sql += ")"
        case .dropIndex(let index, let ifExists):
            sql += ifExists ? "DROP INDEX IF EXISTS " : "DROP INDEX "
            name(index)
        case .addColumn(let table, let column):
            sql += "ALTER TABLE "
            name(table)
            sql += " ADD COLUMN "
            write(column)
        case .dropColumn(let table, let column):
            sql += "ALTER TABLE "
            name(table)
            sql += " DROP COLUMN "
            name(column)
        case .renameColumn(let table, let from, let to):
            sql += "ALTER TABLE "
            name(table)
            sql += " RENAME COLUMN "
            name(from)
            sql += " TO "
            name(to)
        case .createTrigger(let trigger, let event, let table, let condition, let body):
            sql += "CREATE TRIGGER "
            name(trigger)
            switch event {
            case .insert: sql += " AFTER INSERT ON "
            case .delete: sql += " AFTER DELETE ON "
            case .update(let columns):
                sql += " AFTER UPDATE"
                if !columns.isEmpty { sql += " OF "; names(columns) }
                sql += " ON "
            }
            name(table)
            sql += " FOR EACH ROW"
            if let condition {
                sql += " WHEN "
                write(condition.node, needing: .lowest)
            }
            sql += " BEGIN "
            for statement in body {
                write(statement)
                sql += "; "
            }
            sql += "END"
        case .dropTrigger(let trigger, let ifExists):
            sql += ifExists ? "DROP TRIGGER IF EXISTS " : "DROP TRIGGER "
            name(trigger)
        }
    }

    /// `INSERT [OR IGNORE] INTO table (columns)`
    private mutating func insertInto(_ table: String, _ columns: [String], orIgnore: Bool) {
        sql += orIgnore && dialect.ignoresConflicts == .orIgnore ? "INSERT OR IGNORE INTO " : "INSERT INTO "
        name(table)
        sql += " ("
        names(columns)
        sql += ")"
    }

    private mutating func write(_ column: SQLColumnDefinition) {
        name(column.name)
        sql += " " + column.type.description
        if column.isPrimaryKey { sql += " PRIMARY KEY" }
    }

    private mutating func whereClause(_ filter: SQLExpression?) {
        guard let filter else { return }
        sql += " WHERE "
        write(filter.node, needing: .lowest)
    }

    mutating func write(_ select: SQLSelect) {
        sql += select.distinct ? "SELECT DISTINCT " : "SELECT "
        list(select.columns.map(\.node))
        if let from = select.from {
            sql += " FROM "
            switch from {
            case .table(let table, let alias, let notIndexed):
                name(table)
                if let alias { sql += " "; name(alias) }
                if notIndexed, dialect.readsNotIndexed { sql += " NOT INDEXED" }
            case .subquery(let inner):
                sql += "("
                write(inner)
                sql += ")"
            }
        }
        for join in select.joins {
            sql += " " + join.kind.rawValue + " "
            name(join.table)
            sql += " "
            name(join.alias)
            sql += " ON "
            write(join.condition.node, needing: .lowest)
        }
        whereClause(select.filter)
        if !select.groupBy.isEmpty {
            sql += " GROUP BY "
            list(select.groupBy.map(\.node))
        }
        if let having = select.having {
            sql += " HAVING "
            write(having.node, needing: .lowest)
        }
        if !select.orderBy.isEmpty {
            sql += " ORDER BY "
            for (i, term) in select.orderBy.enumerated() {
                if i > 0 { sql += ", " }
                write(term.expression.node, needing: .lowest)
                sql += term.ascending ? " ASC" : " DESC"
                if !dialect.sortsNullsFirst { sql += term.ascending ? " NULLS FIRST" : " NULLS LAST" }
            }
        }
        if let limit = select.limit {
            if case .value(.integer(let n)) = limit.node, n < 0, let noLimit = dialect.noLimit {
                // No limit, only an offset: SQLite reads a negative limit as none; others say so.
                sql += " LIMIT " + noLimit
            } else {
                sql += " LIMIT "
                write(limit.node, needing: .atom)
            }
        }
        if let offset = select.offset {
            sql += " OFFSET "
            write(offset.node, needing: .atom)
        }
    }

    // MARK: Expressions

    private mutating func list(_ nodes: [SQLExpression.Node]) {
        for (i, node) in nodes.enumerated() {
            if i > 0 { sql += ", " }
            write(node, needing: .lowest)
        }
    }

    private static func precedence(of node: SQLExpression.Node) -> SQLPrecedence {
        switch node {
        case .or: return .or
        case .and: return .and
        case .not: return .not
        case .binary(_, let op, _):
            switch op {
            case .plus, .minus: return .plus
            case .remainder, .times, .divide: return .remainder
            case .bitOr: return .bits
            default: return .comparison
            }
        case .isNull, .between, .in, .inSelect: return .comparison
        case .collate: return .collate
        case .column, .value, .parameter, .integer, .name, .null, .boolean, .function, .countAll, .exists, .subquery, .caseWhen: return .atom
        }
    }

    /// Writes an expression, in parentheses unless it binds more tightly than `needed`.
    mutating func write(_ node: SQLExpression.Node, needing needed: SQLPrecedence) {
        let own = Self.precedence(of: node)
        let parenthesized = needed != .lowest && own <= needed && own != .atom
        if parenthesized { sql += "(" }
        defer { if parenthesized { sql += ")" } }
        switch node {
        case .column(let table, let column):
            if let table { name(table); sql += "." }
            name(column)
        case .value(let value):
            placeholders += 1
            let (text, bound) = dialect.placeholder(placeholders, for: value)
            sql += text
            arguments.append(bound)
        case .parameter:
            placeholders += 1
            hasParameters = true
            sql += dialect.placeholder(placeholders, for: .null).text
        case .integer(let n):
            sql += String(n)
        case .name(let name):
            sql += "'" + name.replacingOccurrences(of: "'", with: "''") + "'"
        case .null:
            sql += "NULL"
        case .boolean(let b):
            sql += dialect.boolean(b)
        case .and(let parts), .or(let parts):
            // Nested groups keep their parentheses: they hold SQLite's parse tree shallow.
            let isAnd = if case .and = node { true } else { false }
            for (i, part) in parts.enumerated() {
                if i > 0 { sql += isAnd ? " AND " : " OR " }
                write(part, needing: .and)
            }
        case .not(let inner):
            sql += "NOT "
            write(inner, needing: .and)
        case .binary(let lhs, let op, let rhs):
            // Comparisons never chain unparenthesized; arithmetic reads left to right.
            let operands: SQLPrecedence = own == .comparison ? .comparison : SQLPrecedence(rawValue: own.rawValue - 1)!
            write(lhs, needing: operands)
            sql += " " + dialect.text(of: op) + " "
            write(rhs, needing: own == .comparison ? .comparison : own)
        case .isNull(let inner, let negated):
            write(inner, needing: .comparison)
            sql += negated ? " IS NOT NULL" : " IS NULL"
        case .caseWhen(let condition, let a, let b):
            sql += "CASE WHEN "
            write(condition, needing: .lowest)
            sql += " THEN "
            write(a, needing: .lowest)
            sql += " ELSE "
            write(b, needing: .lowest)
            sql += " END"
        case .between(let inner, let low, let high):
            write(inner, needing: .comparison)
            sql += " BETWEEN "
            write(low, needing: .comparison)
            sql += " AND "
            write(high, needing: .comparison)
        case .in(let inner, let elements):
            write(inner, needing: .comparison)
            sql += " IN ("
            list(elements)
            sql += ")"
        case .inSelect(let inner, let select):
            write(inner, needing: .comparison)
            sql += " IN ("
            write(select)
            sql += ")"
        case .function(let function, let args):
            sql += function + "("
            list(args)
            sql += ")"
        case .countAll:
            sql += "COUNT(*)"
        case .exists(let select):
            sql += "EXISTS ("
            write(select)
            sql += ")"
        case .subquery(let select):
            sql += "("
            write(select)
            sql += ")"
        case .collate(let inner, let collation):
            write(inner, needing: .remainder)
            sql += " COLLATE "
            name(collation)
        }
    }
}
