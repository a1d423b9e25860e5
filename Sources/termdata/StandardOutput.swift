import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output, checked and buffered: what a command prints goes through here.
///
/// `print` drops the errors of the writes behind it: a full disk, or a closed pipe where
/// SIGPIPE is ignored (as some parent processes leave it), ended a command with status 0
/// and half its output. A refused write here throws, so the command exits non-zero with
/// the reason.
///
/// ```swift
/// var output = StandardOutput()
/// for line in lines { try output.line(line) }
/// try output.flush()
/// ```
struct StandardOutput {
    private var buffer = Data()
    /// Output is written in pieces of this size, so a long export holds little of it.
    private static let pieceSize = 1 << 16

    /// Appends `text` and a line break.
    mutating func line(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
        if buffer.count >= Self.pieceSize { try flush() }
    }

    /// Appends `text` as it is.
    mutating func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.pieceSize { try flush() }
    }

    /// Writes what is buffered.
    ///
    /// - Throws: `CommandFailure` naming the reason the system gave.
    mutating func flush() throws {
        try buffer.withUnsafeBytes { try Self.writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Bytes made elsewhere (a piece of a JSON document), written as they are.
    static func write(bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try writeAll($0) }
    }

    /// Bytes made whole elsewhere (a JSON document), and a line break, written as they are.
    static func line(bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try writeAll($0) }
        try write("\n")
    }

    private static func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        var written = 0
        while written < bytes.count {
            let n = writeToStandardOutput(bytes.baseAddress! + written, bytes.count - written)
            if n < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                throw CommandFailure("could not write the output (\(reason)); what was written is incomplete")
            }
            written += n
        }
    }

    /// One line, written at once.
    static func line(_ text: String) throws {
        try write(text + "\n")
    }

    /// Text as it is, written at once.
    static func write(_ text: String) throws {
        var output = StandardOutput()
        try output.write(text)
        try output.flush()
    }

}

/// write(2) on standard output (a free function: `StandardOutput.write` hides the C name).
private func writeToStandardOutput(_ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(STDOUT_FILENO, bytes, count)
}
