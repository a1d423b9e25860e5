import ArgumentParser
import Foundation
import ObjectModel
import TermDataResources

/// `termdata model PATH [--format text|json]`
struct ModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Summarise an Xcode model (.xcdatamodeld or .xcdatamodel)."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: "The .xcdatamodeld bundle or .xcdatamodel folder; ToDo names the bundled ToDo model.")
    var path: String

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    func run() throws {
        // As --model does elsewhere: the bundled model by name, unless a file has that name.
        let url = path.lowercased() == "todo" && !FileManager.default.fileExists(atPath: path)
            ? BundledResources.toDoModelURL : URL(fileURLWithPath: path)
        let versions = try Self.load(url)
        let summary = ModelSummary(versions)
        switch format {
        case .text: print(summary.text, terminator: "")
        case .json: print(try summary.json(), terminator: "")
        }
    }

    static func load(_ url: URL) throws -> ModelVersions {
        do {
            return try XcodeModelFile.read(url)
        } catch let error as ModelError {
            throw CommandFailure(error)
        }
    }
}
