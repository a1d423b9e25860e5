import Foundation
import Testing
import TestSupport

/// Runs of the built `termdata` that share a temporary folder as their working directory
/// and their `XDG_DATA_HOME`, so the default ToDo store is private to the test.
struct CommandLineSession {
    let dataHome: URL
    let directory: URL

    init() throws {
        directory = try Fixtures.temporaryDirectory("cli")
        dataHome = directory.appendingPathComponent("xdg")
    }

    func file(_ name: String) -> URL { directory.appendingPathComponent(name) }

    func write(_ text: String, to name: String) throws -> String {
        try Data(text.utf8).write(to: file(name))
        return file(name).path
    }

    @discardableResult
    func run(_ arguments: [String]) throws -> TermDataProcess.Result {
        try TermDataProcess.run(arguments, environment: ["XDG_DATA_HOME": dataHome.path], currentDirectory: directory)
    }

    /// Imports a graph file that must be refused (with `arguments` before the file, such as
    /// `--store` and `--model`); returns what the command printed on standard error.
    func refusedImport(_ json: String, arguments: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try run(["import"] + arguments + [try write(json, to: "refused.json")])
        #expect(result.status != 0, "the import was not refused", sourceLocation: sourceLocation)
        return result.stderr
    }
}
