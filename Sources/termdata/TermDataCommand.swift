import ArgumentParser
import Foundation
import Interchange
import ObjectModel
import PostgresStore
import SQLiteStore
import TerminalUI
import TermDataResources
import ToDoApp

@main
struct TermDataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "termdata",
        abstract: "Core Data for Linux: models, stores and a terminal ToDo application.",
        discussion: "With no subcommand, opens the ToDo application.",
        subcommands: [ToDoCommand.self, BrowseCommand.self, ModelCommand.self, QueryCommand.self, ImportCommand.self, ExportCommand.self, CheckCommand.self, DiffCommand.self, MigrateCommand.self, HistoryCommand.self, PortCommand.self],
        defaultSubcommand: ToDoCommand.self
    )

    /// Runs the command the arguments name, then checks that all its output was written.
    static func main() {
        // Every store type the command line opens, registered once for the whole program.
        SQLiteStore.register()
        PostgresStore.register()
        // Every migration policy a mapping bundled with a model here names, so that
        // `termdata migrate` migrates a store exactly as its application does.
        DoNotAlertMigrationPolicy.register()
        do {
            var command = try parseAsRoot()
            try command.run()
            // Anything printed past StandardOutput: a refused write shows as a failed flush.
            if fflush(nil) != 0 { throw CommandFailure("could not write the output (\(String(cString: strerror(errno))))") }
        } catch {
            exit(withError: error)
        }
    }
}

/// A failure the command line reports as one line on standard error, with a non-zero exit:
/// its own words, or a library error's description.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    /// What is said, with any control character from a file or a store written as an escape.
    init(_ description: String) { self.description = TerminalText.safe(description) }
    init(_ error: Error) { self.init(ErrorText.message(for: error, cellWidth: { DisplayWidth.of($0) })) }

    /// Runs `body`, turning any error it throws into a failure with the error's message.
    static func rethrowing<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let failure as CommandFailure { throw failure } catch { throw CommandFailure(error) }
    }
}
