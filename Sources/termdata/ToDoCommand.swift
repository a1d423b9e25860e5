import ArgumentParser
import Foundation
import AppShell
import Interchange
import Migration
import ObjectGraph
import TerminalUICurses
import ToDoApp

/// `termdata [todo] [--store PATH] [--type sqlite|xml|binary] [--empty] [--alert-interval SECONDS]`
struct ToDoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "todo",
        abstract: "Open the ToDo application (the default).",
        discussion: "Opens $XDG_DATA_HOME/termdata/ToDo.sqlite (~/.local/share/termdata/ToDo.sqlite), creating it when missing."
    )

    @Option(help: "The store: a file, or postgres://user@host:port/database?schema=NAME (default: the ToDo store in the data directory).")
    var store: String?

    /// `--type`, as every command names it; `--store-type`, its earlier name, still works.
    @Option(name: [.customLong("type"), .customLong("store-type")],
            help: "The store type: sqlite, xml or binary (default: what an existing file holds, else from the file extension, else sqlite).")
    var storeType: StoreKind?

    @Flag(help: "Start a new store without the welcome item and sample categories.")
    var empty = false

    @Option(name: .customLong("alert-interval"), help: "Seconds between checks for items coming due.")
    var alertInterval: Double = 60

    func validate() throws {
        guard alertInterval > 0 else { throw ValidationError("--alert-interval must be a positive number of seconds") }
    }

    func run() throws {
        do {
            try CursesDriver.checkTerminal()
        } catch {
            throw CommandFailure("\(error) (termdata needs a terminal for the ToDo application; `termdata --help` lists the commands that do not)")
        }
        let url = try StoreLocation.url(of: store) ?? ToDoStore.defaultURL()
        if !url.isFileURL, let storeType {
            throw CommandFailure("--type \(storeType.rawValue) does not fit \(StoreLocation.displayName(url)), a PostgreSQL store")
        }
        let type = store == nil ? (storeType?.storeType ?? .sqlite) : StoreLocation.type(of: url, named: storeType)
        let todoStore: ToDoStore
        do {
            // A store of an earlier version is migrated first, in a window that answers keys.
            if let migration = try ToDoMigration(storeAt: url, type: type) {
                do {
                    try migration.run(on: CursesDriver())
                } catch is MigrationStopped {
                    throw CommandFailure("\(StoreLocation.displayName(url)): the migration from model version “\(migration.sourceVersion)” was stopped; "
                                         + "the store is as it was, and the application opens it once it is migrated")
                }
            }
            let progress = ProgressLine()
            todoStore = try ToDoStore.open(at: url, type: type, seeded: !empty) { progress.update($0, $1) }
            progress.finish()
        } catch {
            // Store errors name the file already; others are given it, once.
            let message = "\(error)"
            let place = StoreLocation.displayName(url)
            throw CommandFailure(message.contains(place) || !url.isFileURL ? message : "\(place): \(message)")
        }
        let application = try ToDoApplication(store: todoStore, driver: CursesDriver.stoppingWork(of: todoStore.coordinator),
                                              alertInterval: alertInterval,
                                              viewSettingsURL: ToDoViewSettings.defaultURL())
        application.filterHistory = FilterHistory(url: FilterHistory.defaultURL(), store: FilterHistory.storeKey(url))
        application.savedFilters = SavedFilters(url: SavedFilters.defaultURL(), store: FilterHistory.storeKey(url))
        do {
            try application.run()
        } catch {
            throw CommandFailure("\(error)")
        }
        // After SIGTERM or a hangup (the changes saved, as documented), the shell's status for it.
        if let signal = application.app.quitSignal, signal != .interrupt { throw signal.exitCode }
    }
}
