import Foundation
import Migration
import ObjectGraph
import PostgresStore
import SQLiteStore
import Synchronization
import TerminalUI

/// Opening a store written with an earlier version of the ToDo model: the migration runs on
/// a background thread while a window says what changes, the status bar shows how far it
/// has come, and keys answer (help, resizing). Esc or q stops it, the store left as it was.
/// Once it ends, `ToDoStore.open` finds the store current.
///
/// ```swift
/// if let migration = try ToDoMigration(storeAt: url, type: .sqlite) {
///     try migration.run(on: driver)
/// }
/// let store = try ToDoStore.open(at: url, type: .sqlite)
/// ```
public final class ToDoMigration {
    public let url: URL
    public let type: StoreType
    /// The version the store was written with.
    public let sourceVersion: String
    public let steps: [StoreMigrator.Step]
    /// How it ended, once it has: the reports of its steps, or the error that stopped it
    /// (`MigrationStopped` when the user did).
    public private(set) var outcome: Result<[MigrationReport], any Error>?
    private let currentVersion: String
    private var thread: MigrationThread?

    /// The migration a store file needs; `nil` when it needs none: the file is missing or
    /// empty (a new store), at the current version, or not a file (a store on a server
    /// changes in place, in one transaction, as it is opened).
    public init?(storeAt url: URL, type: StoreType) throws {
        guard url.isFileURL, let size = try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int, size > 0 else {
            return nil
        }
        SQLiteStore.register()
        PostgresStore.register()
        DoNotAlertMigrationPolicy.register()
        let migrator = StoreMigrator(versions: try ToDoStore.bundledVersions(), mappings: try ToDoStore.bundledMappings())
        let from = try migrator.sourceVersion(forStoreAt: url, type: type)
        let steps = try migrator.plan(from: from)
        guard !steps.isEmpty else { return nil }
        self.url = url
        self.type = type
        self.sourceVersion = from
        self.steps = steps
        self.currentVersion = migrator.versions.currentVersionName
    }

    /// What the window says: the versions, each step's changes, and where the original goes.
    public var lines: [String] {
        let name = url.lastPathComponent
        var lines = ["\(name) was written with the ToDo model's version “\(sourceVersion)”;",
                     "this application reads version “\(currentVersion)”. Migrating it:", ""]
        for step in steps {
            lines.append("  \(step.from) → \(step.to) (\(step.inferred ? "inferred" : "mapping file"))")
            lines += step.changes.map { "    \($0)" }
        }
        lines += ["", "The original is kept as \(name).backup.", "Esc stops the migration and leaves the store as it was."]
        return lines
    }

    /// Shows the window and starts the migration on a background thread; the returned
    /// application runs it (`run()`, or `runScript` in tests) and quits when it ends.
    public func begin(on driver: TerminalDriver) -> Application {
        let app = Application(driver: driver)
        let window = Window(title: "Migrating \(url.lastPathComponent)")
        let labels = lines.map { Label($0) }
        for label in labels { window.addSubview(label) }
        window.layout = { _, area in
            for (i, label) in labels.enumerated() {
                label.frame = Rect(x: area.x + 1, y: area.y + 1 + i, width: max(0, area.width - 2), height: 1)
            }
        }
        app.show(window)
        app.statusBar.status = "Migrating"
        // q stops as Esc does: there is nothing to quit to until the store is current.
        app.keyMap.rebind("app.quit", to: [])
        app.keyMap.add(Command("migration.stop", title: "Stop the migration, leaving the store as it was", keys: [.character("q")]) { [weak app] in
            app?.cancelWork()
            return .redraw
        })
        let (url, type) = (self.url, self.type)
        let thread = MigrationThread()
        self.thread = thread
        app.beginWork("Migrating", cancel: { thread.stop() }, start: { progress, finish in
            Thread.detachNewThread {
                let result = Result { () throws -> [MigrationReport] in
                    // Made here: a migrator (its policies, its closures) stays on its thread.
                    var migrator = StoreMigrator(versions: try ToDoStore.bundledVersions(), mappings: try ToDoStore.bundledMappings())
                    migrator.progress = { fraction, what in
                        try thread.check()
                        progress.report("\(Int(fraction * 100))% \(what)")
                    }
                    return try migrator.migrateStore(at: url, type: type)
                }
                thread.end(with: result)
                finish(thread)
            }
        }, done: { [weak self, weak app] (thread: MigrationThread) in
            self?.outcome = thread.result
            app?.requestQuit()
        })
        // Stopped: the migration ends at its next report, putting the store back as it was;
        // the application waits for that, answering keys, so that it never quits with the
        // store half moved. A stop that came after the last step finds the store migrated.
        let name = url.lastPathComponent
        app.schedule(after: 0.05, repeating: 0.05) { [weak self, weak app] _ in
            guard let self, let app, self.outcome == nil, thread.isStopped else { return .ignored }
            guard let result = thread.result else {
                app.statusBar.status = "Stopping: putting \(name) back as it was"
                return .needsRedraw
            }
            self.outcome = result
            app.requestQuit()
            return .needsRedraw
        }
        return app
    }

    /// Shows the window and migrates, until the migration ends or the user stops it.
    /// - Throws: `MigrationStopped` when the user stopped it (the store is as it was), or the
    ///   migration's own error.
    public func run(on driver: TerminalDriver) throws {
        let app = begin(on: driver)
        // However the window ends (a signal, a terminal that would not start), the migration
        // is stopped and waited for: the program never ends with the store half moved.
        defer { waitForThread() }
        try app.run()
        waitForThread()
        _ = try (outcome ?? .failure(MigrationStopped())).get()
    }
}

extension ToDoMigration {
    /// Stops the migration's thread if it still runs, and waits for it to end.
    private func waitForThread() {
        guard outcome == nil, let thread else { return }
        thread.stop()
        while thread.result == nil { Thread.sleep(forTimeInterval: 0.01) }
        outcome = thread.result
    }
}

/// The thread a migration runs on, as the loop sees it: whether the user asked it to stop,
/// and how it ended.
private final class MigrationThread: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let ending = Mutex<Result<[MigrationReport], any Error>?>(nil)

    func stop() { stopped.store(true, ordering: .releasing) }

    var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// Throws once the user asked to stop.
    func check() throws {
        if isStopped { throw MigrationStopped() }
    }

    func end(with result: Result<[MigrationReport], any Error>) { ending.withLock { $0 = result } }

    /// How it ended; `nil` while it runs.
    var result: Result<[MigrationReport], any Error>? { ending.withLock { $0 } }
}

/// The user stopped a migration; the store is as it was.
public struct MigrationStopped: Error, CustomStringConvertible {
    public init() {}
    public var description: String { "the migration was stopped; the store is as it was" }
}
