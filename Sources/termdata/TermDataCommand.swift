import ArgumentParser
import Foundation
import ObjectModel
import TermDataResources

@main
struct TermDataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "termdata",
        abstract: "Core Data for Linux: models, stores and a terminal ToDo application.",
        discussion: "With no subcommand, prints the bundled ToDo model's summary.",
        subcommands: [ModelCommand.self, QueryCommand.self, ImportCommand.self, ExportCommand.self]
    )

    func run() throws {
        let versions = try ModelCommand.load(BundledResources.toDoModelURL)
        print(ModelSummary(versions).text, terminator: "")
    }
}

/// A failure the command line reports as one line on standard error, with a non-zero exit.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
    init(_ error: Error) { self.description = String(describing: error) }
}
