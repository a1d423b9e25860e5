import Foundation

/// Runs the built `termdata` executable, as a user would from a shell.
public enum TermDataProcess {
    /// What a run printed and how it ended.
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// The `termdata` binary beside the test bundle.
    public static var executable: URL {
        Fixtures.builtExecutable(named: "termdata") ?? Fixtures.packageRoot.appendingPathComponent(".build/debug/termdata")
    }

    /// Runs `termdata` (or another `executable`, such as `runuser` in front of it) with
    /// arguments; `environment` entries are added to this process's. With `standardOutput`,
    /// the output goes there instead of into the result.
    public static func run(_ arguments: [String], environment: [String: String] = [:], input: String? = nil,
                           currentDirectory: URL? = nil, executable: URL = executable,
                           standardOutput: FileHandle? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let out = Pipe(), err = Pipe(), inPipe = Pipe()
        process.standardOutput = standardOutput ?? out
        process.standardError = err
        process.standardInput = inPipe
        try process.run()
        if standardOutput != nil { try? out.fileHandleForWriting.close() }
        if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try? inPipe.fileHandleForWriting.close()
        // Standard error is read beside standard output: read one after the other, a
        // process that fills the second pipe first waits forever.
        let errors = ErrorOutput()
        let readingErrors = DispatchGroup()
        DispatchQueue.global().async(group: readingErrors) { errors.data = err.fileHandleForReading.readDataToEndOfFile() }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        readingErrors.wait()
        let stderr = errors.data
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}

/// What a process wrote to standard error, filled on another thread and read after it is done.
private final class ErrorOutput: @unchecked Sendable {
    var data = Data()
}
