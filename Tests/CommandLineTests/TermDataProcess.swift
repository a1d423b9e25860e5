import Foundation
import TestSupport

/// The built `termdata` binary run as a subprocess, with `XDG_DATA_HOME` in a temporary folder.
struct TermDataProcess {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    let dataHome: URL
    let directory: URL

    init() throws {
        directory = try Fixtures.temporaryDirectory("cli")
        dataHome = directory.appendingPathComponent("xdg")
    }

    /// The `termdata` executable beside the test bundle, or in `.build/debug`.
    static var executable: URL {
        let bundle = Bundle.main.bundleURL
        let candidates = [
            bundle.appendingPathComponent("termdata"),
            bundle.deletingLastPathComponent().appendingPathComponent("termdata"),
            Fixtures.packageRoot.appendingPathComponent(".build/debug/termdata"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates.last!
    }

    func file(_ name: String) -> URL { directory.appendingPathComponent(name) }

    func write(_ text: String, to name: String) throws -> String {
        try Data(text.utf8).write(to: file(name))
        return file(name).path
    }

    @discardableResult
    func run(_ arguments: [String]) throws -> Output {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = dataHome.path
        process.environment = environment
        process.currentDirectoryURL = directory
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}
