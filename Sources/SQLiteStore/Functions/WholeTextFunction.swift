import Foundation
import GRDB
import GRDBSQLite

/// A deterministic SQL function registered through the C API so that its text arguments
/// arrive whole. GRDB's `DatabaseFunction` reads text as a C string, which ends at the first
/// NUL: `name CONTAINS[c] 'b'` in SQL would miss a name `"a\0b"` that memory evaluation finds.
/// Here text is read by its byte length.
final class WholeTextFunction: Sendable {
    /// What the function gives back: text, a truth value, or NULL.
    enum Result {
        case text(String)
        case bool(Bool)
        case null
    }

    let name: String
    let argumentCount: Int32
    let body: @Sendable ([DatabaseValue]) throws -> Result

    init(_ name: String, argumentCount: Int32, body: @escaping @Sendable ([DatabaseValue]) throws -> Result) {
        self.name = name
        self.argumentCount = argumentCount
        self.body = body
    }

    /// Adds the function to a connection; it lives as long as the connection.
    func register(in db: Database) {
        let definition = Unmanaged.passRetained(self).toOpaque()
        let code = sqlite3_create_function_v2(
            db.sqliteConnection, name, argumentCount, SQLITE_UTF8 | SQLITE_DETERMINISTIC, definition,
            { context, count, values in
                let function = Unmanaged<WholeTextFunction>.fromOpaque(sqlite3_user_data(context)!).takeUnretainedValue()
                let arguments = (0..<Int(count)).map { WholeTextFunction.value(values![$0]!) }
                do {
                    switch try function.body(arguments) {
                    case .text(let text):
                        var text = text
                        text.withUTF8 { bytes in
                            // By length, so that a NUL in the result is kept too.
                            if let base = bytes.baseAddress {
                                sqlite3_result_text(context, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                                                    Int32(bytes.count), WholeTextFunction.transient)
                            } else {
                                sqlite3_result_text(context, "", 0, WholeTextFunction.transient)
                            }
                        }
                    case .bool(let truth):
                        sqlite3_result_int(context, truth ? 1 : 0)
                    case .null:
                        sqlite3_result_null(context)
                    }
                } catch {
                    sqlite3_result_error(context, "\(error)", -1)
                }
            },
            nil, nil,
            { definition in Unmanaged<WholeTextFunction>.fromOpaque(definition!).release() })
        precondition(code == SQLITE_OK, "cannot register SQL function \(name): \(code)")
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// An argument as a database value, text taken by its length rather than up to a NUL.
    private static func value(_ value: OpaquePointer) -> DatabaseValue {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER:
            return sqlite3_value_int64(value).databaseValue
        case SQLITE_FLOAT:
            return sqlite3_value_double(value).databaseValue
        case SQLITE_TEXT:
            // The text pointer first, then its length (the order SQLite documents).
            guard let text = sqlite3_value_text(value) else { return "".databaseValue }
            let count = Int(sqlite3_value_bytes(value))
            return String(decoding: UnsafeRawBufferPointer(start: text, count: count), as: UTF8.self).databaseValue
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            guard let bytes = sqlite3_value_blob(value), count > 0 else { return Data().databaseValue }
            return Data(bytes: bytes, count: count).databaseValue
        default:
            return .null
        }
    }
}
