import Foundation
import AppShell
import Interchange
import ObjectGraph
import TerminalBindings
import TerminalUI

/// `D`: this store compared with another of the same model (yesterday's copy, a backup), as
/// `termdata diff` does: objects added since, removed since and changed, with the values that
/// differ, in a panel; Enter goes to the object here.
extension BrowserApplication {
    /// The most differences the panel lists; the rest are counted.
    static let listedDifferences = 10_000

    func beginCompare() -> EventResult {
        app.beginPrompt("Compare with which store (a copy or backup of this one)? ") { [weak self] path in
            guard let self, !path.isEmpty else { return }
            self.compare(with: URL(fileURLWithPath: (path as NSString).expandingTildeInPath))
        }
        return .redraw
    }

    private func compare(with other: URL) {
        guard FileManager.default.fileExists(atPath: other.path) else {
            app.showMessage("There is no store at \(other.path)", isError: true)
            return
        }
        let coordinator = context.coordinator, model = context.model
        let background = ManagedObjectContext(coordinator: coordinator, concurrencyType: .privateQueue)
        let limit = Self.listedDifferences
        app.beginWork("Comparing with \(other.lastPathComponent)", cancel: { background.interruptWork() }, start: { finish in
            background.perform {
                finish(Result {
                    let otherCoordinator = PersistentStoreCoordinator(model: model)
                    var options = StoreOptions()
                    options.readOnly = true
                    try otherCoordinator.addStore(type: StoreKind(inferringFrom: other, default: .sqlite).storeType, at: other, options: options)
                    defer { otherCoordinator.stores.forEach(otherCoordinator.removeStore) }
                    var listed: [StoreDiff.Difference] = []
                    let summary = try StoreDiff.compare(ManagedObjectContext(coordinator: otherCoordinator), with: background) { difference in
                        if listed.count < limit { listed.append(difference) }
                    }
                    return Comparison(differences: listed, summary: summary)
                })
            }
        }, done: { [weak self] (result: Result<Comparison, any Error>) in
            guard let self else { return }
            switch result {
            case .failure(let error): self.app.showMessage("Cannot compare with \(other.lastPathComponent): \(error)", isError: true)
            case .success(let comparison): self.showComparison(comparison, with: other)
            }
        })
    }

    struct Comparison: Sendable {
        var differences: [StoreDiff.Difference]
        var summary: StoreDiff.Summary
    }

    private func showComparison(_ comparison: Comparison, with other: URL) {
        let summary = comparison.summary
        guard !summary.isEmpty else {
            app.showMessage("This store holds the same objects as \(other.lastPathComponent) (\(summary.second) objects)")
            return
        }
        let differences = comparison.differences
        let source = DifferencesSource(differences: differences)
        let list = TableView(columns: [
            TableColumn("kind", title: "", width: 9),
            TableColumn("object", title: "Object", width: 22, compressedWidth: 12),
            TableColumn("values", title: "What differs (\(other.lastPathComponent) → here)", width: 70, compressedWidth: 20, fillsSpareWidth: true),
        ], dataSource: source)
        let more = differences.count < summary.added + summary.removed + summary.changed ? " (the first \(differences.count) listed)" : ""
        let header = Label("\(summary.added) added · \(summary.removed) removed · \(summary.changed) changed since \(other.lastPathComponent)"
                           + "\(more) · Enter goes to it · v shows it whole · Esc closes")
        let storeID = context.coordinator.stores.first?.identifier ?? ""
        list.extraCommands = [
            Command("compare.goTo", title: "Go to the object here", keys: [.enter], hint: "Go") { [weak self, weak list] in
                guard let self, let list, list.state.selectedRow < differences.count else { return .ignored }
                let difference = differences[list.state.selectedRow]
                guard let key = difference.secondKey else {
                    self.app.showMessage("\(difference.identity) is no longer in this store: v shows what it was", isError: true)
                    return .redraw
                }
                return self.goTo("x-coredata://\(storeID)/\(difference.entityName)/p\(key)").union(.closeScreen)
            },
            Command("compare.show", title: "The difference whole", keys: [.character("v")], hint: "Whole") { [weak self, weak list] in
                guard let self, let list, list.state.selectedRow < differences.count else { return .ignored }
                let difference = differences[list.state.selectedRow]
                let lines = [TextViewer.Line("\(difference.kind.rawValue) \(difference.identity)", kind: .heading)]
                    + difference.valueTexts.map { TextViewer.Line($0) }
                self.app.show(TextViewer(title: difference.identity, lines: lines))
                return .redraw
            },
        ]
        app.show(Window.listPanel(title: "Compared with \(other.path)", header: header, list: list, width: 120,
                                  minimumHeight: 8) { source.numberOfRows })
    }
}

/// The differences of a comparison, a row each.
final class DifferencesSource: TableDataSource {
    let differences: [StoreDiff.Difference]
    init(differences: [StoreDiff.Difference]) { self.differences = differences }

    var numberOfRows: Int { differences.count }

    func value(row: Int, column: String) -> CellValue {
        guard row < differences.count else { return .empty }
        let difference = differences[row]
        switch column {
        case "kind":
            switch difference.kind {
            case .added: return .text("+ added")
            case .removed: return .text("− removed")
            case .changed: return .text("~ changed")
            }
        case "object": return .text(difference.identity)
        case "values": return .text(difference.valueTexts.joined(separator: " · "))
        default: return .empty
        }
    }

    func editor(row: Int, column: String) -> EditorKind? { .readOnly }
    func setValue(_ value: CellValue, row: Int, column: String) throws { throw ReadOnlyError() }
    func sort(by column: String, ascending: Bool) -> Bool { false }
}
