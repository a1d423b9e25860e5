import Foundation
import ObjectGraph

/// A store type as people name it (`sqlite`, `xml`, `binary`), found from a file's first
/// bytes or its extension.
///
/// ```swift
/// StoreKind(inferringFrom: URL(fileURLWithPath: "list.xml")).storeType   // .xml
/// ```
public enum StoreKind: String, CaseIterable, Sendable {
    /// A SQLite store, an XML store or a binary store, each named here as the command line takes it.
    case sqlite, xml, binary

    /// The type of an existing file by its first bytes; otherwise the type its extension
    /// suggests: `.xml` is XML, `.sqlite`, `.db` and `.sqlite3` are SQLite, anything else the
    /// fallback.
    public init(inferringFrom url: URL, default fallback: StoreKind = .binary) {
        // An existing file says what it is, whatever its name.
        if let kind = Self.sniff(url) {
            self = kind
            return
        }
        switch url.pathExtension.lowercased() {
        case "xml": self = .xml
        case "sqlite", "sqlite3", "db": self = .sqlite
        case "plist", "binary", "bin": self = .binary
        default: self = fallback
        }
    }

    /// The kind a file's first bytes show: SQLite's header, the binary store's magic, or XML.
    public static func sniff(_ url: URL) -> StoreKind? {
        // Only a regular file is read: a FIFO would wait for a writer.
        guard (try? StoreFiles.checkIsRegularFile(url)) != nil, let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 16), !head.isEmpty else { return nil }
        if head.starts(with: Array("SQLite format 3".utf8)) { return .sqlite }
        if head.starts(with: Array("TDBS".utf8)) { return .binary }
        let text = String(decoding: head, as: UTF8.self).drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" })
        if text.hasPrefix("<") { return .xml }
        return nil
    }

    /// The store type to add a store of this kind with: `.sqlite`, `.xml` or `.binary`.
    public var storeType: StoreType {
        switch self {
        case .sqlite: return .sqlite
        case .xml: return .xml
        case .binary: return .binary
        }
    }
}
