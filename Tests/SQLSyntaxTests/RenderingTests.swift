import Foundation
import Testing
import SQLSyntax
import TestSupport

@Suite("Rendering SQL for SQLite")
struct RenderingTests {
    let dialect = SQLiteDialect()
    let t0Name = SQLExpression.column("ZNAME", of: "t0")

    @Test("a query with every clause reads in SQL's order, values bound in that order")
    func wholeSelect() {
        var select = SQLSelect(columns: [.column("ZCATEGORY", of: "t1"), .countAll],
                               from: .table("ZITEM", as: "t0"),
                               joins: [SQLJoin(.left, "ZCATEGORY", as: "t1", on: .column("Z_PK", of: "t1") == .column("ZCATEGORY", of: "t0"))],
                               filter: .column("ZDONE", of: "t0") == .value(.integer(0)))
        select.distinct = true
        select.groupBy = [.column("ZCATEGORY", of: "t1")]
        select.having = .countAll > .value(.integer(2))
        select.orderBy = [SQLOrdering(t0Name.collated("td_caseInsensitiveCompare")), SQLOrdering(.column("Z_PK", of: "t0"), ascending: false)]
        select.limit = .value(.integer(50))
        select.offset = .value(.integer(10))
        assertSQL(dialect.render(select),
                  "SELECT DISTINCT t1.ZCATEGORY, COUNT(*) FROM ZITEM t0 LEFT JOIN ZCATEGORY t1 ON t1.Z_PK = t0.ZCATEGORY"
                  + " WHERE t0.ZDONE = ? GROUP BY t1.ZCATEGORY HAVING COUNT(*) > ?"
                  + " ORDER BY t0.ZNAME COLLATE td_caseInsensitiveCompare ASC, t0.Z_PK DESC LIMIT ? OFFSET ?",
                  ["0", "2", "50", "10"])
    }

    @Test("parentheses appear where precedence needs them and around nested groups", arguments: [
        (SQLExpression.and([.column("a") == .value(.integer(1)), .or([.column("b").isNull(), .column("c").isNull()])]),
         "a = ? AND (b IS NULL OR c IS NULL)"),
        (.or([.and([.column("a").isNull(), .column("b").isNull()]), .column("c").isNull()]),
         "(a IS NULL AND b IS NULL) OR c IS NULL"),
        (.and([.and([.column("a").isNull(), .column("b").isNull()]), .and([.column("c").isNull(), .column("d").isNull()])]),
         "(a IS NULL AND b IS NULL) AND (c IS NULL AND d IS NULL)"),
        (.not(.and([.column("a").isNull(), .column("b").isNull()])), "NOT (a IS NULL AND b IS NULL)"),
        (.not(.coalesce(.column("a") > .value(.integer(5)), .false)), "NOT COALESCE(a > ?, 0)"),
        (.binary(.column("a") == .column("b"), .equal, .true), "(a = b) = 1"),
        (.binary(.binary(.column("Z_OPT"), .remainder, .literal(Int64.max)), .plus, .literal(1)), "Z_OPT % 9223372036854775807 + 1"),
        (.binary(.literal(2), .remainder, .binary(.literal(3), .plus, .literal(1))), "2 % (3 + 1)"),
        (SQLExpression.column("a").isIn([]), "0"),
        (SQLExpression.and([]), "1"),
    ])
    func precedence(_ expression: SQLExpression, _ expected: String) {
        #expect(dialect.render(expression).sql == expected)
    }

    @Test("text holding a NUL character is bound as its bytes and read back as the whole text")
    func nulText() {
        let rendered = dialect.render(t0Name == .value(.text("a\u{0}b")))
        #expect(rendered.sql == "t0.ZNAME = CAST(? AS TEXT)")
        #expect(rendered.arguments == [.blob(Data("a\u{0}b".utf8))])
    }

