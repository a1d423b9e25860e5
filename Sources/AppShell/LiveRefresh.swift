import Foundation
import ObjectGraph
import Synchronization
import TerminalUI

/// Keeps an application's context up to date with what other programs save to its store:
/// the coordinator's remote-change watch raises a flag on its own thread, and a timer on the
/// key loop merges the stores' history since the context's token when the flag is up. Rows
/// appear, change and leave in place; unsaved edits stay; `merged` hears of what came.
///
/// ```swift
/// live = LiveRefresh(app: app, context: context) { transactions in
///     app.showMessage("Updated from another program")
/// }
/// ```
package final class LiveRefresh {
    /// How often the loop looks for news, in seconds: a flag's look, so often costs nothing,
    /// and another program's save shows within a frame or three of its notice.
    package static let interval = 0.05

    private final class Flag: Sendable {
        let raised = Atomic<Bool>(false)
    }

    private let context: ManagedObjectContext
    private let pending = Flag()
    private var observer: UUID?
    private var timer: TimerID?
    private weak var app: Application?
    private let merged: ([HistoryTransaction]) -> Void

    /// Starts following the stores' history from now. A store that keeps no history (XML,
    /// binary) has nothing to follow, and nothing is watched.
    package init(app: Application, context: ManagedObjectContext, merged: @escaping ([HistoryTransaction]) -> Void) {
        self.app = app
        self.context = context
        self.merged = merged
        let coordinator = context.coordinator
        guard coordinator.stores.contains(where: { ($0 as? any HistoryTrackingStore)?.tracksHistory == true }) else { return }
        context.historyToken = try? coordinator.currentHistoryToken()
        let pending = self.pending
        observer = coordinator.observeRemoteChanges { _ in pending.raised.store(true, ordering: .releasing) }
        timer = app.schedule(after: Self.interval, repeating: Self.interval) { [weak self] _ in
            self?.mergeIfChanged() ?? .ignored
        }
    }

    deinit { stop() }

    /// Whether other programs' saves are being followed.
    package var isFollowing: Bool { observer != nil }

    /// Stops following.
    package func stop() {
        if let observer { context.coordinator.removeRemoteChangeObserver(observer) }
        if let timer { app?.cancelTimer(timer) }
        observer = nil
        timer = nil
    }

    /// Work of this application's own that saves (an import on a background context): the
    /// news waits while it runs, so that its save is merged through its own notice first and
    /// not announced as another program's.
    private weak var pausingWork: BackgroundWork?

    /// Holds the news back while `work` runs; it is merged once the work has ended.
    package func pause(while work: BackgroundWork) { pausingWork = work }

    /// Merges what others committed, when the watch said something came.
    @discardableResult
    package func mergeIfChanged() -> EventResult {
        if let work = pausingWork, app?.isRunning(work) == true { return .ignored }
        guard pending.raised.exchange(false, ordering: .acquiringAndReleasing) else { return .ignored }
        return mergeNow()
    }

    /// Merges what others committed since the context's token, now.
    @discardableResult
    package func mergeNow() -> EventResult {
        do {
            let transactions = try context.mergeRemoteChanges()
            guard !transactions.isEmpty else { return .ignored }
            merged(transactions)
            return .needsRedraw
        } catch {
            app?.showMessage("Could not read the store's news: \(error)", isError: true)
            return .needsRedraw
        }
    }

    /// What the status line says of merged transactions: "Updated by termdata import: 3 added".
    package static func summary(_ transactions: [HistoryTransaction]) -> String {
        let changes = transactions.flatMap(\.changes)
        let counts = [(HistoryChangeType.insert, "added"), (.update, "changed"), (.delete, "removed")].compactMap { type, word -> String? in
            let n = Set(changes.filter { $0.changeType == type }.map(\.changedObjectID)).count
            return n == 0 ? nil : "\(n) \(word)"
        }
        let authors = Set(transactions.map { $0.author ?? "another program" }).sorted()
        return "Updated by \(authors.joined(separator: ", ")): " + (counts.isEmpty ? "no visible changes" : counts.joined(separator: ", "))
    }
}
