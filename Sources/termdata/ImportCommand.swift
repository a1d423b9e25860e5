import ArgumentParser
import Foundation
import ObjectGraph
import ObjectModel

/// `termdata import --store PATH --model MODEL [--type T] FILE`
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the objects of a graph JSON file to a store, creating the store when missing.",
        discussion: """
            The file lists objects under their concrete entity, each with an @id; a to-one \
            relationship holds an @id, a to-many one an array of them; dates are ISO-8601 \
            strings, binary data is base64, null is no value:

              {"format": "termdata-graph", "version": 1, "entities": {
                "Category": [{"@id": "c1", "name": "Home"}],
                "ToDo": [{"@id": "t1", "name": "Buy milk", "category": "c1",
                          "dueDate": "2024-05-01T10:00:00Z"}]}}

            `termdata export` writes the same format. Invalid input (an unknown entity or \
            key, a value of the wrong type, a dangling reference, relationship sides that \
            disagree) is reported with each object's @id, and nothing is written.
            """
    )

    @OptionGroup var storeArguments: StoreArguments

    @Argument(help: "The graph JSON file (format \"termdata-graph\", version 1).")
    var file: String

    func run() throws {
        let model = try storeArguments.loadModel()
        guard let data = FileManager.default.contents(atPath: file) else { throw CommandFailure("cannot read \(file)") }
        let graph: GraphFile
        do {
            graph = try GraphFile(data: data)
        } catch let failure as CommandFailure {
            throw CommandFailure("\(file): \(failure)")
        }
        let problems = graph.problems(for: model)
        if !problems.isEmpty {
            throw CommandFailure("\(file): nothing imported:\n" + Self.listing(problems.map { "  " + $0 }))
        }
        let url = storeArguments.storeURL
        let existed = FileManager.default.fileExists(atPath: url.path)
        let context = try storeArguments.open(model: model, creating: true)
        var ids: [ObjectIdentifier: String] = [:]
        do {
            ids = try graph.insert(into: context)
            try context.save()
        } catch {
            for store in context.coordinator.stores { context.coordinator.removeStore(store) }
            if !existed {
                for file in StoreFiles.databaseFiles(forStoreAt: url) { try? FileManager.default.removeItem(at: file) }
                // The failed save removed the files it wrote; the folder may be another store's too.
                StoreFiles.removeEmptySupportDirectory(forStoreAt: url)
            }
            if let invalid = error as? ObjectGraph.ValidationError {
                // Each problem names the object by the file's @id, as the checks before do.
                let lines = invalid.failures.map { failure -> String in
                    let subject = ids[ObjectIdentifier(failure.object)].map { "\(failure.entityName) \($0)" } ?? failure.subject
                    return "  \(subject): \(failure.message)"
                }
                throw CommandFailure("\(file): nothing imported:\n" + Self.listing(lines))
            }
            throw CommandFailure("\(file): nothing imported: \(error)")
        }
        let count = graph.entities.values.reduce(0) { $0 + $1.count }
        try StandardOutput.line("imported \(count) object(s) into \(url.path)")
    }

    /// How many problems an import lists before it counts the rest.
    static let listedProblems = 20

    /// The problems, one per line, up to `listedProblems` and then how many more there are:
    /// a file made by a program tends to repeat one mistake thousands of times.
    static func listing(_ lines: [String]) -> String {
        guard lines.count > listedProblems else { return lines.joined(separator: "\n") }
        let more = lines.count - listedProblems
        return (lines.prefix(listedProblems) + ["  … and \(more) more (\(lines.count) problems in all)"]).joined(separator: "\n")
    }
}
