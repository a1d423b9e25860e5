import Foundation
import NIOCore
import ObjectGraph
import ObjectModel
import PostgresNIO
import Predicates
import SQLSyntax

/// How attribute values are kept in PostgreSQL: in its own types, where SQLite has only a
/// few storage classes.
///
/// | attribute | column |
/// | --- | --- |
/// | Integer 16/32/64, Boolean | `BIGINT` (booleans 0 and 1, as Core Data keeps them) |
/// | Double, Float | `DOUBLE PRECISION` |
/// | Decimal | `NUMERIC`: every digit, not a double's 16 |
/// | Date | `TIMESTAMPTZ` (to the microsecond) |
/// | String, URI | `TEXT COLLATE "C"`, ordered by code point |
/// | UUID | `UUID` |
/// | Binary, Transformable | `BYTEA` |
enum PostgresValueCoding {
    static func columnType(of type: AttributeType) -> SQLColumnType {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: return .bigint
        case .date: return .timestamptz
        case .double, .float: return .doublePrecision
        case .decimal: return .numeric
        case .string, .uri: return .textByCodePoint
        case .uuid: return .uuid
        case .binary, .transformable, .objectID, .undefined: return .bytea
        }
    }

    /// The value bound for an attribute value or a predicate's constant.
    static func sqlValue(_ value: ObjectValue) -> SQLValue {
        switch value {
        case .null, .array, .set, .dictionary: return .null
        case .bool(let b): return .integer(b ? 1 : 0)
        case .int(let i): return .integer(Int64(i))
        case .double(let d): return .real(d)
        case .decimal(let d): return .decimal(d)
        case .string(let s): return .text(s)
        case .date(let d): return .date(d)
        case .data(let d): return .blob(d)
        case .uuid(let u): return .uuid(u)
        case .url(let u): return .text(u.absoluteString)
        case .object:
            return value.objectID?.primaryKey.map(SQLValue.integer) ?? .null
        }
    }

    /// The value a cell holds, as its own PostgreSQL type gives it.
    static func plainValue(_ cell: PostgresCell) throws -> ObjectValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8, .oid: return .int(Int(try cell.decode(Int64.self)))
        case .float4, .float8: return .double(try cell.decode(Double.self))
        case .numeric: return .decimal(try cell.decode(Decimal.self))
        case .bool: return .bool(try cell.decode(Bool.self))
        case .timestamptz, .timestamp: return .date(try Microseconds.date(cell))
        case .date: return .date(try cell.decode(Date.self))
        case .uuid: return .uuid(try cell.decode(UUID.self))
        case .bytea:
            let buffer = try cell.decode(ByteBuffer.self)
            return .data(Data(buffer.readableBytesView))
        default: return .string(try cell.decode(String.self))
        }
    }

    /// The value a cell holds, as the attribute's type wants it: sums of integers come back
    /// as `numeric`, counts as `bigint`, booleans as 0 and 1.
    static func objectValue(_ cell: PostgresCell, type: AttributeType) throws -> ObjectValue {
        let value = try plainValue(cell)
        switch (value, type) {
        case (.int(let i), .boolean): return .bool(i != 0)
        case (.int(let i), .double), (.int(let i), .float): return .double(Double(i))
        case (.int(let i), .decimal): return .decimal(Decimal(i))
        case (.decimal(let d), .integer16), (.decimal(let d), .integer32), (.decimal(let d), .integer64):
            return .int(NSDecimalNumber(decimal: d).intValue)
        case (.decimal(let d), .double), (.decimal(let d), .float): return .double(NSDecimalNumber(decimal: d).doubleValue)
        case (.double(let d), .integer16), (.double(let d), .integer32), (.double(let d), .integer64): return .int(Int(d))
        case (.double(let d), .decimal): return .decimal(Decimal(d))
        case (.string(let s), .uri): return URL(string: s).map(ObjectValue.url) ?? .string(s)
        default: return value
        }
    }

    /// An integer cell (a key, an entity number, a version); nil for NULL.
    static func integer(_ cell: PostgresCell) throws -> Int64? {
        guard cell.bytes != nil else { return nil }
        return try cell.decode(Int64.self)
    }
}

/// A moment as `timestamptz` holds it: whole microseconds since 2000-01-01, rounded, not cut,
/// and read back by exact division, so that a date with no finer part comes back equal.
struct Microseconds: PostgresNonThrowingEncodable {
    /// Microseconds from 2000-01-01 (PostgreSQL's start) to 2001-01-01 (Foundation's).
    static let fromPostgresStart: Int64 = 366 * 86_400 * 1_000_000

    var value: Int64

    init(_ date: Date) {
        let micros = (date.timeIntervalSinceReferenceDate * 1_000_000).rounded()
        value = Int64(max(min(micros, 9.2e18), -9.2e18)) + Self.fromPostgresStart
    }

    static var psqlType: PostgresDataType { .timestamptz }
    static var psqlFormat: PostgresFormat { .binary }

    func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        byteBuffer.writeInteger(value)
    }

    /// The date a `timestamptz` cell holds.
    static func date(_ cell: PostgresCell) throws -> Date {
        guard var bytes = cell.bytes, bytes.readableBytes == 8, let micros = bytes.readInteger(as: Int64.self) else {
            return try cell.decode(Date.self)
        }
        return Date(timeIntervalSinceReferenceDate: Double(micros - fromPostgresStart) / 1_000_000)
    }
}
