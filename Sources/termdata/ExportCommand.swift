import ArgumentParser
import Foundation
import Interchange
import ObjectGraph
import ObjectModel

/// `termdata export --store PATH --model MODEL [--entity NAME] [--format json|csv]`
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a store's objects as graph JSON, or one entity as CSV."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case json, csv }

    @OptionGroup var storeArguments: StoreArguments

    @Option(help: "Only this entity (required for CSV).")
    var entity: String?

    @Option(help: "Output format: json or csv.")
    var format: Format = .json

    func run() throws {
        let model = try storeArguments.loadModel()
        // An entity stands for itself and its sub-entities, as in a fetch: an abstract one for its concrete kinds.
        let kinds = try entity.map { name in
            try StoreArguments.entity(name, in: model).kindNames.filter { model.entity(named: $0)?.isAbstract == false }
        }
        let context = try storeArguments.open(model: model, readOnly: true)
        switch format {
        case .json:
            // One entity's file imports on its own: references to objects left out are dropped.
            // Written as it is read, a batch of objects at a time.
            let problems = try GraphFile.writeExport(from: context, entityNames: kinds, keepsOutsideReferences: false) { piece in
                try StandardOutput.write(bytes: piece)
            }
            try StandardOutput.write("\n")
            Self.report(problems)
        case .csv:
            guard let entity, let kinds else { throw CommandFailure("CSV export needs --entity") }
            let graph = try GraphFile.export(from: context, entityNames: kinds, forImport: false)
            var output = StandardOutput()
            for line in CSV.lines(of: graph, entity: try StoreArguments.entity(entity, in: model), kinds: kinds) { try output.line(line) }
            try output.flush()
            Self.report(graph.problems)
        }
    }

    /// Warnings on standard error, after the output, so that the file written stays whole.
    private static func report(_ problems: [GraphProblem]) {
        for problem in problems {
            FileHandle.standardError.write(Data("warning: \(problem)\n".utf8))
        }
    }
}
