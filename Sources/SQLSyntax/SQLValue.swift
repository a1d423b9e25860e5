import Foundation

/// A value bound to a statement's placeholder: the storage classes every SQL engine knows.
///
/// Values never enter SQL text; a dialect renders each as a placeholder and hands the
/// value to the engine beside the text.
///
/// ```swift
/// let condition = SQLExpression.column("ZNAME", of: "t0") == .value(.text("Home"))
/// ```
public enum SQLValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
    /// A moment, for engines with a type of their own for it (SQLite stores seconds since 2001).
    case date(Date)
    /// An exact decimal number, for engines with a type of their own for it.
    case decimal(Decimal)
    /// A UUID, for engines with a type of their own for it.
    case uuid(UUID)
}

extension SQLValue: CustomStringConvertible {
    /// The value as a test or a log shows it: numbers plain, text quoted.
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let n): return String(n)
        case .real(let d): return String(d)
        case .text(let s): return "\"\(s)\""
        case .blob(let d): return "<\(d.count) bytes>"
        case .date(let d): return d.ISO8601Format(.iso8601.year().month().day().time(includingFractionalSeconds: true))
        case .decimal(let d): return "\(d)"
        case .uuid(let u): return u.uuidString
        }
    }
}
