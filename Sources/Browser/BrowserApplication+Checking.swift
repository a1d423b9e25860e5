import Foundation
import AppShell
import ObjectGraph
import TerminalBindings
import TerminalUI

/// `K`: the store checked against its model, as `termdata check` does, in a panel: each
/// finding with how many objects it concerns; Enter goes to the first of them (Backspace
/// comes back), the rest are listed by `v`.
extension BrowserApplication {
    func checkStore() -> EventResult {
        guard context.coordinator.stores.contains(where: { $0 is any CheckingStore }) else {
            app.showMessage("Only SQLite and PostgreSQL stores are checked", isError: true)
            return .redraw
        }
        let coordinator = context.coordinator
        let background = ManagedObjectContext(coordinator: coordinator, concurrencyType: .privateQueue)
        app.beginWork("Checking the store", cancel: { background.interruptWork() }, start: { finish in
            background.perform { finish(Result { try coordinator.checkStores() ?? [] }) }
        }, done: { [weak self] (result: Result<[StoreFinding], any Error>) in
            guard let self else { return }
            switch result {
            case .failure(let error): self.app.showMessage("Cannot check the store: \(error)", isError: true)
            case .success(let findings): self.showFindings(findings)
            }
        })
        return .redraw
    }

    private func showFindings(_ findings: [StoreFinding]) {
        guard !findings.isEmpty else {
            app.showMessage("The store is sound: every reference, required value, uniqueness rule and key counter holds")
            return
        }
        let source = FindingsSource(findings: findings)
        let list = TableView(columns: [
            TableColumn("message", title: "Problem", width: 70, compressedWidth: 30, fillsSpareWidth: true),
            TableColumn("count", title: "Objects", width: 8, compressedWidth: 5),
        ], dataSource: source)
        let header = Label("\(findings.count) problem\(findings.count == 1 ? "" : "s") · Enter goes to the first object · v lists them · "
                           + "termdata check --repair fixes what is safe · Esc closes")
        list.extraCommands = [
            Command("check.goTo", title: "Go to the finding's first object", keys: [.enter], hint: "Go") { [weak self, weak list] in
                guard let self, let list, list.state.selectedRow < findings.count else { return .ignored }
                guard let first = findings[list.state.selectedRow].objects.first, first.hasPrefix("x-coredata:") else {
                    self.app.showMessage("That finding names rows of no entity: see them with sqlite3", isError: true)
                    return .redraw
                }
                return self.goTo(first).union(.closeScreen)
            },
            Command("check.objects", title: "The finding's objects, by URI", keys: [.character("v")], hint: "Objects") { [weak self, weak list] in
                guard let self, let list, list.state.selectedRow < findings.count else { return .ignored }
                let finding = findings[list.state.selectedRow]
                var lines = [TextViewer.Line(finding.message, kind: .heading)] + finding.objects.map { TextViewer.Line($0) }
                if finding.count > finding.objects.count {
                    lines.append(TextViewer.Line("… and \(finding.count - finding.objects.count) more", kind: .note))
                }
                self.app.show(TextViewer(title: "\(finding.entity)\(finding.key.map { ".\($0)" } ?? "")", lines: lines))
                return .redraw
            },
        ]
        app.show(Window.listPanel(title: "Store check — what does not hold", header: header, list: list, width: 110,
                                  minimumHeight: 8) { source.numberOfRows })
    }
}

/// The findings of a check, a row each.
final class FindingsSource: TableDataSource {
    let findings: [StoreFinding]
    init(findings: [StoreFinding]) { self.findings = findings }

    var numberOfRows: Int { findings.count }

    func value(row: Int, column: String) -> CellValue {
        guard row < findings.count else { return .empty }
        switch column {
        case "message": return .text("✗ " + findings[row].message)
        case "count": return .integer(findings[row].count)
        default: return .empty
        }
    }

    func editor(row: Int, column: String) -> EditorKind? { .readOnly }
    func setValue(_ value: CellValue, row: Int, column: String) throws { throw ReadOnlyError() }
    func sort(by column: String, ascending: Bool) -> Bool { false }
}
