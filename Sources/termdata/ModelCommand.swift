import ArgumentParser
import Foundation
import ObjectModel
import ObjectGraph
import ModelCodegen
import SQLiteStore

/// `termdata model PATH [--format text|json] [--write-xcdatamodeld DIR] [--swift DIR]`, or
/// `termdata model --store STORE`: the model a store keeps of itself.
struct ModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Summarise a model: Xcode's .xcdatamodeld or .xcdatamodel, or a compiled .momd or .mom.",
        discussion: """
            A compiled model (the .momd folder or .mom file inside an app) is read as it is; \
            --write-xcdatamodeld writes it back as an Xcode model, so a lost source can be recovered. \
            --swift writes a Swift class for each entity (typed properties, to-many add and remove \
            methods, a typed fetchRequest()), honouring each entity's code generation setting.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: "The .xcdatamodeld bundle, .xcdatamodel folder, .momd folder or .mom file; ToDo names the bundled ToDo model.")
    var path: String?

    @Option(help: "Instead of a model file, a Core Data SQLite store: the model it caches of itself.")
    var store: String?

    @Option(name: .customLong("write-xcdatamodeld"),
            help: "Write the model, every version, as an Xcode .xcdatamodeld bundle at this path (which must not exist).")
    var writeXcdatamodeld: String?

    @Option(help: "Write a Swift class for each entity of the current version into this folder (made if missing).")
    var swift: String?

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    func run() throws {
        let versions: ModelVersions
        var heading = "", tail = ""
        switch (path, store) {
        case (let path?, nil):
            versions = try Self.load(StoreArguments.modelURL(path))
        case (nil, let store?):
            (versions, heading, tail) = try Self.storeModel(store)
        case (nil, nil):
            throw ValidationError("Name a model file, or a store with --store.")
        case (_?, _?):
            throw ValidationError("Name a model file or a store, not both.")
        }
        if let writeXcdatamodeld {
            try write(versions, to: writeXcdatamodeld)
            return
        }
        if let swift {
            let file = path.map { StoreArguments.modelURL($0).lastPathComponent } ?? "Model"
            try generate(versions, file: file, into: swift)
            return
        }
        let summary = ModelSummary(versions)
        switch format {
        // Names, defaults and predicates come from the file: nothing in them reaches the terminal as a control.
        case .text: try StandardOutput.write(TerminalText.safe(heading + summary.text + tail))
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

    /// The model a store keeps of itself, and a line saying where it came from.
    static func storeModel(_ store: String) throws -> (ModelVersions, String, String) {
        guard let url = try StoreLocation.url(of: store), url.isFileURL else {
            throw CommandFailure("--store names a file: a Core Data SQLite store")
        }
        guard FileManager.default.fileExists(atPath: url.path) else { throw CommandFailure("no store at \(url.path)") }
        guard let (versions, inferred) = try StoreArguments.storesOwnModel(url, type: .sqlite) else {
            throw CommandFailure("--store names a file: a Core Data SQLite store")
        }
        guard let inferred else {
            return (versions, "The model \(url.lastPathComponent) caches of itself (Z_MODELCACHE), as Core Data compiled it.\n\n", "")
        }
        var tail = "\nGuesses (what the layout does not settle):\n"
        for key in inferred.guesses.keys.sorted() { tail += "  \(key): \(inferred.guesses[key]!)\n" }
        if inferred.guesses.isEmpty { tail += "  none\n" }
        tail += "\n" + inferred.notes.map { "  " + $0 }.joined(separator: "\n") + "\n"
        let heading = "\(url.lastPathComponent) keeps no model of its own; this one is inferred from its layout. "
            + "A store opened on it is read-only unless --writable is given.\n\n"
        return (versions, heading, tail)
    }

    private func generate(_ versions: ModelVersions, file: String, into path: String) throws {
        let folder = URL(fileURLWithPath: path)
        let name = (file as NSString).deletingPathExtension
        let written = try CommandFailure.rethrowing {
            try SwiftClassGenerator(model: versions.current, modelName: name, modelFileName: file).write(to: folder)
        }
        guard !written.files.isEmpty else {
            try StandardOutput.write("\(name) asks for no classes: every entity's code generation is manual\n")
            return
        }
        var report = "wrote \(written.files.count) file\(written.files.count == 1 ? "" : "s") into \(folder.path) from version \(versions.currentVersionName):\n"
        for file in written.files { report += "  \(file)\n" }
        for file in written.removed { report += "  removed \(file) (its entity is gone)\n" }
        try StandardOutput.write(report)
    }

    private func write(_ versions: ModelVersions, to path: String) throws {
        var url = URL(fileURLWithPath: path)
        if url.pathExtension != "xcdatamodeld" { url.appendPathExtension("xcdatamodeld") }
        guard !FileManager.default.fileExists(atPath: url.path) else {
            throw CommandFailure("\(url.path) already exists; name a new path for the model")
        }
        do {
            try XcodeModelFile.write(versions, to: url)
        } catch let error as ModelError {
            throw CommandFailure(error)
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw CommandFailure("cannot write \(url.path): \(error.localizedDescription)")
        }
        // What was written must read back as the same model, or the user would be left with
        // a source that differs from the compiled model they recovered it from: such a
        // bundle is taken away again.
        do {
            let written = try Self.load(url)
            guard written.versions.map(\.name) == versions.versions.map(\.name) else {
                throw CommandFailure("\(url.path) was written but does not read back with the same versions; it was removed")
            }
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
        try StandardOutput.write("wrote \(url.path): \(versions.versions.count) version\(versions.versions.count == 1 ? "" : "s"), current \(versions.currentVersionName)\n")
    }
}
