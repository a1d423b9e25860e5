import ArgumentParser
import Foundation
import Interchange
import ObjectGraph

/// `termdata diff --store A --store B [--model MODEL] [--match KEY] [--entity E]... [--format text|json]`
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two stores of one model: objects added, removed and changed.",
        discussion: """
        Objects are the same when they have the same entity and primary key (a copy of a store \
        keeps its keys), or, with --match KEY, the same value of that attribute (entities \
        without it by primary key). Each changed object is listed with the values and \
        relationships that differ, the first store's value then the second's; relationships \
        by their destinations (a to-many whose inverse is a to-one shows in its members). \
        Exits 0 when the stores hold the same objects, 1 when they differ. Both stores are \
        only read.
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Option(name: .customLong("store"), help: "A store, as for the other commands: give two, the older first.")
    var stores: [String] = []

    @Option(help: "The model of both stores (default: the first store's own, or the ToDo model for ToDo stores).")
    var model: String?

    @Option(help: "Match objects by this attribute instead of their primary keys (a UUID, a code, a name).")
    var match: String?

    @Option(help: "Only this entity; repeat for more.")
    var entity: [String] = []

    @Option(help: "Output format: text (a line per object) or json (one object per line).")
    var format: Format = .text

    func run() throws {
        guard stores.count == 2 else { throw ValidationError("diff compares two stores: give --store twice") }
        let arguments = try stores.map { store in
            try StoreArguments.parse(["--store", store] + (model.map { ["--model", $0] } ?? []))
        }
        let objectModel = try arguments[0].loadModel()
        for name in entity { _ = try StoreArguments.entity(name, in: objectModel) }
        if let match, !objectModel.entities.contains(where: { $0.attribute(named: match) != nil }) {
            throw CommandFailure("--match \(match): no entity of the model has an attribute of that name")
        }
        let contexts = try arguments.map { try $0.open(model: objectModel, readOnly: true) }
        var output = StandardOutput()
        let summary = try CommandFailure.rethrowing {
            try StoreDiff.compare(contexts[0], with: contexts[1], matching: match, entityNames: entity.isEmpty ? nil : entity) { difference in
                switch format {
                case .text: try output.line(TerminalText.safe(difference.description, keepsLineBreaks: false))
                case .json: try output.line(try JSONValue.text(Self.json(difference), pretty: false))
                }
            }
        }
        if format == .text {
            let same = summary.isEmpty ? "the stores hold the same objects" : "\(summary.added) added, \(summary.removed) removed, \(summary.changed) changed"
            try output.line("\(same) (\(summary.first) objects in \(arguments[0].storeName), \(summary.second) in \(arguments[1].storeName))")
        }
        try output.flush()
        if !summary.isEmpty { throw ExitCode(1) }
    }

    private static func json(_ difference: StoreDiff.Difference) -> JSONValue {
        var values: [String: JSONValue] = [:]
        for v in difference.values {
            switch difference.kind {
            case .changed: values[v.key] = .object(["from": v.first.map(JSONValue.from) ?? .null, "to": v.second.map(JSONValue.from) ?? .null])
            case .added: values[v.key] = v.second.map(JSONValue.from) ?? .null
            case .removed: values[v.key] = v.first.map(JSONValue.from) ?? .null
            }
        }
        return .object([
            "change": .string(difference.kind.rawValue), "entity": .string(difference.entityName),
            "object": .string(difference.identity), "values": .object(values),
        ])
    }
}
