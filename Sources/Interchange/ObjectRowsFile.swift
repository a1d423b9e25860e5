import Foundation
import ObjectGraph
import Predicates

/// Objects written as rows — each object's URI (`@id`) and the values of chosen key paths —
/// to a CSV or JSON file, as a table shows them. The rows go to a file beside the target as
/// they come, and `finish()` puts it in the target's place: the target is replaced whole, or
/// (after `discard()`, or an error) left as it was.
///
/// ```swift
/// var file = try ObjectRowsFile(path: "people.csv", keys: ["firstName", "cars.@count"])
/// for person in people { try file.write(person) }
/// try file.finish()
/// ```
public struct ObjectRowsFile {
    /// How the rows are written.
    public enum Format: String, Sendable {
        /// CSV with a header line of `@id` and the keys, or a JSON array of one object per row.
        case csv, json

        /// `.json` for a path ending in `.json`, CSV otherwise.
        public init(path: String) {
            self = (path as NSString).pathExtension.lowercased() == "json" ? .json : .csv
        }
    }

    /// The target: the file the rows take the place of at `finish()`.
    public let path: String
    /// Whether the rows are written as CSV or JSON.
    public let format: Format
    /// The key paths whose values follow each row's `@id`, in column order.
    public let keys: [String]
    /// How many rows were written.
    public private(set) var count = 0
    private let partial: String
    private let handle: FileHandle
    private var buffer: [UInt8] = []

    /// Starts the rows file, written beside `path` until `finish()`; in CSV, writes the header.
    ///
    /// - Parameter path: the target file, which the rows take the place of at `finish()`.
    /// - Parameter format: CSV or JSON; when nil, taken from the path's extension.
    /// - Parameter keys: the key paths whose values follow each row's `@id`, in column order.
    /// - Throws: `ObjectRowsFileError` when no file can be created beside the target.
    public init(path: String, format: Format? = nil, keys: [String]) throws {
        self.path = path
        self.format = format ?? Format(path: path)
        self.keys = keys
        let url = URL(fileURLWithPath: path)
        partial = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).partial").path
        guard FileManager.default.createFile(atPath: partial, contents: nil),
              let handle = FileHandle(forWritingAtPath: partial) else {
            throw ObjectRowsFileError(path: path, reason: "cannot create a file in \(url.deletingLastPathComponent().path)")
        }
        self.handle = handle
        switch self.format {
        case .csv: append(CSV.line(["@id"] + keys) + "\n")
        case .json: append("[")
        }
    }

    /// Writes one object's row.
    public mutating func write(_ object: ManagedObject) throws {
        var values: [JSONValue] = [.string(object.objectID.uriRepresentation.absoluteString)]
        for key in keys { values.append(JSONValue.from(try object.value(forKeyPath: key))) }
        switch format {
        case .csv:
            append(CSV.line(values) + "\n")
        case .json:
            var row: [String: JSONValue] = [:]
            for (key, value) in zip(["@id"] + keys, values) { row[key] = value }
            append(count == 0 ? "\n  " : ",\n  ")
            buffer += try JSONValue.bytes(.object(row), pretty: false)
        }
        count += 1
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Ends the file and puts it in the target's place.
    public mutating func finish() throws {
        do {
            if format == .json { append(count == 0 ? "]\n" : "\n]\n") }
            try flush()
            try handle.close()
            // One step: a reader sees the old file or the new one, never part of it.
            guard rename(partial, path) == 0 else {
                throw ObjectRowsFileError(path: path, reason: String(cString: strerror(errno)))
            }
        } catch {
            discard()
            throw error
        }
    }

    /// Leaves the target as it was: what was written goes.
    public func discard() {
        try? handle.close()
        try? FileManager.default.removeItem(atPath: partial)
    }

    private mutating func append(_ text: String) { buffer += Array(text.utf8) }

    private mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// A rows file that could not be written, and why.
public struct ObjectRowsFileError: Error, CustomStringConvertible {
    /// The target file that was not written.
    public let path: String
    /// Why, as the system gives it, or that its folder takes no new file.
    public let reason: String
    /// The failure as `cannot write PATH: REASON`.
    public var description: String { "cannot write \(path): \(reason)" }
}
