import Foundation
import ObjectGraph
import ObjectModel
import SQLSyntax

/// Persistent history in a PostgreSQL store: `ATRANSACTION` and `ACHANGE`, kept by triggers
/// so that every writer is recorded (a save, another client's, plain SQL).
///
/// - A row trigger on each entity table records an insert, an update (with the columns that
///   changed) or a delete, and an update of each owner whose to-many relationship gained or
///   lost the row; a trigger on each join table records updates of both sides.
/// - The first change of a database transaction makes its `ATRANSACTION` row, with the author,
///   context name and process the saving client set (`termdata.author`, … for the transaction).
/// - At commit, a deferred trigger numbers the transaction under an advisory lock, so numbers
///   follow commit order (a client that has read up to number *n* has missed nothing below
///   it), and sends `NOTIFY` on the store's channel with the number: other clients learn of
///   the commit at once.
struct PostgresHistorySchema {
    let schema: PostgresSchema
    var layout: StoreSchema { schema.layout }
    private let dialect = PostgresDialect()

    static let channelPrefix = "termdata "

    /// The statements that add history to a store.
    var installStatements: [String] {
        let statements = [
            #"CREATE SEQUENCE "Z_PK_SEQ_16001""#,
            #"CREATE SEQUENCE "Z_PK_SEQ_16002""#,
            #"CREATE SEQUENCE "Z_HISTORY_NUMBER""#,
            #"""
            CREATE TABLE "ATRANSACTION" ("Z_PK" BIGINT PRIMARY KEY, "Z_ENT" BIGINT, "Z_OPT" BIGINT, "ZTXID" BIGINT UNIQUE,
              "ZNUMBER" BIGINT UNIQUE, "ZTIMESTAMP" TIMESTAMPTZ, "ZAUTHOR" TEXT COLLATE "C", "ZCONTEXTNAME" TEXT COLLATE "C",
              "ZPROCESSID" TEXT COLLATE "C")
            """#,
            #"""
            CREATE TABLE "ACHANGE" ("Z_PK" BIGINT PRIMARY KEY, "Z_ENT" BIGINT, "Z_OPT" BIGINT, "ZCHANGETYPE" BIGINT,
              "ZENTITY" BIGINT, "ZENTITYPK" BIGINT, "ZTRANSACTIONID" BIGINT, "ZCOLUMNS" TEXT[], "ZPREVIOUS" JSONB)
            """#,
            #"CREATE INDEX "ACHANGE_ZTRANSACTIONID_INDEX" ON "ACHANGE" ("ZTRANSACTIONID", "ZENTITYPK")"#,
            #"CREATE INDEX "ATRANSACTION_ZTIMESTAMP_INDEX" ON "ATRANSACTION" ("ZTIMESTAMP")"#,
            #"INSERT INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (16001, 'CHANGE', 0, 0), (16002, 'TRANSACTION', 0, 0)"#,
            // The transaction of the current database transaction, made on first use.
            #"""
            CREATE FUNCTION "Z_HC_TRANSACTION"() RETURNS BIGINT LANGUAGE plpgsql SET search_path FROM CURRENT AS $hc$
            DECLARE t BIGINT;
            BEGIN
              SELECT "Z_PK" INTO t FROM "ATRANSACTION" WHERE "ZTXID" = txid_current();
              IF t IS NULL THEN
                INSERT INTO "ATRANSACTION" ("Z_PK", "Z_ENT", "Z_OPT", "ZTXID", "ZTIMESTAMP", "ZAUTHOR", "ZCONTEXTNAME", "ZPROCESSID")
                VALUES (nextval('"Z_PK_SEQ_16002"'), 16002, 1, txid_current(), clock_timestamp(),
                        NULLIF(current_setting('termdata.author', true), ''), NULLIF(current_setting('termdata.context', true), ''),
                        NULLIF(current_setting('termdata.process', true), ''))
                RETURNING "Z_PK" INTO t;
              END IF;
              RETURN t;
            END $hc$
            """#,
            // At commit: the transaction's number, in commit order, and the notice.
            #"""
            CREATE FUNCTION "Z_HC_NUMBER"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $hc$
            DECLARE n BIGINT;
            BEGIN
              PERFORM pg_advisory_xact_lock(hashtext('termdata history ' || current_schema()));
              n := nextval('"Z_HISTORY_NUMBER"');
              UPDATE "ATRANSACTION" SET "ZNUMBER" = n WHERE "Z_PK" = NEW."Z_PK";
              PERFORM pg_notify('\#(Self.channelPrefix)' || current_schema(), n::text);
              RETURN NULL;
            END $hc$
            """#,
            #"""
            CREATE CONSTRAINT TRIGGER "Z_HC_NUMBER" AFTER INSERT ON "ATRANSACTION" DEFERRABLE INITIALLY DEFERRED
            FOR EACH ROW EXECUTE FUNCTION "Z_HC_NUMBER"()
            """#,
        ]
        return statements + triggerStatements
    }

    /// The triggers of the entity and join tables: made anew when a migration changes the columns.
    var triggerStatements: [String] {
        layout.tables.flatMap(tableTrigger) + layout.joinTables.flatMap(joinTrigger)
    }

    /// What brings the history of a store made before changes kept their previous values up
    /// to now: the column, and the trigger functions anew (the triggers stay).
    var previousValuesUpgrade: [String] {
        [#"ALTER TABLE "ACHANGE" ADD COLUMN "ZPREVIOUS" JSONB"#] + triggerStatements.filter { $0.hasPrefix("CREATE OR REPLACE FUNCTION") }
    }

    private func q(_ name: String) -> String { dialect.quote(name) }

    /// A name as an SQL string literal.
    private func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }

    /// An `ACHANGE` row: `kind` 0 insert, 1 update, 2 delete; `previous`, the values it
    /// replaced (`ZPREVIOUS`, see `previousValues`).
    private func change(_ kind: Int, entity: String, key: String, columns: String, previous: String = "NULL") -> String {
        #"INSERT INTO "ACHANGE" VALUES (nextval('"Z_PK_SEQ_16001"'), 16001, 1, \#(kind), \#(entity), \#(key), t, \#(columns), \#(previous));"#
    }

    /// An update of the owner row `key` of `ownerTable`, whose relationship `relationship` changed;
    /// nothing when the owner is gone. A join row's change says which member joined (`{"+": key}`)
    /// or left (`{"-": key}`).
    private func ownerChange(ownerTable: String, key: String, relationship: String, member: String? = nil) -> String {
        #"""
        INSERT INTO "ACHANGE" SELECT nextval('"Z_PK_SEQ_16001"'), 16001, 1, 1, o."Z_ENT", o."Z_PK", t, ARRAY[\#(literal("@" + relationship))],
          \#(member ?? "NULL") FROM \#(q(ownerTable)) o WHERE o."Z_PK" = \#(key);
        """#
    }

    /// A row's values as a JSON object of text, by column: `OLD`'s, for what an update or a
    /// delete replaced. Each value is kept as text that reads back exactly (a time as seconds
    /// since 1970, bytes in base 64), in pieces of 50 columns (a function takes 100 arguments).
    private func previousValues(of columns: [(name: String, type: SQLColumnType)]) -> String {
        let pairs = columns.map { column -> String in
            let value = "OLD.\(q(column.name))"
            let text: String
            switch column.type {
            case .timestamptz: text = "extract(epoch FROM \(value))::text"
            case .bytea: text = "encode(\(value), 'base64')"
            default: text = "\(value)::text"
            }
            return "\(literal(column.name)), \(text)"
        }
        guard !pairs.isEmpty else { return "'{}'::jsonb" }
        return stride(from: 0, to: pairs.count, by: 50).map {
            "jsonb_build_object(" + pairs[$0..<min($0 + 50, pairs.count)].joined(separator: ", ") + ")"
        }.joined(separator: " || ")
    }

    /// Foreign keys on `table` that make rows members of an owner's to-many relationship.
    private func memberships(of table: String) -> [(column: String, ownerTable: String, relationship: String)] {
        var found: [(String, String, String)] = []
        for (_, mapping) in layout.mappings.sorted(by: { $0.key < $1.key }) {
            for (relationship, storage) in mapping.toMany {
                guard case .foreignKey(let memberTable, let column) = storage, memberTable == table, !column.isEmpty else { continue }
                let entry = (column, mapping.table.name, relationship.name)
                if !found.contains(where: { $0 == entry }) { found.append(entry) }
            }
        }
        return found
    }

    private func tableTrigger(_ table: StoreSchema.Table) -> [String] {
        let function = "Z_HC_" + table.name
        let watched = schema.columnTypes[table.name]!.map(\.name).filter { !$0.hasPrefix("Z_FC_") && !$0.hasPrefix("Z_FD_") && !$0.hasPrefix("Z_FCD_") }
        let changed = watched.isEmpty ? "ARRAY[]::TEXT[]" : "array_remove(ARRAY[" + watched.map {
            "CASE WHEN OLD.\(q($0)) IS DISTINCT FROM NEW.\(q($0)) THEN \(literal($0)) END"
        }.joined(separator: ", ") + "], NULL)"
        let values = schema.columnTypes[table.name]!.filter { watched.contains($0.name) }
        let all = previousValues(of: [("Z_OPT", .bigint)] + values)
        var onInsert = [change(0, entity: #"NEW."Z_ENT""#, key: #"NEW."Z_PK""#, columns: "NULL")]
        var onUpdate = [#"IF cardinality(cols) > 0 THEN "# + change(1, entity: #"NEW."Z_ENT""#, key: #"NEW."Z_PK""#, columns: "cols",
            previous: "(SELECT jsonb_object_agg(key, value) FROM jsonb_each(\(all)) WHERE key = ANY(cols))") + " END IF;"]
        var onDelete = [change(2, entity: #"OLD."Z_ENT""#, key: #"OLD."Z_PK""#, columns: "NULL", previous: all)]
        for (column, owner, relationship) in memberships(of: table.name) {
            let c = q(column)
            onInsert.append("IF NEW.\(c) IS NOT NULL THEN " + ownerChange(ownerTable: owner, key: "NEW.\(c)", relationship: relationship) + " END IF;")
            onUpdate.append("IF OLD.\(c) IS DISTINCT FROM NEW.\(c) THEN "
                + ownerChange(ownerTable: owner, key: "OLD.\(c)", relationship: relationship)
                + ownerChange(ownerTable: owner, key: "NEW.\(c)", relationship: relationship) + " END IF;")
            onDelete.append("IF OLD.\(c) IS NOT NULL THEN " + ownerChange(ownerTable: owner, key: "OLD.\(c)", relationship: relationship) + " END IF;")
        }
        return [
            """
            CREATE OR REPLACE FUNCTION \(q(function))() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $hc$
            DECLARE t BIGINT := "Z_HC_TRANSACTION"(); cols TEXT[];
            BEGIN
              IF TG_OP = 'INSERT' THEN
                \(onInsert.joined(separator: "\n    "))
              ELSIF TG_OP = 'UPDATE' THEN
                cols := \(changed);
                \(onUpdate.joined(separator: "\n    "))
              ELSE
                \(onDelete.joined(separator: "\n    "))
              END IF;
              RETURN NULL;
            END $hc$
            """,
            "CREATE TRIGGER \(q(function)) AFTER INSERT OR UPDATE OR DELETE ON \(q(table.name)) FOR EACH ROW EXECUTE FUNCTION \(q(function))()",
        ]
    }

    /// Both sides of a many-to-many join row that came or went are updated.
    private func joinTrigger(_ join: StoreSchema.JoinTable) -> [String] {
        // Which tables and relationships the two columns belong to.
        var sides: [(column: String, ownerTable: String, relationship: String)] = []
        for (_, mapping) in layout.mappings.sorted(by: { $0.key < $1.key }) {
            for (relationship, storage) in mapping.toMany {
                guard case .joinTable(let name, let own, _) = storage, name == join.name else { continue }
                let entry = (own, mapping.table.name, relationship.name)
                if !sides.contains(where: { $0 == entry }) { sides.append(entry) }
            }
        }
        let function = "Z_HC_" + join.name
        let row = { (record: String) in
            sides.map { side in
                let other = side.column == join.firstColumn ? join.secondColumn : join.firstColumn
                return ownerChange(ownerTable: side.ownerTable, key: "\(record).\(q(side.column))", relationship: side.relationship,
                                   member: "jsonb_build_object(\(literal(record == "NEW" ? "+" : "-")), \(record).\(q(other)))")
            }.joined(separator: "\n    ")
        }
        return [
            """
            CREATE OR REPLACE FUNCTION \(q(function))() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $hc$
            DECLARE t BIGINT := "Z_HC_TRANSACTION"();
            BEGIN
              IF TG_OP = 'INSERT' THEN
                \(row("NEW"))
              ELSE
                \(row("OLD"))
              END IF;
              RETURN NULL;
            END $hc$
            """,
            "CREATE TRIGGER \(q(function)) AFTER INSERT OR DELETE ON \(q(join.name)) FOR EACH ROW EXECUTE FUNCTION \(q(function))()",
        ]
    }

    /// The property each recorded column stands for, by table: attribute columns, to-one keys
    /// and their entity and order columns.
    func properties(ofTable table: String) -> [String: String] {
        var names: [String: String] = [:]
        for (_, mapping) in layout.mappings where mapping.table.name == table {
            for (attribute, column) in mapping.attributes { names[column] = attribute.name }
            for (relationship, key) in mapping.toOne {
                names[key.column] = relationship.name
                if let e = key.entityColumn { names[e] = relationship.name }
            }
        }
        return names
    }
}