    @Test("statements that change rows and schemas quote every name they hold")
    func statements() {
        let odd = "first \"name\""
        let cases: [(SQLStatement, String)] = [
            (.insert(into: "ZITEM", columns: ["Z_PK", odd], values: [.parameter, .parameter]),
             "INSERT INTO ZITEM (Z_PK, \"first \"\"name\"\"\") VALUES (?, ?)"),
            (.insert(into: "Z_1TAGS", columns: ["Z_1ITEMS", "Z_2TAGS"], values: [.parameter, .parameter], orIgnore: true),
             "INSERT OR IGNORE INTO Z_1TAGS (Z_1ITEMS, Z_2TAGS) VALUES (?, ?)"),
            (.update("ORDER", set: [("ZNAME", .null)], where: .column("Z_PK") == .parameter), "UPDATE \"ORDER\" SET ZNAME = NULL WHERE Z_PK = ?"),
            (.delete(from: "ZITEM", where: .and([.column("Z_PK") == .parameter, .column("Z_OPT") == .parameter])),
             "DELETE FROM ZITEM WHERE Z_PK = ? AND Z_OPT = ?"),
            (.createTable("ZITEM", columns: [SQLColumnDefinition("Z_PK", .integer, primaryKey: true), SQLColumnDefinition("ZNAME", .varchar)], padded: true),
             "CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, ZNAME VARCHAR )"),
            (.createTable("J", columns: [SQLColumnDefinition("A", .integer), SQLColumnDefinition("B", .integer)], primaryKey: ["A", "B"]),
             "CREATE TABLE J (A INTEGER, B INTEGER, PRIMARY KEY (A, B))"),
            (.createIndex("ZITEM_ZNAME_INDEX", on: "ZITEM", columns: ["ZNAME"], ifNotExists: true),
             "CREATE INDEX IF NOT EXISTS ZITEM_ZNAME_INDEX ON ZITEM (ZNAME)"),
            (.dropIndex("a b", ifExists: true), "DROP INDEX IF EXISTS \"a b\""),
            (.addColumn(to: "ZITEM", SQLColumnDefinition("ZWHEN", .timestamp)), "ALTER TABLE ZITEM ADD COLUMN ZWHEN TIMESTAMP"),
            (.dropColumn("ZOLD", from: "ZITEM"), "ALTER TABLE ZITEM DROP COLUMN ZOLD"),
            (.renameColumn("ZOLD", to: "ZNEW", in: "ZITEM"), "ALTER TABLE ZITEM RENAME COLUMN ZOLD TO ZNEW"),
            (.createUniqueIndex("U", on: "S", columns: ["ZNAME"]), "CREATE UNIQUE INDEX U ON S (ZNAME)"),
            (.insert(into: "L", columns: ["A", "B"], select: SQLSelect(columns: [.literal(1), .column("Z_PK", of: "NEW")],
                                                                    filter: .column("Z_PK", of: "NEW").isNull(negated: true))),
             "INSERT INTO L (A, B) SELECT 1, NEW.Z_PK WHERE NEW.Z_PK IS NOT NULL"),
            (.createTrigger("T", after: .update(of: ["ZNAME", odd]), on: "ORDER",
                            when: .binary(.column("ZNAME", of: "OLD"), .isNot, .column("ZNAME", of: "NEW")),
                            body: [.insert(into: "L", columns: ["A"], values: [
                                .binary(.binary(.column("A", of: "OLD"), .bitOr, .literal(2)), .times, .binary(.literal(1), .plus, .literal(3)))]),
                                   .delete(from: "M")]),
             "CREATE TRIGGER T AFTER UPDATE OF ZNAME, \"first \"\"name\"\"\" ON \"ORDER\" FOR EACH ROW WHEN OLD.ZNAME IS NOT NEW.ZNAME "
                + "BEGIN INSERT INTO L (A) VALUES ((OLD.A | 2) * (1 + 3)); DELETE FROM M; END"),
            (.createTrigger("T", after: .delete, on: "ZITEM", body: [.delete(from: "M")]),
             "CREATE TRIGGER T AFTER DELETE ON ZITEM FOR EACH ROW BEGIN DELETE FROM M; END"),
            (.dropTrigger("T", ifExists: true), "DROP TRIGGER IF EXISTS T"),
            (.update("ZITEM", set: [("ZNAME", .null)], where: .column("Z_PK").isIn(SQLSelect(columns: [.column("Z_PK", of: "t0")],
                                                                                           from: .table("ZITEM", as: "t0"),
                                                                                           filter: .column("ZDONE", of: "t0") == .parameter))),
             "UPDATE ZITEM SET ZNAME = NULL WHERE Z_PK IN (SELECT t0.Z_PK FROM ZITEM t0 WHERE t0.ZDONE = ?)"),
        ]
        for (statement, expected) in cases {
            #expect(dialect.render(statement).sql == expected)
        }
    }

