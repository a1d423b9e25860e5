import ArgumentParser
import Foundation
import ObjectGraph

/// A store type as the command line names it.
enum StoreKind: String, ExpressibleByArgument, CaseIterable {
    case sqlite, xml, binary

    /// The type a file's extension suggests: `.xml` is XML, `.sqlite`, `.db` and `.sqlite3` are
    /// SQLite, anything else binary.
    init(inferringFrom url: URL, default fallback: StoreKind = .binary) {
        switch url.pathExtension.lowercased() {
        case "xml": self = .xml
        case "sqlite", "sqlite3", "db": self = .sqlite
        case "plist", "binary", "bin": self = .binary
        default: self = fallback
        }
    }

    var storeType: StoreType {
        switch self {
        case .sqlite: return .sqlite
        case .xml: return .xml
        case .binary: return .binary
        }
    }
}
