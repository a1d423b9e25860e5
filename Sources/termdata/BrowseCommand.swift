import ArgumentParser
import Foundation
import AppShell
import Interchange
import Browser
import ObjectGraph
import TerminalUICurses
import ToDoApp

/// `termdata browse [--store PATH --model MODEL] [--type T] [--read-only]`: any model and store in the browser.
struct BrowseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "Browse and edit any store with its model: entities, objects, relationships.",
        discussion: """
            Enter on a relationship cell follows it (f does too) and Backspace comes back; attribute cells \
            edit in place; / filters with words or a predicate; Ctrl-S saves; q asks before leaving unsaved \
            changes. Without --store, browses the ToDo store.
            """
    )

    @OptionGroup var storeArguments: StoreArguments

    @Flag(name: .customLong("read-only"), help: "Open the store read-only: nothing can be changed, and the file is left as it was.")
    var readOnly = false

    func run() throws {
        do {
            try CursesDriver.checkTerminal()
        } catch {
            throw CommandFailure("\(error) (the browser needs a terminal; `termdata query` and `termdata export` do not)")
        }
        let model = try storeArguments.loadModel()
        // A file the user may not write, or in a folder they may not write (where SQLite
        // keeps its journal), is browsed read-only rather than refused at the first save.
        let url = storeArguments.storeURL
        let files = FileManager.default
        let cannotWrite = !readOnly && url.isFileURL && files.fileExists(atPath: url.path)
            && !(files.isWritableFile(atPath: url.path) && files.isWritableFile(atPath: url.deletingLastPathComponent().path))
        let inferred = storeArguments.opensReadOnlyForItsModel(model)
        let context = try storeArguments.open(model: model, readOnly: readOnly || cannotWrite || inferred, tracksHistory: true)
        let browser: BrowserApplication
        do {
            browser = try BrowserApplication(context: context, title: url.isFileURL ? url.lastPathComponent : storeArguments.storeName,
                                             driver: CursesDriver.stoppingWork(of: context.coordinator),
                                             isReadOnly: readOnly || cannotWrite || inferred)
        } catch {
            throw CommandFailure(error)
        }
        browser.filterHistory = FilterHistory(url: FilterHistory.defaultURL(), store: FilterHistory.storeKey(url))
        browser.savedFilters = SavedFilters(url: SavedFilters.defaultURL(), store: FilterHistory.storeKey(url))
        if inferred {
            browser.app.showMessage("The model was inferred from the store's layout: read-only (--writable to edit; termdata model --store shows the guesses)")
        }
        if cannotWrite { browser.app.showMessage("\(url.lastPathComponent) cannot be written here: it is open read-only") }
        do {
            try browser.run()
        } catch {
            throw CommandFailure("\(error)")
        }
        if let signal = browser.app.quitSignal, signal != .interrupt { throw signal.exitCode }
    }
}
