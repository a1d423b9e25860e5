import ArgumentParser
import Foundation
import ModelCodegen

/// `termdata port PATH [--write]`: the edits Core Data code written for Apple's systems needs
/// to compile on Linux against the `CoreData` module, as a diff or made in place.
struct PortCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "port",
        abstract: "Show (or make, with --write) the edits that let Core Data code compile on Linux.",
        discussion: """
            Reads every .swift file under PATH (hidden folders such as .build are passed over) and \
            prints the edits as a unified diff, which git apply or patch -p1 takes: @NSManaged becomes \
            @Managed (@ManagedAccessor on Xcode's to-many accessors), @objc attributes go, \
            #keyPath(Item.title) becomes "title", #selector(NSString.compare(_:)) becomes \
            Selector("compare:"), a Swift key path given to NSSortDescriptor or NSExpression becomes \
            its key, and import Foundation goes beside import CoreData. What has no rule is listed \
            on standard error with its line. Comments and string literals are never edited, and \
            porting ported code finds nothing more to do. docs/Porting.md has the whole guide.
            """
    )

    @Argument(help: "A folder of Swift sources (a package, an app's data layer) or one Swift file.")
    var path: String

    @Flag(help: "Make the edits in the files instead of printing them.")
    var write = false

    func run() throws {
        let sources = try CommandFailure.rethrowing { try PortedSource.sources(at: URL(fileURLWithPath: path)) }
        let changed = sources.filter { !$0.port.isUnchanged }
        if write {
            for source in changed {
                try CommandFailure.rethrowing { try source.write() }
                let count = source.port.edits.count
                try StandardOutput.line(TerminalText.safe("ported \(source.path): \(count) edit\(count == 1 ? "" : "s")"))
            }
        } else {
            // A diff piped to git apply must be the source as it is; on a terminal, nothing in a
            // file may act as a control.
            let onTerminal = isatty(STDOUT_FILENO) == 1
            for source in changed {
                let diff = source.port.diff(path: source.path)
                try StandardOutput.write(onTerminal ? TerminalText.safe(diff) : diff)
            }
        }
        var report = ""
        for source in sources {
            for note in source.port.notes { report += "\(source.path):\(note.line):\(note.column): note: \(note.message)\n" }
        }
        let edits = changed.reduce(0) { $0 + $1.port.edits.count }
        let notes = sources.reduce(0) { $0 + $1.port.notes.count }
        report += "\(edits) edit\(edits == 1 ? "" : "s") in \(changed.count) of \(sources.count) Swift file\(sources.count == 1 ? "" : "s")"
        report += notes == 0 ? "" : "; \(notes) place\(notes == 1 ? "" : "s") to change by hand, listed above"
        report += write || edits == 0 ? "\n" : "; --write makes the edits\n"
        FileHandle.standardError.write(Data(TerminalText.safe(report).utf8))
    }
}
