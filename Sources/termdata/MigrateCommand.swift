import ArgumentParser
import Foundation
import Interchange
import Migration
import ObjectGraph
import ObjectModel
import SQLiteStore

/// `termdata migrate --store PATH --model MODEL.xcdatamodeld [--mapping FILE]... [--dry-run]`
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Migrate a store to the current version of its model.",
        discussion: """
            Finds the model version the store was written with, then migrates it step by step to \
            the current version, inferring each step's mapping unless a --mapping file gives it \
            or a mapping bundled beside the model does (*.termdata-mapping naming the model, or an \
            Xcode *.xcmappingmodel between two of its versions). \
            The original is kept beside the store with .backup added. A store whose version is \
            not among the model's versions is refused and left untouched.
            """
    )

    @OptionGroup var storeArguments: StoreArguments

    @Option(name: .customLong("mapping"), help: "A mapping: a termdata-mapping file, an Xcode .xcmappingmodel, or a compiled .cdm; repeat for several steps.")
    var mappings: [String] = []

    @Flag(help: "Report the plan and change nothing.")
    var dryRun = false

    func run() throws {
        let url = storeArguments.storeURL
        let storeType = storeArguments.storeType
        do {
            let (versions, modelFile) = try storeArguments.loadModelFile()
            // A mapping file given here comes before one bundled beside the model.
            let given = try mappings.map { try MappingModel.read(URL(fileURLWithPath: $0)) }
            let bundled = try modelFile.map { try MappingModel.bundled(with: $0) } ?? []
            var migrator = StoreMigrator(versions: versions, mappings: given + bundled)
            let from = try migrator.sourceVersion(forStoreAt: url, type: storeType)
            let steps = try migrator.plan(from: from)
            guard !steps.isEmpty else {
                // At the current version by its metadata: it must also open as such (a store
                // whose entity table lost rows is damaged, which `query` would say).
                _ = try PersistentStoreCoordinator(model: versions.current)
                    .addStore(type: storeType, at: url, options: StoreOptions(readOnly: true))
                try StandardOutput.line("\(storeArguments.storeName) is at the current version (\(versions.currentVersionName)); nothing to do.")
                return
            }
            try StandardOutput.line("\(storeArguments.storeName): version \(from) → \(versions.currentVersionName)")
            for step in steps {
                try StandardOutput.line("  \(step.from) → \(step.to) (\(step.inferred ? "inferred" : "mapping file"))")
                for line in step.changes { try StandardOutput.line("    \(line)") }
            }
            if dryRun {
                try StandardOutput.line("Dry run: nothing changed.")
                return
            }
            let progress = ProgressLine()
            migrator.progress = { fraction, what in progress.update(fraction, what) }
            let started = Date()
            let reports = try migrator.migrateStore(at: url, type: storeType)
            progress.finish()
            let objects = reports.last?.objectCount ?? 0
            let how = reports.allSatisfy(\.inPlace) ? " in place" : ""
            let seconds = Date().timeIntervalSince(started)
            if url.isFileURL {
                try StandardOutput.line(String(format: "Migrated %d objects%@ in %.1f s. The original is at %@.backup.",
                                               objects, how, seconds, url.path))
            } else {
                // A server's DDL is transactional: there is no copy, and nothing half done.
                try StandardOutput.line(String(format: "Migrated %d objects in place in %.1f s, in one transaction.", objects, seconds))
            }
        } catch let error as ModelError {
            throw CommandFailure(error)
        } catch let error as MigrationError {
            throw CommandFailure(error)
        } catch let error as ObjectGraphError {
            throw CommandFailure(error)
        }
    }
}

/// A progress report on standard error: one line rewritten in place on a terminal, a
/// line per tenth otherwise.
final class ProgressLine {
    private let isTerminal = isatty(STDERR_FILENO) != 0
    private var lastTenth = -1

    func update(_ fraction: Double, _ what: String) {
        let percent = Int(fraction * 100)
        if isTerminal {
            FileHandle.standardError.write(Data("\r\u{1B}[K\(percent)% \(what)".utf8))
        } else if percent / 10 != lastTenth {
            lastTenth = percent / 10
            FileHandle.standardError.write(Data("\(percent)% \(what)\n".utf8))
        }
    }

    func finish() {
        if isTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
