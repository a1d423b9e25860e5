import Foundation
import Synchronization

/// Work the application runs on another thread (a filter over a large store, an import), so
/// that keys, resizing and help go on answering: its result comes back to the loop's thread,
/// the status bar shows it running, and Esc stops it.
///
/// ```swift
/// app.beginWork("Filtering", cancel: { background.interruptWork() }, start: { finish in
///     background.perform { finish(Result { try background.count(for: request) }) }
/// }, done: { result in show(result) })
/// ```
public final class BackgroundWork {
    /// What the status bar says while it runs ("Filtering").
    public let title: String
    /// When it began, on the driver's clock.
    public let started: Double
    /// What it has done so far, when it can tell ("12,000 of 50,000"); set from any thread.
    public let progress = WorkProgress()
    let id: Int
    let cancelHandler: @Sendable () -> Void
    /// Asked before stopping: false when the work is past the point where it can stop (it
    /// is writing its result) and will finish anyway.
    let canStop: @Sendable () -> Bool
    let deliver: (any Sendable) -> Void
    /// Whether it was cancelled: its result, if one still comes, is dropped.
    public fileprivate(set) var isCancelled = false

    init(id: Int, title: String, started: Double, cancel: @escaping @Sendable () -> Void,
         canStop: @escaping @Sendable () -> Bool, deliver: @escaping (any Sendable) -> Void) {
        self.id = id
        self.title = title
        self.started = started
        self.cancelHandler = cancel
        self.canStop = canStop
        self.deliver = deliver
    }
}

/// What a piece of work says it has done so far, for the status bar; reported from any thread.
public final class WorkProgress: Sendable {
    private let text = Mutex<String?>(nil)
    private let finishing = Atomic<Bool>(false)

    /// Says how far the work has come ("Task: 12,000 objects read").
    public func report(_ progress: String) { text.withLock { $0 = progress } }

    /// Says the work is past the point of stopping (it is saving): the status bar stops
    /// offering Esc.
    public func reportFinishing(_ progress: String) {
        report(progress)
        finishing.store(true, ordering: .releasing)
    }

    var current: String? { text.withLock { $0 } }
    var isFinishing: Bool { finishing.load(ordering: .acquiring) }
}

/// Results on their way from worker threads to the loop.
final class WorkMailbox: Sendable {
    private let results = Mutex<[(id: Int, value: any Sendable)]>([])

    func post(_ id: Int, _ value: any Sendable) { results.withLock { $0.append((id, value)) } }

    func take() -> [(id: Int, value: any Sendable)] {
        results.withLock { results in
            defer { results = [] }
            return results
        }
    }
}

extension Application {
    /// The name of the command that stops the work in progress (Esc).
    public static let cancelWorkCommandName = "app.cancelWork"

    /// Starts work elsewhere: `start` hands it to a queue of the caller's and calls `finish`
    /// (from any thread) with its result, which `done` receives on the loop's thread, unless
    /// the work was cancelled first. `cancel` is called, on the loop's thread, when the user
    /// presses Esc or `cancelWork` is called; the work should then end soon.
    @discardableResult
    public func beginWork<T: Sendable>(_ title: String, cancel: @escaping @Sendable () -> Void = {},
                                       canStop: @escaping @Sendable () -> Bool = { true },
                                       start: (_ finish: @escaping @Sendable (T) -> Void) -> Void,
                                       done: @escaping (T) -> Void) -> BackgroundWork {
        beginWork(title, cancel: cancel, canStop: canStop, start: { _, finish in start(finish) }, done: done)
    }

