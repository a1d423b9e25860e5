import Foundation
import GRDB
import ObjectGraph
import ObjectModel
import Predicates
import SQLSyntax

/// How attribute values are stored in SQLite, as Core Data stores them: integers and
/// booleans as INTEGER, dates as REAL seconds since 2001-01-01, floating point and
/// decimals as REAL, strings and URIs as TEXT, binary data and UUIDs as BLOB.
enum DatabaseValueCoding {
    /// The value to bind for an attribute value; `nil` for no value.
    static func databaseValue(_ value: ObjectValue) -> DatabaseValue {
        sqlValue(value).databaseValue
    }

    /// The value an SQL statement binds for an attribute value.
    static func sqlValue(_ value: ObjectValue) -> SQLValue {
        switch value {
        case .null: return .null
        case .bool(let b): return .integer(b ? 1 : 0)
        case .int(let i): return .integer(Int64(i))
        case .double(let d): return .real(d)
        case .decimal(let d): return .real(NSDecimalNumber(decimal: d).doubleValue)
        case .string(let s): return .text(s)
        case .date(let d): return .real(d.timeIntervalSinceReferenceDate)
        case .data(let d): return .blob(d)
        case .uuid(let u): return .blob(withUnsafeBytes(of: u.uuid) { Data($0) })
        case .url(let u): return .text(u.absoluteString)
        case .object:
            return value.objectID?.primaryKey.map(SQLValue.integer) ?? .null
        case .array, .set, .dictionary: return .null
        }
    }

    /// The attribute value a stored value stands for, as the attribute's type wants it.
    static func objectValue(_ value: DatabaseValue, type: AttributeType) -> ObjectValue {
        switch value.storage {
        case .null: return .null
        case .int64(let i):
            switch type {
            case .boolean: return .bool(i != 0)
            case .double, .float: return .double(Double(i))
            case .decimal: return .decimal(Decimal(i))
            case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(i)))
            case .string, .uri: return .string(String(i))
            default: return .int(Int(i))
            }
        case .double(let d):
            switch type {
            // Another writer's REAL in an integer column: a whole number within Int's range
            // reads as it; any other (a fraction kept as Core Data drops it, 1e300, NaN) stays
            // the number it is rather than trapping in the conversion.
            case .integer16, .integer32, .integer64:
                guard d.isFinite, let i = Int(exactly: d.rounded(.towardZero)) else { return .double(d) }
                return .int(i)
            case .boolean: return .bool(d != 0)
            case .date: return .date(Date(timeIntervalSinceReferenceDate: d))
            case .decimal:
                guard d.isFinite else { return .double(d) }
                return .decimal(Decimal(string: "\(d)", locale: Locale(identifier: "en_US_POSIX")) ?? Decimal(d))
            case .string, .uri: return .string("\(d)")
            default: return .double(d)
            }
        case .string(let s):
            switch type {
            case .uri: return URL(string: s).map(ObjectValue.url) ?? .string(s)
            case .uuid: return UUID(uuidString: s).map(ObjectValue.uuid) ?? .string(s)
            case .date: return Double(s).map { .date(Date(timeIntervalSinceReferenceDate: $0)) } ?? .string(s)
            case .integer16, .integer32, .integer64: return Int(s).map(ObjectValue.int) ?? .string(s)
            case .double, .float: return Double(s).map(ObjectValue.double) ?? .string(s)
            case .decimal: return Decimal(string: s, locale: Locale(identifier: "en_US_POSIX")).map(ObjectValue.decimal) ?? .string(s)
            case .binary, .transformable: return .data(Data(s.utf8))
            default: return .string(s)
            }
        case .blob(let d):
            if type == .uuid, d.count == 16 {
                let b = [UInt8](d)
                return .uuid(UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                                         b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])))
            }
            if type == .string { return .string(String(decoding: d, as: UTF8.self)) }
            return .data(d)
        }
    }

    /// A stored value seen as a predicate value, with no attribute type to guide it.
    static func plainValue(_ value: DatabaseValue) -> ObjectValue {
        switch value.storage {
        case .null: return .null
        case .int64(let i): return .int(Int(i))
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .blob(let d): return .data(d)
        }
    }
}

extension SQLValue {
    /// The value as GRDB binds it.
    var databaseValue: DatabaseValue {
        switch self {
        case .null: return .null
        case .integer(let n): return n.databaseValue
        case .real(let d): return d.databaseValue
        case .text(let s): return s.databaseValue
        case .blob(let d): return d.databaseValue
        case .date(let d): return d.timeIntervalSinceReferenceDate.databaseValue
        case .decimal(let d): return NSDecimalNumber(decimal: d).doubleValue.databaseValue
        case .uuid(let u): return withUnsafeBytes(of: u.uuid) { Data($0) }.databaseValue
        }
    }
}

extension RenderedSQL {
    /// The bound values as GRDB takes them.
    var statementArguments: StatementArguments { StatementArguments(arguments.map(\.databaseValue)) }
}

extension SQLStatement {
    /// The statement as SQLite text, for a prepared statement whose values are bound when it runs.
    var sqlite: String { SQLiteStore.dialect.render(self).sql }
}

extension SQLSelect {
    /// The query as SQLite text, for a prepared statement whose values are bound when it runs.
    var sqlite: String { SQLiteStore.dialect.render(self).sql }
}
