import ArgumentParser
import Foundation
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
            let graph = try GraphFile.export(from: context, entityNames: kinds, keepsOutsideReferences: false)
            try StandardOutput.line(try JSONValue.text(graph.json))
            Self.report(graph.problems)
        case .csv:
            guard let entity, let kinds else { throw CommandFailure("CSV export needs --entity") }
            let graph = try GraphFile.export(from: context, entityNames: kinds, forImport: false)
            let e = try StoreArguments.entity(entity, in: model)
            let keys = ["@id"] + e.storedAttributes.map(\.name) + e.relationships.filter { !$0.isToMany && !$0.isTransient }.map(\.name)
            var output = StandardOutput()
            try output.line(CSV.line(keys))
            for kind in kinds {
                for object in graph.entities[kind] ?? [] {
                    try output.line(CSV.line(keys.map { object[$0] ?? .null }))
                }
            }
            try output.flush()
            Self.report(graph.problems)
        }
    }

    /// Warnings on standard error, after the output, so that the file written stays whole.
    private static func report(_ problems: [String]) {
        for problem in problems {
            FileHandle.standardError.write(Data("warning: \(problem)\n".utf8))
        }
    }
}

/// Comma-separated values: fields quoted when they hold a comma, quote or line break.
/// No value is an empty field and an empty string a quoted one (`""`), so the two stay
/// apart.
enum CSV {
    /// A line of plain fields, such as the header.
    static func line(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",")
    }

    /// A line of values.
    static func line(_ values: [JSONValue]) -> String {
        values.map { value in
            if case .string("") = value { return "\"\"" }
            return field(text(value))
        }.joined(separator: ",")
    }

    private static func field(_ f: String) -> String {
        f.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
            ? "\"" + f.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : f
    }

    static func text(_ value: JSONValue) -> String {
        switch value {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return String(d)
        case .decimal(let d): return d.description
        case .string(let s): return s
        case .array, .object: return (try? JSONValue.text(value, pretty: false)) ?? ""
        }
    }
}
