import Foundation
import ObjectGraph
import ObjectModel
import Predicates
import TerminalBindings
import TerminalUI

/// A value shown whole, as lines for a `TextViewer`: text with its line breaks, JSON
/// pretty-printed, binary data as hex with its length (an image by its format and size, a
/// property list or keyed archive as an outline), nil apart from an empty string.
///
/// ```swift
/// app.show(TextViewer(title: "notes", lines: ValueInspector.lines(for: value)))
/// ```
public enum ValueInspector {
    /// The most bytes shown as hex; the rest are counted.
    public static let hexLimit = 4_096

    public static func lines(for value: ObjectValue) -> [TextViewer.Line] {
        switch value {
        case .null:
            return [TextViewer.Line("nil: no value (not an empty string)", kind: .note)]
        case .string(let s):
            return textLines(s)
        case .data(let d):
            return dataLines(d)
        case .date(let d):
            return [
                TextViewer.Line(dateText(d)),
                TextViewer.Line("\(d.timeIntervalSinceReferenceDate) seconds since 2001-01-01 00:00:00 UTC, as Core Data stores it",
                                kind: .note),
            ]
        case .bool(let b):
            return [TextViewer.Line(b ? "YES (true)" : "NO (false)")]
        case .int(let i):
            return [TextViewer.Line(String(i))]
        case .double(let d):
            return [TextViewer.Line(String(d))]
        case .decimal(let d):
            return [TextViewer.Line(NSDecimalNumber(decimal: d).stringValue)]
        case .uuid(let u):
            return [TextViewer.Line(u.uuidString)]
        case .url(let u):
            return [TextViewer.Line(u.absoluteString)]
        case .array(let items), .set(let items):
            var lines = [TextViewer.Line(ArchiveOutline.count(items.count, "item"), kind: .heading)]
            for (i, item) in items.prefix(ArchiveOutline.maximumElements).enumerated() {
                lines.append(TextViewer.Line("[\(i)] " + inline(item)))
            }
            return lines
        case .dictionary(let entries):
            var lines = [TextViewer.Line(ArchiveOutline.count(entries.count, "entry", "entries"), kind: .heading)]
            for (key, item) in entries.sorted(by: { $0.key < $1.key }).prefix(ArchiveOutline.maximumElements) {
                lines.append(TextViewer.Line(ArchiveOutline.quoted(key) + ": " + inline(item)))
            }
            return lines
        case .object(let o):
            guard let object = o as? ManagedObject else { return [TextViewer.Line("\(o.identity)")] }
            return [TextViewer.Line(object.entity.name + " " + ArchiveOutline.quoted(CellValue.displayName(object))),
                    TextViewer.Line(object.objectID.uriRepresentation.absoluteString, kind: .note)]
        }
    }

    /// One value on one line, inside a collection.
    private static func inline(_ value: ObjectValue) -> String {
        switch value {
        case .string(let s): return ArchiveOutline.quoted(s)
        case .null: return "nil"
        case .data(let d): return "data, " + ArchiveOutline.count(d.count, "byte")
        default: return lines(for: value).first?.text ?? ""
        }
    }

    /// A date in UTC and, where that differs, the machine's own time zone.
    public static func dateText(_ date: Date) -> String {
        let utc = ISO8601DateFormatter()
        utc.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let local = ISO8601DateFormatter()
        local.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        local.timeZone = .current
        let u = utc.string(from: date), l = local.string(from: date)
        return u == l ? u : "\(u) (\(l) here)"
    }

    // MARK: Text

