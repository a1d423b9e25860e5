import ArgumentParser
import Foundation
import ObjectModel

/// `termdata model PATH [--format text|json] [--write-xcdatamodeld DIR]`
struct ModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Summarise a model: Xcode's .xcdatamodeld or .xcdatamodel, or a compiled .momd or .mom.",
        discussion: """
            A compiled model (the .momd folder or .mom file inside an app) is read as it is; \
            --write-xcdatamodeld writes it back as an Xcode model, so a lost source can be recovered.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: "The .xcdatamodeld bundle, .xcdatamodel folder, .momd folder or .mom file; ToDo names the bundled ToDo model.")
    var path: String

    @Option(name: .customLong("write-xcdatamodeld"),
            help: "Write the model, every version, as an Xcode .xcdatamodeld bundle at this path (which must not exist).")
    var writeXcdatamodeld: String?

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    func run() throws {
        let versions = try Self.load(StoreArguments.modelURL(path))
        if let writeXcdatamodeld {
            try write(versions, to: writeXcdatamodeld)
            return
        }
        let summary = ModelSummary(versions)
        switch format {
        case .text: try StandardOutput.write(summary.text)
        case .json: try StandardOutput.write(try summary.json())
        }
    }

    static func load(_ url: URL) throws -> ModelVersions {
        do {
            return try ModelFile.read(url)
        } catch let error as ModelError {
            throw CommandFailure(error)
        }
    }

    private func write(_ versions: ModelVersions, to path: String) throws {
        var url = URL(fileURLWithPath: path)
        if url.pathExtension != "xcdatamodeld" { url.appendPathExtension("xcdatamodeld") }
        guard !FileManager.default.fileExists(atPath: url.path) else {
            throw CommandFailure("\(url.path) already exists; name a new path for the model")
        }
        do {
            try XcodeModelFile.write(versions, to: url)
        } catch {
            throw CommandFailure("cannot write \(url.path): \(error.localizedDescription)")
        }
        // What was written must read back as the same model, or the user would be left with
        // a source that differs from the compiled model they recovered it from.
        let written = try Self.load(url)
        guard written.versions.map(\.name) == versions.versions.map(\.name) else {
            throw CommandFailure("\(url.path) was written but does not read back with the same versions")
        }
        try StandardOutput.write("wrote \(url.path): \(versions.versions.count) version\(versions.versions.count == 1 ? "" : "s"), current \(versions.currentVersionName)\n")
    }
}
