import Foundation
import GRDB
import GRDBSQLite
import ObjectGraph
import ObjectModel
import Predicates
import SQLSyntax

/// Writes rows through one entity's cached INSERT or UPDATE statement, binding each value
/// straight into the prepared statement (no intermediate argument arrays): the hot path
/// of a large save.
final class RowWriter {
    let mapping: StoreSchema.EntityMapping
    /// `INSERT INTO Z<ROOT> (Z_PK, Z_ENT, Z_OPT, <columns>) VALUES (?, ...)`.
    let insertSQL: String
    /// `UPDATE ... SET Z_OPT = Z_OPT % 9223372036854775807 + 1, <columns> = ? WHERE Z_PK = ? AND Z_OPT = ?`:
    /// `Z_OPT + 1`, except that the largest 64-bit number goes round to 1, as
    /// `nextVersion(after:)` does, where SQLite would turn the sum into a float.
    let updateSQL: String
    /// The same without the version check, for the overwrite merge policy.
    let overwriteSQL: String
    /// `(attribute name, its type)` in column order.
    private let attributes: [(name: String, type: AttributeType)]
    /// `(relationship name, whether it has an entity column)` in column order.
    private let toOne: [(name: String, hasEntityColumn: Bool)]
    /// Each column's attribute as an index into `mapping.entity.attributes`, for rows that
    /// hold their values in that order.
    private let attributePositions: [Int]

    /// For each attribute column, whether its values may be kept in external files.
    private let isExternal: [Bool]
    /// Whether any attribute column may be (see `ExternalData`).
    let hasExternalColumns: Bool
    /// `SELECT <external columns> FROM Z<ROOT> WHERE Z_PK = ?`, to find the files a row refers to.
    private let externalSelectSQL: String

    /// Turns the bytes of an external-storage column (by attribute column number) into the
    /// value to store, writing a file when they are large.
    typealias ExternalEncoder = (_ column: Int, _ bytes: Data) throws -> Data

    /// The insert statement of the current save, so rows skip the statement cache lookup.
    private var insertStatement: Statement?
    private var insertConnection: SQLiteConnection?

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(mapping: StoreSchema.EntityMapping) {
        self.mapping = mapping
        var columns = mapping.attributes.map(\.column)
        for (_, fk) in mapping.toOne {
            columns.append(fk.column)
            if let e = fk.entityColumn { columns.append(e) }
        }
        let all = ["Z_PK", "Z_ENT", "Z_OPT"] + columns
        let table = mapping.table.name
        insertSQL = SQLStatement.insert(into: table, columns: all, values: all.map { _ in .parameter }).sqlite
        // Versions wrap to 1 after the largest 64-bit value rather than overflow.
        let nextVersion = SQLExpression.binary(.binary(.column("Z_OPT"), .remainder, .literal(Int64.max)), .plus, .literal(1))
        let sets = [("Z_OPT", nextVersion)] + columns.map { ($0, SQLExpression.parameter) }
        let thisRow = SQLExpression.column("Z_PK") == .parameter
        overwriteSQL = SQLStatement.update(table, set: sets, where: thisRow).sqlite
        updateSQL = SQLStatement.update(table, set: sets, where: .and([thisRow, .column("Z_OPT") == .parameter])).sqlite
        attributes = mapping.attributes.map { ($0.attribute.name, $0.attribute.type) }
        attributePositions = mapping.attributePositions
        toOne = mapping.toOne.map { ($0.relationship.name, $0.key.entityColumn != nil) }
        isExternal = mapping.externalColumns
        hasExternalColumns = isExternal.contains(true)
        let externalNames = zip(mapping.attributes, isExternal).filter(\.1).map(\.0.column)
        externalSelectSQL = SQLSelect(columns: externalNames.isEmpty ? [.null] : externalNames.map { .column($0) },
                                      from: .table(table), filter: thisRow).sqlite
    }

    /// The external files a row refers to now, by attribute column number.
    func externalFileNames(primaryKey: Int64, in db: Database) throws -> [Int: String] {
        guard hasExternalColumns, let row = try Row.fetchOne(db.cachedStatement(sql: externalSelectSQL), arguments: [primaryKey]) else { return [:] }
        var names: [Int: String] = [:]
        var i = 0
        for column in isExternal.indices where isExternal[column] {
            if case .blob(let stored) = (row[i] as DatabaseValue).storage, let name = ExternalData.fileName(of: stored) {
                names[column] = name
            }
            i += 1
        }
        return names
    }

    /// The row version after `version`, as the update's SQL computes it: one more, and 1
    /// after the largest 64-bit number.
    static func nextVersion(after version: Int64) -> Int64 {
        version == .max ? 1 : version + 1
    }

    /// Inserts a new row with `Z_OPT = 1`.
    func insert(_ row: StoredRow, primaryKey: Int64, in db: Database, key: (ManagedObjectID) -> Int64?,
                entityNumber: (ManagedObjectID) -> Int?, external: ExternalEncoder? = nil) throws {
        if insertStatement == nil || insertConnection != db.sqliteConnection {
            insertStatement = try db.cachedStatement(sql: insertSQL)
            insertConnection = db.sqliteConnection
        }
        let s = insertStatement!.sqliteStatement
        sqlite3_reset(s)
        sqlite3_bind_int64(s, 1, primaryKey)
        sqlite3_bind_int64(s, 2, Int64(mapping.number))
        sqlite3_bind_int64(s, 3, 1)
        var index: Int32 = 4
        try bindValues(row, s, &index, key: key, entityNumber: entityNumber, external: external)
        try step(s, db)
    }