    static func textLines(_ text: String) -> [TextViewer.Line] {
        guard !text.isEmpty else { return [TextViewer.Line("\"\": an empty string (not nil)", kind: .note)] }
        let rows = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }.map(String.init)
        let characters = ArchiveOutline.count(text.count, "character")
        if let pretty = prettyJSON(Data(text.utf8)) {
            return [TextViewer.Line("JSON, pretty-printed (the text has \(characters))", kind: .heading)]
                + pretty.map { TextViewer.Line($0) }
        }
        // A property list kept as text reads as its outline; one that does not parse, as text.
        if XMLPropertyList.looksLikeOne(Data(text.utf8)), let outline = try? ArchiveOutline.lines(of: Data(text.utf8)) {
            return [TextViewer.Line("Text, \(characters)", kind: .heading)] + outline
        }
        var heading = "Text, \(characters)"
        if rows.count > 1 { heading += " on " + ArchiveOutline.count(rows.count, "line") }
        if text.first?.isWhitespace == true || text.last?.isWhitespace == true { heading += "; it begins or ends with spaces" }
        // A text of megabytes shows its beginning: the pane stays quick, the count says what is left.
        var shown: [TextViewer.Line] = []
        var budget = textLimit
        for row in rows {
            guard budget > 0 else { break }
            let part = row.count > budget ? String(row.prefix(budget)) : row
            budget -= part.count + 1
            shown.append(TextViewer.Line(part))
        }
        var lines = [TextViewer.Line(heading, kind: .heading)] + shown
        if budget <= 0, text.count > textLimit {
            lines.append(TextViewer.Line("… the text goes on: \(ArchiveOutline.count(text.count - textLimit, "more character")) not shown",
                                         kind: .note))
        }
        return lines
    }

    /// The most characters of a text shown.
    public static let textLimit = 1_000_000

    /// JSON text (an object or an array) pretty-printed, keys in order; nil when it is not JSON.
    static func prettyJSON(_ data: Data) -> [String]? {
        guard let first = data.first(where: { !" \t\r\n".utf8.contains($0) }), first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
              let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
              let pretty = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]),
              let text = String(data: pretty, encoding: .utf8) else { return nil }
        return text.components(separatedBy: "\n")
    }

    // MARK: Data

    static func dataLines(_ data: Data) -> [TextViewer.Line] {
        var lines = [TextViewer.Line("Binary data, \(ArchiveOutline.count(data.count, "byte"))", kind: .heading)]
        if BinaryPropertyList.looksLikeOne(data) || XMLPropertyList.looksLikeOne(data) {
            do {
                return lines + (try ArchiveOutline.lines(of: data))
            } catch {
                let kind = BinaryPropertyList.looksLikeOne(data) ? "binary" : "XML"
                lines.append(TextViewer.Line("A\(kind == "XML" ? "n" : "") \(kind) property list that cannot be read: \(error)", kind: .note))
            }
        } else if let image = ImageFacts(data) {
            lines.append(TextViewer.Line(image.description, kind: .heading))
        } else if let pretty = prettyJSON(data) {
            return lines + [TextViewer.Line("JSON, pretty-printed", kind: .heading)] + pretty.map { TextViewer.Line($0) }
        }
        return lines + hexDump(data)
    }

    /// Sixteen bytes a row: offset, hex, and the bytes as ASCII (`.` for the rest).
    public static func hexDump(_ data: Data) -> [TextViewer.Line] {
        let bytes = [UInt8](data.prefix(hexLimit))
        var lines: [TextViewer.Line] = []
        for start in stride(from: 0, to: bytes.count, by: 16) {
            let row = bytes[start..<min(start + 16, bytes.count)]
            var hex = ""
            for (i, byte) in row.enumerated() {
                hex += String(format: "%02x", byte) + (i == 7 ? "  " : " ")
            }
            hex = hex.padding(toLength: 49, withPad: " ", startingAt: 0)
            let ascii = String(row.map { (0x20..<0x7F).contains($0) ? Character(Unicode.Scalar($0)) : "." })
            lines.append(TextViewer.Line(String(format: "%08x  ", start) + hex + " " + ascii))
        }
        if data.count > bytes.count {
            lines.append(TextViewer.Line("… \(ArchiveOutline.count(data.count - bytes.count, "more byte")) not shown", kind: .note))
        }
        return lines
    }
}

/// An image's format and, where its header says, its size in pixels.
struct ImageFacts: CustomStringConvertible {
    var format: String
    var size: (width: Int, height: Int)?

    init?(_ data: Data) {
        let b = [UInt8](data.prefix(64 * 1024))
        func u16be(_ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
        func u16le(_ i: Int) -> Int { Int(b[i + 1]) << 8 | Int(b[i]) }
        func u32be(_ i: Int) -> Int { u16be(i) << 16 | u16be(i + 2) }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            format = "PNG"
            if b.count >= 24, Array(b[12..<16]) == Array("IHDR".utf8) { size = (u32be(16), u32be(20)) }
        } else if b.starts(with: Array("GIF87a".utf8)) || b.starts(with: Array("GIF89a".utf8)) {
            format = "GIF"
            if b.count >= 10 { size = (u16le(6), u16le(8)) }
        } else if b.starts(with: [0xFF, 0xD8, 0xFF]) {
            format = "JPEG"
            // The frame header (SOF0–SOF15, not DHT, JPG or DAC) holds height, then width.
            var i = 2
            while i + 9 < b.count, b[i] == 0xFF {
                let marker = b[i + 1]
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                    size = (u16be(i + 7), u16be(i + 5))
                    break
                }
                i += 2 + u16be(i + 2)
            }
        } else if b.count >= 12, b.starts(with: Array("RIFF".utf8)), Array(b[8..<12]) == Array("WEBP".utf8) {
            format = "WebP"
        } else if b.starts(with: [0x49, 0x49, 0x2A, 0x00]) || b.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
            format = "TIFF"
        } else if b.count >= 12, Array(b[4..<8]) == Array("ftyp".utf8),
                  ["heic", "heix", "mif1", "msf1", "avif"].contains(String(decoding: b[8..<12], as: UTF8.self)) {
            format = String(decoding: b[8..<12], as: UTF8.self) == "avif" ? "AVIF" : "HEIF"
        } else {
            return nil
        }
    }

    var description: String {
        "\(format) image" + (size.map { ", \($0.width) × \($0.height) pixels" } ?? "")
    }
}
