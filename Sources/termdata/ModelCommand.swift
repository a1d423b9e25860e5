import ArgumentParser
import Foundation
import ObjectModel

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
        let versions = try Self.load(StoreArguments.modelURL(path))
        let summary = ModelSummary(versions)
        switch format {
        case .text: try StandardOutput.write(summary.text)
        case .json: try StandardOutput.write(try summary.json())
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
