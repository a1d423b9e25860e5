import ArgumentParser
import Foundation
import Interchange
import ObjectGraph
import SQLiteStore

/// `termdata check [--store PATH --model MODEL] [--format text|json]`
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a SQLite store against its model, reading only.",
        discussion: """
        Finds references to objects that are not there (to-one keys and many-to-many join rows), \
        one-to-one relationships whose inverse does not point back, nil values the model requires, \
        values a uniqueness constraint allows once held twice, a Z_PRIMARYKEY counter behind a \
        table's keys, and rows of no entity. Exits 0 for a sound store, 1 when something was found.
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @OptionGroup var storeArguments: StoreArguments

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    func run() throws {
        let model = try storeArguments.loadModel()
        let context = try storeArguments.open(model: model, readOnly: true)
        guard let store = context.coordinator.stores.first as? SQLiteStore else {
            throw CommandFailure("check reads SQLite stores; this store is \(context.coordinator.stores.first?.type.rawValue ?? "none")")
        }
        let findings = try store.check()
        var output = StandardOutput()
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try output.line(String(decoding: try encoder.encode(findings), as: UTF8.self))
        case .text:
            for finding in findings {
                let more = finding.count > finding.objects.count && !finding.objects.isEmpty ? " and \(finding.count - finding.objects.count) more" : ""
                try output.line("✗ \(finding.message)" + (finding.objects.isEmpty ? "" : ": \(finding.count) object\(finding.count == 1 ? "" : "s")"))
                for object in finding.objects { try output.line("    \(object)") }
                if !more.isEmpty { try output.line("   \(more)") }
            }
            let objects = model.entities.filter { $0.parentName == nil }.compactMap { try? context.count(for: FetchRequest(entityName: $0.name)) }.reduce(0, +)
            try output.line(findings.isEmpty
                ? "The store is sound: \(objects) objects of \(model.entities.count) entities checked."
                : "\(findings.count) problem\(findings.count == 1 ? "" : "s") found in \(objects) objects; the store was not changed.")
        }
        try output.flush()
        if !findings.isEmpty { throw ExitCode(1) }
    }
}
