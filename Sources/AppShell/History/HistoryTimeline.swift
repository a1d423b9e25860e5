import Foundation
import ObjectGraph
import ObjectModel
import Predicates
import TerminalBindings
import TerminalUI

/// The store's history as a timeline (`L`): its transactions, newest first, each with its
/// time, author, context and what it changed; Enter shows one's changes, `r` takes one back
/// in a new transaction (after showing what that writes), `/` filters by author, entity,
/// time or words.
extension ContextEditing {
    /// `L`, named `<prefix>.timeline`.
    package func timelineCommand(prefix: String) -> Command {
        Command("\(prefix).timeline", title: "The store's history, transaction by transaction; r there takes one back",
                keys: [.character("L")]) { [weak self] in
            self?.showTimeline() ?? .ignored
        }
    }

    package func showTimeline() -> EventResult {
        guard context.coordinator.stores.contains(where: { ($0 as? any HistoryTrackingStore) != nil }) else {
            app.showMessage("This store keeps no history (SQLite and PostgreSQL stores do)", isError: true)
            return .redraw
        }
        let source = TimelineSource(model: context.model)
        let list = TableView(columns: [
            TableColumn("token", title: "#", width: 6, compressedWidth: 4),
            TableColumn("time", title: "Time", width: 19, compressedWidth: 11),
            TableColumn("author", title: "Author", width: 16, compressedWidth: 8),
            TableColumn("context", title: "Context", width: 14, compressedWidth: 6),
            TableColumn("changes", title: "Changes", width: 30, compressedWidth: 12, fillsSpareWidth: true),
        ], dataSource: source)
        let header = Label("")
        source.onReload = { [weak header] in
            header?.text = source.summary + " · Enter shows it · r takes it back · / filters · Esc closes"
        }
        source.onReload?()
        list.extraCommands = [
            Command("timeline.show", title: "The transaction's changes, with the values they replaced", keys: [.enter], hint: "Show") {
                [weak self, weak list] in
                guard let self, let list, let transaction = source.transaction(at: list.state.selectedRow) else { return .ignored }
                self.app.show(TextViewer(title: "Transaction \(transaction.token)", lines: self.timelineLines(transaction)))
                return .redraw
            },
            Command("timeline.revert", title: "Take the transaction back, in a new one", keys: [.character("r")], hint: "Take back") {
                [weak self, weak list] in
                guard let self, let list, let transaction = source.transaction(at: list.state.selectedRow) else { return .ignored }
                return self.beginRevert(transaction, source: source)
            },
            Command("timeline.filter", title: "Filter: author:NAME entity:NAME since:2026-11-29, or words", keys: [.character("/")], hint: "Filter") {
                [weak self] in
                guard let self else { return .ignored }
                self.app.beginPrompt("Filter (author:NAME entity:NAME since:YYYY-MM-DD, or words; empty for all): ", text: source.filter.text) {
                    [weak self] text in
                    guard let self else { return }
                    do {
                        source.filter = try TimelineFilter(text, model: self.context.model)
                    } catch {
                        self.app.showMessage("\(error)", isError: true)
                        return
                    }
                    self.loadTimeline(source)
                }
                return .redraw
            },
        ]
        app.show(Window.listPanel(title: "History — the store's transactions, newest first", header: header, list: list, width: 110,
                                  minimumHeight: 10) { source.numberOfRows })
        loadTimeline(source)
        return .redraw
    }

    /// Reads the last transactions the filter allows on a context of its own.
    private func loadTimeline(_ source: TimelineSource) {
        let coordinator = context.coordinator, filter = source.filter
        let background = ManagedObjectContext(coordinator: coordinator, concurrencyType: .privateQueue)
        source.isLoading = true
        app.beginWork("Reading the store's history", cancel: { background.interruptWork() }, start: { finish in
            background.perform { finish(Result { try TimelineSource.read(coordinator, filter: filter) }) }
        }, done: { [weak self] (result: Result<[HistoryTransaction], any Error>) in
            source.isLoading = false
            switch result {
            case .success(let transactions): source.transactions = transactions
            case .failure(let error): self?.app.showMessage("Cannot read the history: \(error)", isError: true)
            }
        })
    }

