import Foundation
import Interchange
import TerminalUI

/// Rows of values as a plain text table, as `termdata query` prints them: a header, a rule,
/// a line per row with columns measured in terminal cells, and a count.
///
/// ```swift
/// TextTable.lines(header: ["name"], rows: [["name": .string("Ada")]])
/// // ["name", "----", "Ada", "(1 object)"]
/// ```
enum TextTable {
    /// The table's lines; an empty header lists the rows by `@id`.
    static func lines(header columns: [String], rows: [[String: JSONValue]], counting noun: String = "object") -> [String] {
        // An entity without attributes lists its objects by ID rather than as blank lines.
        let header = columns.isEmpty ? ["@id"] : columns
        let cells = rows.map { row in header.map { cell(row[$0] ?? .null) } }
        var widths = header.map(\.displayWidth)
        for line in cells { for (i, c) in line.enumerated() { widths[i] = max(widths[i], c.displayWidth) } }
        func format(_ fields: [String]) -> String {
            // Columns are measured in terminal cells (a CJK character takes two), and only
            // the end of the line is trimmed, so an empty first column keeps its place.
            var line = fields.enumerated().map { i, f in f + String(repeating: " ", count: widths[i] - f.displayWidth) }
                .joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
        return [format(header), format(widths.map { String(repeating: "-", count: $0) })] + cells.map(format)
            + ["(\(rows.count) \(noun)\(rows.count == 1 ? "" : "s"))"]
    }

    /// A value as one table cell: on one line, with control characters written as escapes.
    static func cell(_ value: JSONValue) -> String {
        TerminalText.safe(CSV.text(value), keepsLineBreaks: false)
    }
}