    /// `beginWork`, with a `WorkProgress` the work reports to as it goes; the status bar shows
    /// the last report.
    ///
    /// - Parameter title: what the work is called in the status bar and in messages.
    /// - Parameter cancel: called on the loop's thread when the work is stopped (Esc, or
    ///   `cancelWork`); the work should then end soon.
    /// - Parameter canStop: asked (from the loop's thread) before `cancel`: work that is
    ///   writing its result (a save) says false, and runs to its end, its result delivered.
    /// - Parameter start: hands the work to a queue of the caller's, with the `WorkProgress`
    ///   to report to and the `finish` to call (from any thread) with the result.
    /// - Parameter done: receives the result on the loop's thread, unless the work was
    ///   cancelled first.
    @discardableResult
    public func beginWork<T: Sendable>(_ title: String, cancel: @escaping @Sendable () -> Void = {},
                                       canStop: @escaping @Sendable () -> Bool = { true },
                                       start: (_ progress: WorkProgress, _ finish: @escaping @Sendable (T) -> Void) -> Void,
                                       done: @escaping (T) -> Void) -> BackgroundWork {
        nextWorkID += 1
        let id = nextWorkID
        let work = BackgroundWork(id: id, title: title, started: driver.clock.now, cancel: cancel, canStop: canStop) { value in
            if let value = value as? T { done(value) }
        }
        runningWork.append(work)
        keyMap.add(Command(Self.cancelWorkCommandName, title: "Stop the work in progress", keys: [.escape], hint: "Stop") { [weak self] in
            self?.cancelWork()
            return .redraw
        })
        setNeedsDisplay()
        let mailbox = self.mailbox
        start(work.progress) { value in mailbox.post(id, value) }
        return work
    }

    /// Stops a piece of work, or all of it: its `cancel` runs, and its result is dropped.
    /// Work past the point of stopping (`canStop` said no) goes on to its end instead.
    public func cancelWork(_ work: BackgroundWork? = nil) {
        let asked = runningWork.filter { work == nil || $0 === work }
        let finishing = asked.filter { !$0.canStop() }
        let stopping = asked.filter { candidate in !finishing.contains { $0 === candidate } }
        runningWork.removeAll { candidate in stopping.contains { $0 === candidate } }
        for work in stopping {
            work.isCancelled = true
            work.cancelHandler()
        }
        if work == nil, !stopping.isEmpty { showMessage("Stopped: \(stopping.map(\.title).joined(separator: ", "))") }
        if !finishing.isEmpty {
            showMessage("\(finishing.map(\.title).joined(separator: ", ")) cannot stop now; it ends soon", isError: true)
        }
        workChanged()
    }

    /// Whether a piece of work is still running: neither finished nor stopped.
    public func isRunning(_ work: BackgroundWork) -> Bool { runningWork.contains { $0 === work } }

    /// Whether work is running.
    public var isWorking: Bool { !runningWork.isEmpty }

    /// Hands finished work's results to their `done` closures; called by the loop each pass.
    func deliverFinishedWork() {
        for (id, value) in mailbox.take() {
            guard let index = runningWork.firstIndex(where: { $0.id == id }) else { continue }
            let work = runningWork.remove(at: index)
            workChanged()
            work.deliver(value)
        }
    }

    private func workChanged() {
        if runningWork.isEmpty { keyMap.remove(named: Self.cancelWorkCommandName) }
        setNeedsDisplay()
    }

    /// What the status bar says while work runs: its title, progress and time so far.
    var workActivity: String? {
        guard let work = runningWork.last else { return nil }
        let seconds = max(0, driver.clock.now - work.started)
        let spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"][Int(seconds * 10) % 10]
        let progress = work.progress.current.map { " \($0)" } ?? ""
        let more = runningWork.count > 1 ? " (+\(runningWork.count - 1))" : ""
        return "\(spinner) \(work.title)…\(progress) \(String(format: "%.1f", seconds)) s\(more)" + (work.progress.isFinishing ? "" : " · Esc stops")
    }

    /// Runs the loop until no work is left, or `timeout` seconds pass; for tests and for
    /// work that must end before the program does. Returns whether all work ended.
    @discardableResult
    public func waitForWork(timeout: Double = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while isWorking, Date() < deadline {
            deliverFinishedWork()
            if isWorking { Thread.sleep(forTimeInterval: 0.001) }
        }
        if needsDisplay { redraw() }
        return !isWorking
    }
}