    /// A transaction's lines for its pane: who and when, then each change.
    private func timelineLines(_ transaction: HistoryTransaction) -> [TextViewer.Line] {
        let who = [transaction.author, transaction.contextName.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
        let time = ValueFormat.date(showsTime: true).string(for: .date(transaction.timestamp))
        var lines = [TextViewer.Line("\(time)  \(who.isEmpty ? "another program" : who)", kind: .heading)]
        lines += transaction.changes.map { TextViewer.Line(historyLine($0)) }
        lines.append(TextViewer.Line(""))
        lines.append(TextViewer.Line("r in the list takes it back, in a new transaction", kind: .note))
        return lines
    }

    /// Works out what taking the transaction back writes (in the background), shows it, and
    /// writes it when the user agrees; refuses with the later changes in the way.
    private func beginRevert(_ transaction: HistoryTransaction, source: TimelineSource) -> EventResult {
        guard !isReadOnly else {
            app.showMessage("The store is open read-only", isError: true)
            return .redraw
        }
        guard !context.hasChanges else {
            app.showMessage("Save or undo your changes first: the revert writes to the store", isError: true)
            return .redraw
        }
        let coordinator = context.coordinator, token = transaction.token
        let background = ManagedObjectContext(coordinator: coordinator, concurrencyType: .privateQueue)
        app.beginWork("Working out how to take back transaction \(token)", cancel: { background.interruptWork() }, start: { finish in
            background.perform { finish(Result { try coordinator.planRevert(of: token) }) }
        }, done: { [weak self] (result: Result<HistoryRevert, any Error>) in
            guard let self else { return }
            switch result {
            case .failure(let error):
                self.app.alert(title: "Cannot take back transaction \(token)", message: "\(error)")
            case .success(let plan) where !plan.conflicts.isEmpty:
                self.app.alert(title: "Cannot take back transaction \(token)",
                               message: "Later transactions changed the same values:\n"
                                   + plan.conflicts.map(\.description).joined(separator: "\n")
                                   + "\nTake those back first, or change the values by hand.")
            case .success(let plan):
                let steps = plan.steps.map { $0.text(name: { self.historyText(.object($0)) }, value: self.historyText) }
                self.app.alert(title: "Take back transaction \(token)?", message: "This writes, in a new transaction:\n"
                                   + steps.joined(separator: "\n"), buttons: ["Take back", "Cancel"]) { [weak self] choice in
                    guard let self, choice == 0 else { return }
                    do {
                        let number = try coordinator.revert(plan)
                        self.live?.mergeNow()
                        self.loadTimeline(source)
                        self.app.showMessage("Took back transaction \(token) in transaction \(number.map(String.init) ?? "—")")
                    } catch {
                        self.app.alert(title: "Cannot take back transaction \(token)", message: "\(error)\nNothing was written.")
                    }
                }
            }
        })
        return .redraw
    }
}

/// What the timeline shows: `author:NAME`, `entity:NAME` and `since:YYYY-MM-DD` (each may
/// repeat), and words any of the author, context or entities hold.
package struct TimelineFilter: Sendable {
    package var text = ""
    package var authors: Set<String> = []
    package var entities: Set<String> = []
    package var since: Date?
    package var words: [String] = []

    struct Refusal: Error, CustomStringConvertible { var description: String }

    package init() {}

    package init(_ text: String, model: ManagedObjectModel) throws {
        self.text = text
        for word in text.split(separator: " ").map(String.init) {
            if word.hasPrefix("author:") {
                authors.insert(String(word.dropFirst(7)))
            } else if word.hasPrefix("entity:") {
                let name = String(word.dropFirst(7))
                guard model.entity(named: name) != nil else { throw Refusal(description: "The model has no entity \(name)") }
                entities.insert(name)
            } else if word.hasPrefix("since:") {
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.dateFormat = "yyyy-MM-dd"
                guard let date = formatter.date(from: String(word.dropFirst(6))) else {
                    throw Refusal(description: "\(word): a day is written 2026-11-29")
                }
                since = date
            } else {
                words.append(word.lowercased())
            }
        }
    }
}

/// The timeline's rows: transactions, newest first.
final class TimelineSource: TableDataSource {
    /// The most transactions read: the last ones.
    static let limit = 500
    let model: ManagedObjectModel
    var filter = TimelineFilter()
    var isLoading = false { didSet { onReload?() } }
    var transactions: [HistoryTransaction] = [] { didSet { onReload?() } }
    var onReload: (() -> Void)?

    init(model: ManagedObjectModel) { self.model = model }

    /// The last `limit` transactions of each store, the filter's authors and entities asked
    /// of the store, its time and words here.
    static func read(_ coordinator: PersistentStoreCoordinator, filter: TimelineFilter) throws -> [HistoryTransaction] {
        let last = try coordinator.currentHistoryToken()
        var request = HistoryRequest(after: HistoryToken(last.transactionNumbers.mapValues { max(0, $0 - Int64(limit)) }))
        if !filter.authors.isEmpty { request.authors = filter.authors }
        if !filter.entities.isEmpty { request.entityNames = filter.entities }
        return try coordinator.fetchHistory(request).filter { transaction in
            if let since = filter.since, transaction.timestamp < since { return false }
            let text = ([transaction.author ?? "", transaction.contextName ?? ""] + transaction.changes.map(\.changedObjectID.entityName))
                .joined(separator: " ").lowercased()
            return filter.words.allSatisfy { text.contains($0) }
        }.reversed()
    }

    func transaction(at row: Int) -> HistoryTransaction? { row < transactions.count ? transactions[row] : nil }

    var summary: String {
        if isLoading { return "Reading…" }
        let shown = "\(transactions.count) transaction\(transactions.count == 1 ? "" : "s")"
        return filter.text.isEmpty ? shown : "\(shown) · filter: \(filter.text)"
    }

    var numberOfRows: Int { transactions.count }

    func value(row: Int, column: String) -> CellValue {
        guard let transaction = transaction(at: row) else { return .empty }
        switch column {
        case "token": return .text(transaction.token.description)
        case "time": return .date(transaction.timestamp)
        case "author": return .text(transaction.author ?? "another program")
        case "context": return transaction.contextName.map { .text($0) } ?? .empty
        case "changes": return .text(Self.changes(transaction))
        default: return .empty
        }
    }

    /// `2 inserted · 1 changed · ToDo, Category`.
    static func changes(_ transaction: HistoryTransaction) -> String {
        let counts = [(HistoryChangeType.insert, "inserted"), (.update, "changed"), (.delete, "deleted")].compactMap { type, word -> String? in
            let n = transaction.changes.count { $0.changeType == type }
            return n == 0 ? nil : "\(n) \(word)"
        }
        var entities: [String] = []
        for change in transaction.changes where !entities.contains(change.changedObjectID.entityName) {
            entities.append(change.changedObjectID.entityName)
        }
        return (counts + [entities.joined(separator: ", ")]).joined(separator: " · ")
    }

    func editor(row: Int, column: String) -> EditorKind? { .readOnly }
    func setValue(_ value: CellValue, row: Int, column: String) throws { throw ReadOnlyError() }
    func sort(by column: String, ascending: Bool) -> Bool { false }
}
