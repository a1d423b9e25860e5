import ArgumentParser
import Foundation
import Interchange
import ObjectGraph
import SQLiteStore

/// `termdata check [--store PATH --model MODEL] [--format text|json] [--repair]`
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a SQLite or PostgreSQL store against its model, reading only.",
        discussion: """
        Finds references to objects that are not there (to-one keys and many-to-many join rows), \
        one-to-one relationships whose inverse does not point back, nil values the model requires, \
        values a uniqueness constraint allows once held twice, to-many relationships outside their \
        count rule, a Z_PRIMARYKEY counter behind a table's keys (on PostgreSQL, a key sequence) or \
        a Z_PRIMARYKEY row that contradicts the model, and rows of no entity. Exits 0 for a sound store, 1 when something was found. \
        --repair then fixes what is safe to fix and checks again.
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @OptionGroup var storeArguments: StoreArguments

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    @Flag(help: "Fix what can be fixed safely, in one transaction, after saying what: dangling keys of optional to-one relationships cleared, join rows to missing objects removed, key counters moved up. The rest is listed and left.")
    var repair = false

    func run() throws {
        let model = try storeArguments.loadModel()
        if repair, format == .json { throw ValidationError("--repair says what it does as text; it does not take --format json") }
        let context = try storeArguments.open(model: model, readOnly: !repair)
        guard let store = context.coordinator.stores.first as? any CheckingStore else {
            throw CommandFailure("check reads SQLite and PostgreSQL stores; this store is \(context.coordinator.stores.first?.type.rawValue ?? "none")")
        }
        if repair, !(store is SQLiteStore) { throw CommandFailure("--repair mends SQLite stores; this one is checked only") }
        let findings = try CommandFailure.rethrowing { try store.check() }
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
                : "\(findings.count) problem\(findings.count == 1 ? "" : "s") found in \(objects) objects" + (repair ? "." : "; the store was not changed."))
        }
        try output.flush()
        if repair, !findings.isEmpty, let store = store as? SQLiteStore {
            let (repairs, refused) = store.repairs(for: findings)
            try output.line("")
            for repair in repairs { try output.line("repair: " + repair.action) }
            for finding in refused { try output.line("left as it is (it needs a choice): " + finding.message) }
            try output.flush()
            try store.repair(repairs)
            let left = try store.check()
            try output.line(left.isEmpty ? "Repaired: the store is sound." : "Repaired \(repairs.count); \(left.count) problem\(left.count == 1 ? "" : "s") left.")
            try output.flush()
            if !left.isEmpty { throw ExitCode(1) }
            return
        }
        if !findings.isEmpty { throw ExitCode(1) }
    }
}
