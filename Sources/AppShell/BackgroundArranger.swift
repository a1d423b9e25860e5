import Foundation
import Bindings
import ObjectGraph
import Predicates
import TerminalUI

/// Reads a new filter or sort of a lazily fetching controller on a background context, so
/// that the application keeps answering while a large store is searched: the status bar
/// shows the work, Esc stops it, a newer arrangement stops an older one, and the results
/// take the old ones' place when they are ready, the selection kept where it still shows.
///
/// ```swift
/// let arranger = BackgroundArranger(app: app, coordinator: store.coordinator)
/// if !arranger.arrange(items, filter: predicate, title: "Filtering", done: { _ in updateStatus() }) {
///     items.filterPredicate = predicate     // in memory, or unsaved changes: here and now
/// }
/// ```
package final class BackgroundArranger {
    let app: Application
    let coordinator: PersistentStoreCoordinator
    /// The arrangement being read, if one is.
    package private(set) var work: BackgroundWork?
    /// The private-queue context the arrangements are read on, made at the first one.
    private lazy var background: ManagedObjectContext = {
        let context = ManagedObjectContext(coordinator: coordinator, concurrencyType: .privateQueue)
        context.name = "arranging"
        return context
    }()

    package init(app: Application, coordinator: PersistentStoreCoordinator) {
        self.app = app
        self.coordinator = coordinator
    }

    /// Whether Esc may stop the read under way.
    private var workIsStoppable = true

    /// Stops the arrangement being read, if one is; its results are dropped. A read that
    /// may not be stopped runs to its end, and its controller drops what it read for an
    /// owner it no longer shows (`ArrayController.apply`).
    package func cancel() {
        guard let work else { return }
        self.work = nil
        if workIsStoppable { app.cancelWork(work) }
    }

    /// Starts reading `controller` with a new filter (and sort, when given) elsewhere; `done`
    /// gets `nil` once the results are shown, or the error that kept them from being read.
    /// Returns false, doing nothing, when only the controller's own context can read it (see
    /// `ArrayController.arrangement`): then set the filter or sort directly.
    @discardableResult
    package func arrange(_ controller: ArrayController, filter: ObjectPredicate?, sort: [ObjectSortDescriptor]? = nil,
                         title: String, done: @escaping ((any Error)?) -> Void) -> Bool {
        cancel()
        guard let arrangement = controller.arrangement(filterPredicate: filter, sortDescriptors: sort) else { return false }
        read(arrangement, into: controller, title: title, done: done)
        return true
    }

    /// Reads an arrangement the controller made (`readsOwnersElsewhere` hands one over when
    /// its owner changes) elsewhere, as `arrange` does, stopping the one read before.
    /// - Parameter stoppable: whether Esc stops it; a read whose controller shows nothing
    ///   until it ends (a new owner's objects) is not, and ends soon.
    package func read(_ arrangement: ArrayController.Arrangement, into controller: ArrayController, title: String,
                      stoppable: Bool = true, done: @escaping ((any Error)?) -> Void = { _ in }) {
        cancel()
        let background = self.background
        workIsStoppable = stoppable
        var started: BackgroundWork?
        started = app.beginWork(title, cancel: { background.interruptWork() }, canStop: { stoppable }, start: { _, finish in
            background.perform {
                finish(Result { try arrangement.run(in: background) })
                // What the read brought into memory goes with it.
                background.reset()
            }
        }, done: { [weak self, weak controller] (result: Result<ArrayController.ArrangedResults, any Error>) in
            // A newer read may have taken this one's place.
            if let self, self.work === started { self.work = nil }
            switch result {
            case .success(let found):
                controller?.apply(found)
                done(nil)
            case .failure(let error):
                done(error)
            }
        })
        work = started
    }
}