    @Test("identifiers are bare only when they are plain words and not keywords", arguments: [
        ("ZNAME", "ZNAME"), ("t0", "t0"), ("_x9", "_x9"), ("Z_1ITEMS", "Z_1ITEMS"),
        ("order", "\"order\""), ("SELECT", "\"SELECT\""), ("rowid", "\"rowid\""),
        ("9lives", "\"9lives\""), ("first name", "\"first name\""), ("it's", "\"it's\""),
        ("a\"b", "\"a\"\"b\""), ("", "\"\""), ("café", "\"café\""), ("x; DROP TABLE y", "\"x; DROP TABLE y\""),
    ])
    func quoting(_ name: String, _ expected: String) {
        #expect(dialect.quote(name) == expected)
    }

    @Test("a placeholder bound at run time and a value bound at rendering keep their order of appearance")
    func parameters() {
        let rendered = dialect.render(SQLStatement.update("T", set: [("A", .parameter), ("B", .parameter)], where: .column("Z_PK") == .parameter))
        #expect(rendered.sql == "UPDATE T SET A = ?, B = ? WHERE Z_PK = ?")
        #expect(rendered.arguments.isEmpty)
    }
}

@Suite("Rendering SQL for PostgreSQL")
struct PostgresRenderingTests {
    let dialect = PostgresDialect()

    @Test("every name is quoted, each quote in it doubled", arguments: [
        ("ZNAME", "\"ZNAME\""), ("a\"b", "\"a\"\"b\""), ("\"\"", "\"\"\"\"\"\""), ("", "\"\""),
        ("café \"x\" 🇫🇷", "\"café \"\"x\"\" 🇫🇷\""), ("x\"; DROP TABLE y; --", "\"x\"\"; DROP TABLE y; --\""),
    ])
    func quoting(_ name: String, _ expected: String) {
        #expect(dialect.quote(name) == expected)
    }

    @Test("names are always quoted, values are $n, IS is IS NOT DISTINCT FROM, and nil sorts first")
    func select() {
        var select = SQLSelect(columns: [.column("Z_PK", of: "t0")], from: .table("ZITEM", as: "t0"),
                               filter: .and([.binary(.column("ZNAME", of: "t0"), .is, .column("ZTITLE", of: "t0")),
                                             .binary(.column("ZNAME", of: "t0"), .like, .value(.text("a%")))]))
        select.orderBy = [SQLOrdering(.column("ZVALUE", of: "t0"), ascending: false), SQLOrdering(.column("Z_PK", of: "t0"))]
        select.limit = .value(.integer(-1))
        select.offset = .value(.integer(5))
        assertSQL(dialect.render(select),
                  #"SELECT "t0"."Z_PK" FROM "ZITEM" "t0" WHERE "t0"."ZNAME" IS NOT DISTINCT FROM "t0"."ZTITLE" AND "t0"."ZNAME" LIKE $1"#
                  + #" ORDER BY "t0"."ZVALUE" DESC NULLS LAST, "t0"."Z_PK" ASC NULLS FIRST LIMIT ALL OFFSET $2"#,
                  ["\"a%\"", "5"])
    }

    @Test("indexes keep nil first, and an insert that skips existing rows says ON CONFLICT DO NOTHING")
    func statements() {
        #expect(dialect.render(.createIndex("ZITEM_ZVALUE_INDEX", on: "ZITEM", columns: ["ZVALUE", "Z_PK"])).sql
                == #"CREATE INDEX "ZITEM_ZVALUE_INDEX" ON "ZITEM" ("ZVALUE" NULLS FIRST, "Z_PK" NULLS FIRST)"#)
        #expect(dialect.render(.insert(into: "Z_1TAGS", columns: ["Z_1BOOKS", "Z_2TAGS"], values: [.value(.integer(1)), .value(.integer(2))],
                                       orIgnore: true)).sql
                == #"INSERT INTO "Z_1TAGS" ("Z_1BOOKS", "Z_2TAGS") VALUES ($1, $2) ON CONFLICT DO NOTHING"#)
        #expect(dialect.quote(#"we"ird"#) == #""we""ird""#)
    }
}
