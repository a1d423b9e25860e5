import Foundation

/// Reads an XML property list (`<plist version="1.0">`, as Apple's tools and Foundation's
/// `PropertyListSerialization` and keyed archiver write it) into the values a binary one
/// reads into. A keyed archive's references (`<dict><key>CF$UID</key><integer>3</integer></dict>`)
/// become `.uid` values. Apple's own document type line is skipped; any other document type,
/// which could declare entities that expand without end or read other files, is refused.
///
/// ```swift
/// if XMLPropertyList.looksLikeOne(data) { let top = try XMLPropertyList.read(data) }
/// ```
public enum XMLPropertyList {
    /// Why the bytes are not a readable XML property list, with the line where that shows.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong, in words, such as "a <plist> holds one value, not 2".
        public var message: String
        /// The line where the problem shows, counted from 1; nil when none can be given.
        public var line: Int?
        /// The problem as one line, after the line where it shows when there is one.
        public var description: String { line.map { "line \($0): \(message)" } ?? message }
    }

    /// Whether the bytes start as an XML property list does: an XML declaration, a document
    /// type or the `<plist` element, with `<plist` among the first bytes.
    public static func looksLikeOne(_ data: Data) -> Bool {
        let head = data.prefix(512).drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        return head.starts(with: Array("<?xml".utf8)) || head.starts(with: Array("<!DOCTYPE plist".utf8)) || head.starts(with: Array("<plist".utf8))
            ? head.firstRange(of: Data("<plist".utf8)) != nil : false
    }

    /// The property list's top value.
    public static func read(_ data: Data) throws -> PropertyListValue {
        let tree: XMLTree
        do {
            tree = try XMLTree.parse(try withoutDocumentType(data), file: "the property list")
        } catch let error as ModelError {
            guard case .malformedXML(let reason) = error.kind else { throw error }
            throw Problem(message: reason, line: error.line)
        }
        guard tree.name == "plist" else { throw Problem(message: "the document is a <\(tree.name)>, not a <plist>", line: tree.line) }
        guard let top = tree.children.first, tree.children.count == 1 else {
            throw Problem(message: "a <plist> holds one value, not \(tree.children.count)", line: tree.line)
        }
        return try value(top)
    }

    /// The data with Apple's document type line blanked (its newlines kept, so lines count
    /// as in the file); a document type with declarations of its own is refused.
    private static func withoutDocumentType(_ data: Data) throws -> Data {
        guard let start = data.firstRange(of: Data("<!DOCTYPE".utf8)) else { return data }
        guard let end = data[start.upperBound...].firstIndex(of: UInt8(ascii: ">")) else {
            throw Problem(message: "the document type is not closed", line: nil)
        }
        let line = data[..<start.lowerBound].filter { $0 == 0x0A }.count + 1
        if data[start.upperBound..<end].contains(UInt8(ascii: "[")) {
            throw Problem(message: "a document type with declarations of its own, which property lists never have", line: line)
        }
        var bytes = data
        for i in start.lowerBound...end where bytes[i] != 0x0A { bytes[i] = 0x20 }
        return bytes
    }

    private static func value(_ element: XMLTree) throws -> PropertyListValue {
        let text = element.text
        func problem(_ message: String) -> Problem { Problem(message: message, line: element.line) }
        switch element.name {
        case "string": return .string(text)
        case "integer":
            guard let n = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { throw problem("<integer>\(text)</integer> is no integer") }
            return .int(n)
        case "real":
            guard let d = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { throw problem("<real>\(text)</real> is no number") }
            return .real(d)
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "date":
            guard let date = ISO8601DateFormatter().date(from: text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw problem("<date>\(text)</date> is no date (2026-11-29T07:00:00Z)")
            }
            return .date(date)
        case "data":
            let base64 = text.filter { !$0.isWhitespace }
            guard let data = Data(base64Encoded: base64) else { throw problem("<data> holds no base 64") }
            return .data(data)
        case "array": return .array(try element.children.map(value))
        case "dict":
            guard element.children.count % 2 == 0 else { throw problem("a <dict> whose keys and values do not pair up") }
            var entries: [String: PropertyListValue] = [:]
            for i in stride(from: 0, to: element.children.count, by: 2) {
                let key = element.children[i]
                guard key.name == "key" else { throw Problem(message: "a <\(key.name)> where a <dict> has a <key>", line: key.line) }
                entries[key.text] = try value(element.children[i + 1])
            }
            // A keyed archive's reference to another of its objects.
            if entries.count == 1, let uid = entries["CF$UID"]?.int { return .uid(uid) }
            return .dictionary(entries)
        default:
            throw problem("<\(element.name)> is no property list value")
        }
    }
}