    /// Updates a row; returns whether a row was changed (false: a version conflict or a missing row).
    func update(_ row: StoredRow, primaryKey: Int64, checkingVersion: Bool, in db: Database,
                key: (ManagedObjectID) -> Int64?, entityNumber: (ManagedObjectID) -> Int?,
                external: ExternalEncoder? = nil) throws -> Bool {
        let statement = try db.cachedStatement(sql: checkingVersion ? updateSQL : overwriteSQL)
        let s = statement.sqliteStatement
        sqlite3_reset(s)
        var index: Int32 = 1
        try bindValues(row, s, &index, key: key, entityNumber: entityNumber, external: external)
        sqlite3_bind_int64(s, index, primaryKey)
        if checkingVersion { sqlite3_bind_int64(s, index + 1, row.version) }
        try step(s, db)
        return sqlite3_changes(db.sqliteConnection) > 0
    }

    private func bindValues(_ row: StoredRow, _ s: OpaquePointer, _ index: inout Int32,
                            key: (ManagedObjectID) -> Int64?, entityNumber: (ManagedObjectID) -> Int?,
                            external: ExternalEncoder?) throws {
        if let values = row.values(inOrderOf: mapping.entity), external == nil {
            for position in attributePositions {
                Self.bind(values[position], s, index)
                index += 1
            }
        } else if let values = row.values(inOrderOf: mapping.entity) {
            for (column, position) in attributePositions.enumerated() {
                try bindAttribute(values[position], column: column, s, index, external)
                index += 1
            }
        } else {
            let named = row.attributes
            for (column, (name, _)) in attributes.enumerated() {
                try bindAttribute(named[name] ?? .null, column: column, s, index, external)
                index += 1
            }
        }
        for (name, hasEntityColumn) in toOne {
            let destination = row.toOne[name]
            if let pk = destination.flatMap(key) { sqlite3_bind_int64(s, index, pk) } else { sqlite3_bind_null(s, index) }
            index += 1
            if hasEntityColumn {
                if let n = destination.flatMap(entityNumber) { sqlite3_bind_int64(s, index, Int64(n)) } else { sqlite3_bind_null(s, index) }
                index += 1
            }
        }
    }

    private func step(_ s: OpaquePointer, _ db: Database) throws {
        let code = sqlite3_step(s)
        sqlite3_reset(s)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code),
                                message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
    }

    /// Binds one attribute column's value, through `external` for external-storage columns.
    private func bindAttribute(_ value: ObjectValue, column: Int, _ s: OpaquePointer, _ i: Int32,
                               _ external: ExternalEncoder?) throws {
        guard let external, isExternal[column] else { return Self.bind(value, s, i) }
        // Every blob in such a column is tagged; values of other kinds keep their own type.
        switch value {
        case .data(let bytes): Self.bindBlob(try external(column, bytes), s, i)
        case .uuid(let u): Self.bindBlob(try external(column, withUnsafeBytes(of: u.uuid) { Data($0) }), s, i)
        default: Self.bind(value, s, i)
        }
    }

    /// Binds an attribute value as `DatabaseValueCoding` stores it.
    static func bind(_ value: ObjectValue, _ s: OpaquePointer, _ i: Int32) {
        switch value {
        case .null, .array, .set, .dictionary: sqlite3_bind_null(s, i)
        case .bool(let b): sqlite3_bind_int64(s, i, b ? 1 : 0)
        case .int(let n): sqlite3_bind_int64(s, i, Int64(n))
        case .double(let d): sqlite3_bind_double(s, i, d)
        case .decimal(let d): sqlite3_bind_double(s, i, NSDecimalNumber(decimal: d).doubleValue)
        case .string(let text): bindText(text, s, i)
        case .date(let d): sqlite3_bind_double(s, i, d.timeIntervalSinceReferenceDate)
        case .data(let d): bindBlob(d, s, i)
        case .uuid(let u): bindBlob(withUnsafeBytes(of: u.uuid) { Data($0) }, s, i)
        case .url(let u): bindText(u.absoluteString, s, i)
        case .object:
            if case .int64(let pk) = DatabaseValueCoding.databaseValue(value).storage { sqlite3_bind_int64(s, i, pk) } else { sqlite3_bind_null(s, i) }
        }
    }

    private static func bindText(_ text: String, _ s: OpaquePointer, _ i: Int32) {
        var text = text
        text.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                if let base = chars.baseAddress {
                    _ = sqlite3_bind_text(s, i, base, Int32(chars.count), transient)
                } else {
                    _ = sqlite3_bind_text(s, i, "", 0, transient)
                }
            }
        }
    }

    private static func bindBlob(_ data: Data, _ s: OpaquePointer, _ i: Int32) {
        data.withUnsafeBytes { raw in
            _ = sqlite3_bind_blob(s, i, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, Int32(raw.count), transient)
        }
    }
}
